import Foundation

/// Everything the converter screen shows, as one value a UI can keep and persist (`Codable`).
///
/// Units are remembered per category, so leaving Temperature and coming back restores °C → °F.
/// Decoding repairs units a newer catalog no longer offers (falling back to the category's
/// defaults) instead of failing, because persisted preferences outlive catalog changes.
public struct ConverterState: Hashable, Sendable, Codable {
    /// The selected category segment.
    public private(set) var category: UnitCategory
    /// The selected "from" and "to" units, always offered in `category` under `convention`.
    public private(set) var units: UnitPair
    /// What KB, MB, … mean.
    public private(set) var convention: DataConvention
    /// The typed "from" value.
    public private(set) var input: KeypadInput
    /// Last units per category raw value (a String key keeps the JSON an object).
    private var rememberedUnits: [String: UnitPair]

    /// A fresh converter showing a category's default units and "0".
    public init(category: UnitCategory = .data, convention: DataConvention = .standard) {
        self.category = category
        self.convention = convention
        self.units = UnitCatalog.defaultUnits(for: category, convention: convention)
        self.input = KeypadInput()
        self.rememberedUnits = [:]
    }

    /// What a first launch shows, as the assignment's first screen does: Data, Byte → Byte, "0".
    ///
    /// Both wheels start on the same unit so the first key press echoes in both labels; a
    /// category the user has not visited yet still opens on its `UnitCatalog.defaultUnits`.
    public static var firstLaunch: ConverterState {
        var state = ConverterState(category: .data, convention: .standard)
        state.units = UnitPair(from: "byte", to: "byte")
        return state
    }

    /// The "from" unit.
    public var fromUnit: UnitID { units.from }

    /// The "to" unit.
    public var toUnit: UnitID { units.to }

    /// The units both pickers offer.
    public var availableUnits: [UnitInfo] {
        UnitCatalog.units(in: category, convention: convention)
    }

    /// Details of the "from" unit (symbol, name) as the convention labels it.
    public var fromInfo: UnitInfo? { UnitCatalog.info(for: units.from, convention: convention) }

    /// Details of the "to" unit.
    public var toInfo: UnitInfo? { UnitCatalog.info(for: units.to, convention: convention) }

    /// Applies a keypad press; ± is refused where the category has no negatives.
    @discardableResult
    public mutating func press(_ key: KeypadKey) -> KeypadOutcome {
        input.press(key, allowsNegative: category.allowsNegative)
    }

    /// Replaces the typed value (e.g. restored from a URL); the sign is dropped where not allowed.
    public mutating func setInput(_ newInput: KeypadInput) {
        input = newInput
        if !category.allowsNegative { input.dropSign() }
    }

    /// Shows another category, keeping the typed value (its sign is dropped if the new category
    /// has no negatives) and restoring the units last used there, or its defaults.
    public mutating func switchCategory(to newCategory: UnitCategory) {
        guard newCategory != category else { return }
        rememberedUnits[category.rawValue] = units
        category = newCategory
        units = repaired(rememberedUnits[newCategory.rawValue])
        if !category.allowsNegative { input.dropSign() }
    }

    /// Picks the "from" unit; throws if the pickers don't offer it.
    public mutating func selectFromUnit(_ id: UnitID) throws(ConverterError) {
        try checkAvailable(id)
        units.from = id
    }

    /// Picks the "to" unit; throws if the pickers don't offer it.
    public mutating func selectToUnit(_ id: UnitID) throws(ConverterError) {
        try checkAvailable(id)
        units.to = id
    }

    /// Exchanges the "from" and "to" units; the typed value stays, now in the other unit.
    public mutating func swap() {
        units = UnitPair(from: units.to, to: units.from)
    }

    /// Changes what KB, MB, … mean; data selections keep their position (KB ↔ KiB).
    public mutating func setConvention(_ newConvention: DataConvention) {
        guard newConvention != convention else { return }
        convention = newConvention
        units = repaired(units)
    }

    /// The typed value converted to the "to" unit; throws e.g. below absolute zero.
    public func convertedValue() throws(ConverterError) -> ExactValue {
        try ConversionEngine.convert(input.value, from: units.from, to: units.to, convention: convention)
    }

    private func checkAvailable(_ id: UnitID) throws(ConverterError) {
        let offered = availableUnits
        guard offered.contains(where: { $0.id == id }) else {
            throw .unitNotInCategory(id, category: category, choices: offered.map(\.symbol))
        }
    }

    /// `pair` with each unit made available in the current category and convention.
    private func repaired(_ pair: UnitPair?) -> UnitPair {
        let defaults = UnitCatalog.defaultUnits(for: category, convention: convention)
        guard let pair else { return defaults }
        return UnitPair(
            from: available(pair.from) ?? defaults.from,
            to: available(pair.to) ?? defaults.to)
    }

    /// The unit itself if offered, else the data unit in the same picker position under the
    /// current convention (every convention lists bit, byte, then four prefixes), else nil.
    private func available(_ id: UnitID) -> UnitID? {
        let offered = UnitCatalog.units(in: category, convention: convention)
        if offered.contains(where: { $0.id == id }) { return id }
        guard category == .data else { return nil }
        for other in DataConvention.allCases {
            let list = UnitCatalog.units(in: .data, convention: other)
            if let position = list.firstIndex(where: { $0.id == id }), position < offered.count {
                return offered[position].id
            }
        }
        return nil
    }

    private enum CodingKeys: String, CodingKey {
        case category, from, to, convention, input, rememberedUnits
    }

    /// Decodes a persisted state, repairing units the catalog no longer offers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        category = try container.decode(UnitCategory.self, forKey: .category)
        convention = try container.decodeIfPresent(DataConvention.self, forKey: .convention) ?? .standard
        input = try container.decodeIfPresent(KeypadInput.self, forKey: .input) ?? KeypadInput()
        rememberedUnits = try container.decodeIfPresent([String: UnitPair].self, forKey: .rememberedUnits) ?? [:]
        units = UnitCatalog.defaultUnits(for: category, convention: convention)
        let from = try container.decodeIfPresent(UnitID.self, forKey: .from) ?? units.from
        let to = try container.decodeIfPresent(UnitID.self, forKey: .to) ?? units.to
        units = repaired(UnitPair(from: from, to: to))
        if !category.allowsNegative { input.dropSign() }
    }

    /// Encodes category, units, convention, input and the per-category memory.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(category, forKey: .category)
        try container.encode(units.from, forKey: .from)
        try container.encode(units.to, forKey: .to)
        try container.encode(convention, forKey: .convention)
        try container.encode(input, forKey: .input)
        try container.encode(rememberedUnits, forKey: .rememberedUnits)
    }
}
