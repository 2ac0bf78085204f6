/// One category with its units, for listing the whole catalog.
public struct CategoryListing: Hashable, Sendable, Codable {
    /// The category.
    public let category: UnitCategory
    /// Its units in picker order.
    public let units: [UnitInfo]
}

/// Every unit Pocket converts, grouped by category, with exact factors (see the `+Category` files).
public enum UnitCatalog {
    /// Categories in the order of the category control.
    public static var categories: [UnitCategory] { UnitCategory.allCases }

    /// The whole catalog as categories → units, for pickers and `pocket convert --list`.
    public static func listing(convention: DataConvention = .standard) -> [CategoryListing] {
        categories.map { CategoryListing(category: $0, units: units(in: $0, convention: convention)) }
    }

    /// The units of a category in picker order (metric small to large, then customary).
    public static func units(in category: UnitCategory, convention: DataConvention = .standard) -> [UnitInfo] {
        definitions(in: category, convention: convention).map(\.info)
    }

    /// Describes a unit, or nil if there is no unit with this id.
    public static func info(for id: UnitID, convention: DataConvention = .standard) -> UnitInfo? {
        definition(for: id, convention: convention)?.info
    }

    /// The pair a category shows before the user picked units: a common, useful conversion.
    public static func defaultUnits(for category: UnitCategory, convention: DataConvention = .standard) -> UnitPair {
        switch category {
        case .data: UnitPair(from: convention == .iec ? "kibibyte" : "kilobyte", to: "byte")
        case .temperature: UnitPair(from: "celsius", to: "fahrenheit")
        case .length: UnitPair(from: "kilometre", to: "mile")
        case .mass: UnitPair(from: "kilogram", to: "pound")
        case .volume: UnitPair(from: "litre", to: "us-gallon")
        case .area: UnitPair(from: "square-metre", to: "square-foot")
        case .speed: UnitPair(from: "kilometre-per-hour", to: "mile-per-hour")
        case .time: UnitPair(from: "hour", to: "minute")
        case .energy: UnitPair(from: "kilocalorie", to: "kilojoule")
        case .pressure: UnitPair(from: "bar", to: "psi")
        }
    }

    /// The definitions of a category in picker order.
    static func definitions(in category: UnitCategory, convention: DataConvention) -> [UnitDefinition] {
        switch category {
        case .data: dataUnits(convention)
        case .temperature: temperatureUnits
        case .length: lengthUnits
        case .mass: massUnits
        case .volume: volumeUnits
        case .area: areaUnits
        case .speed: speedUnits
        case .time: timeUnits
        case .energy: energyUnits
        case .pressure: pressureUnits
        }
    }

    /// The definition behind an id; data ids take their factor from the convention.
    static func definition(for id: UnitID, convention: DataConvention) -> UnitDefinition? {
        if let definition = fixedDefinitions[id.rawValue] { return definition }
        return dataDefinition(id, convention: convention)
    }

    /// Every definition of every category, data units of all conventions included (ids repeat).
    static var allDefinitions: [UnitDefinition] {
        categories.flatMap { category in
            category == .data
                ? DataConvention.allCases.flatMap { dataUnits($0) }
                : definitions(in: category, convention: .standard)
        }
    }

    /// Units whose factor never depends on the data convention, by id text.
    ///
    /// Keyed by `String` rather than `UnitID` because the first dictionary keyed by a type makes
    /// the Swift runtime look up that type's `Hashable` conformance by scanning every conformance
    /// in the process (0.7 million instructions, a tenth of what `pocket convert` itself does);
    /// `String`'s has been looked up by then.
    private static let fixedDefinitions: [String: UnitDefinition] = {
        var index: [String: UnitDefinition] = [:]
        for category in categories where category != .data {
            for definition in definitions(in: category, convention: .standard) {
                index[definition.id.rawValue] = definition
            }
        }
        return index
    }()
}
