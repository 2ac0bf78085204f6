import Foundation

/// A channel number that is always on the dial, so no screen ever has to show channel 0 or 100.
public struct Channel: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Everything a two-digit keypad reaches except "00", which no broadcaster uses.
    public static let range = 1...99

    /// The plain number, for arithmetic and storage.
    public let number: Int

    /// Accepts user or stored input only when it names a real channel.
    public init(_ number: Int) throws(RemoteError) {
        guard Self.range.contains(number) else { throw .channelOutOfRange(number) }
        self.number = number
    }

    /// Folds any integer onto the dial, so stepping up or down can never fall off either end.
    init(wrapping number: Int) {
        let count = Self.range.count
        let offset = ((number - Self.range.lowerBound) % count + count) % count
        self.number = Self.range.lowerBound + offset
    }

    /// Two digits, as the set's display shows them ("07").
    public var description: String {
        number < 10 ? "0\(number)" : "\(number)"
    }

    /// One step up; 99 wraps to 1 so the button never goes dead.
    public var next: Channel { Channel(wrapping: number + 1) }

    /// One step down; 1 wraps to 99 so the button never goes dead.
    public var previous: Channel { Channel(wrapping: number - 1) }

    /// Orders by number, so channel lists sort the way the dial does.
    public static func < (lhs: Channel, rhs: Channel) -> Bool {
        lhs.number < rhs.number
    }
}

extension Channel: Codable {
    /// Reads a bare number and refuses one off the dial, so corrupt JSON cannot create channel 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let number = try container.decode(Int.self)
        guard Self.range.contains(number) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "channel \(number) is not in \(Self.range)")
        }
        self.number = number
    }

    /// Writes a bare number so the stored JSON stays readable in SQLite.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(number)
    }
}
