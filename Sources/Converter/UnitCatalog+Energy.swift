// Base unit: the joule.
extension UnitCatalog {
    static let energyUnits: [UnitDefinition] = [
        UnitDefinition("joule", .energy, name: "Joule", symbol: "J", scale: 1),
        UnitDefinition("kilojoule", .energy, name: "Kilojoule", symbol: "kJ", scale: 1000),
        // Thermochemical calorie: 4.184 J exactly.
        UnitDefinition(
            "calorie", .energy, name: "Calorie", symbol: "cal", scale: "4.184",
            note: "Thermochemical calorie: 4.184 J"),
        // The food "Calorie": 4184 J.
        UnitDefinition(
            "kilocalorie", .energy, name: "Kilocalorie", symbol: "kcal", scale: 4184,
            note: "Food Calorie; 1000 thermochemical calories"),
        // 1 W × 3600 s.
        UnitDefinition(
            "watt-hour", .energy, name: "Watt-hour", symbol: "Wh", scale: 3600, aliases: ["watt hour", "watt hours"]),
        UnitDefinition(
            "kilowatt-hour", .energy, name: "Kilowatt-hour", symbol: "kWh", scale: 3_600_000,
            aliases: ["kilowatt hour", "kilowatt hours"]),
        // International Table BTU: 1055.05585262 J (ISO 31-4).
        UnitDefinition(
            "btu", .energy, name: "BTU", symbol: "BTU", scale: "1055.05585262",
            aliases: ["british thermal unit", "british thermal units"], note: "International Table BTU"),
        // Elementary charge × 1 V = 1.602176634e-19 J exactly (2019 SI redefinition).
        UnitDefinition("electronvolt", .energy, name: "Electronvolt", symbol: "eV", scale: "1.602176634e-19",
                       aliases: ["electron volt", "electron volts"]),
    ]
}
