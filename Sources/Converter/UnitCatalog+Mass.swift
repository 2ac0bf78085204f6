// Base unit: the kilogram.
extension UnitCatalog {
    static let massUnits: [UnitDefinition] = [
        // SI prefixes of the gram.
        UnitDefinition("milligram", .mass, name: "Milligram", symbol: "mg", scale: "0.000001"),
        UnitDefinition("gram", .mass, name: "Gram", symbol: "g", scale: "0.001", aliases: ["gramme", "grammes"]),
        UnitDefinition("kilogram", .mass, name: "Kilogram", symbol: "kg", scale: 1, aliases: ["kilo", "kilos"]),
        // 1 t = 1000 kg ("metric ton").
        UnitDefinition(
            "tonne", .mass, name: "Tonne", symbol: "t", scale: 1000, aliases: ["metric ton", "metric tons"]),
        // Avoirdupois ounce = 1/16 lb = 0.028349523125 kg.
        UnitDefinition("ounce", .mass, name: "Ounce", symbol: "oz", scale: "0.028349523125"),
        // International yard and pound agreement (1959): 1 lb = 0.45359237 kg.
        UnitDefinition("pound", .mass, name: "Pound", symbol: "lb", scale: "0.45359237", aliases: ["lbs"]),
        // 1 st = 14 lb = 6.35029318 kg.
        UnitDefinition("stone", .mass, name: "Stone", plural: "Stone", symbol: "st", scale: "6.35029318",
                       aliases: ["stones"]),
    ]
}
