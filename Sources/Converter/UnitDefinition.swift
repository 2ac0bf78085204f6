/// One unit with its exact relation to its category's base unit.
///
/// A value `x` in this unit is `(x + offset) × scale` base units. Only temperatures have an
/// offset; every other unit is a plain multiple.
struct UnitDefinition: Sendable {
    /// The stable identifier.
    var id: UnitID
    /// The category, which fixes the base unit (metre, kilogram, litre, kelvin, byte, …).
    var category: UnitCategory
    /// Singular label.
    var name: String
    /// Plural label.
    var plural: String
    /// Short symbol.
    var symbol: String
    /// Base units per unit, exact.
    var scale: Rational
    /// Added before scaling (temperatures only).
    var offset: Rational
    /// Extra spellings for lookup beyond id, name, plural and symbol (matched case-insensitively).
    var aliases: [String]
    /// Optional clarification shown to users.
    var note: String?

    /// Defines a unit; `plural` defaults to the name plus "s".
    init(
        _ id: UnitID, _ category: UnitCategory, name: String, plural: String? = nil, symbol: String,
        scale: Rational, offset: Rational = .zero, aliases: [String] = [], note: String? = nil
    ) {
        self.id = id
        self.category = category
        self.name = name
        self.plural = plural ?? name + "s"
        self.symbol = symbol
        self.scale = scale
        self.offset = offset
        self.aliases = aliases
        self.note = note
    }

    /// The public view of this unit.
    var info: UnitInfo {
        UnitInfo(id: id, category: category, name: name, plural: plural, symbol: symbol, note: note)
    }
}
