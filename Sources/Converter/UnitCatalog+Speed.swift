// Base unit: the metre per second.
extension UnitCatalog {
    static let speedUnits: [UnitDefinition] = [
        UnitDefinition(
            "metre-per-second", .speed, name: "Metre per second", plural: "Metres per second", symbol: "m/s",
            scale: 1, aliases: ["mps"]),
        // 1000 m / 3600 s = 1/3.6 m/s, not a finite decimal.
        UnitDefinition(
            "kilometre-per-hour", .speed, name: "Kilometre per hour", plural: "Kilometres per hour",
            symbol: "km/h", scale: "1" / "3.6", aliases: ["kph", "kmh", "km/hr"]),
        // 0.3048 m / 1 s.
        UnitDefinition(
            "foot-per-second", .speed, name: "Foot per second", plural: "Feet per second", symbol: "ft/s",
            scale: "0.3048", aliases: ["fps"]),
        // 1609.344 m / 3600 s = 0.44704 m/s exactly.
        UnitDefinition(
            "mile-per-hour", .speed, name: "Mile per hour", plural: "Miles per hour", symbol: "mph",
            scale: "0.44704", aliases: ["mi/h", "mi/hr"]),
        // 1 nautical mile per hour = 1852/3600 m/s, not a finite decimal.
        UnitDefinition("knot", .speed, name: "Knot", symbol: "kn", scale: "1852" / "3600", aliases: ["kt", "kts"]),
    ]
}
