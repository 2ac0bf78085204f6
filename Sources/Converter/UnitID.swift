/// The stable identifier of a unit, e.g. "kilometre" or "us-gallon"; safe to persist and put in URLs.
public struct UnitID: RawRepresentable, Hashable, Comparable, Codable, Sendable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    /// The identifier text: lower-case, hyphen-separated, British spelling.
    public let rawValue: String

    /// Wraps an identifier; whether it names a unit is checked where it is used.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps an identifier; whether it names a unit is checked where it is used.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps an identifier literal.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// Encodes as a bare string rather than an object.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes as a bare string rather than an object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Orders by identifier text, for stable listings.
    public static func < (lhs: UnitID, rhs: UnitID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The identifier text.
    public var description: String { rawValue }
}

/// What a picker shows for one unit.
public struct UnitInfo: Hashable, Sendable, Codable, Identifiable {
    /// The stable identifier.
    public let id: UnitID
    /// The category the unit belongs to.
    public let category: UnitCategory
    /// Singular label, e.g. "Kilometre".
    public let name: String
    /// Plural label, e.g. "Kilometres".
    public let plural: String
    /// Short symbol, e.g. "km", "°C", "KB" (which depends on the data convention).
    public let symbol: String
    /// A clarification where the name alone is ambiguous, e.g. "Julian year: 365.25 days".
    public let note: String?
}

/// A "from" and a "to" unit.
public struct UnitPair: Hashable, Sendable, Codable {
    /// The unit the typed value is in.
    public var from: UnitID
    /// The unit the result is shown in.
    public var to: UnitID

    /// Pairs two units.
    public init(from: UnitID, to: UnitID) {
        self.from = from
        self.to = to
    }
}
