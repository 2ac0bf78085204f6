// Base unit: the kelvin. A temperature x in a unit is (x + offset) × scale kelvins.
extension UnitCatalog {
    static let temperatureUnits: [UnitDefinition] = [
        // 0 °C = 273.15 K exactly (SI brochure, 9th ed.); a degree Celsius is one kelvin.
        UnitDefinition(
            "celsius", .temperature, name: "Celsius", plural: "Celsius", symbol: "°C",
            scale: 1, offset: "273.15", aliases: ["centigrade", "c"]),
        // °F = °R − 459.67 and one degree Fahrenheit is 5/9 K (ITS-90 conventions).
        UnitDefinition(
            "fahrenheit", .temperature, name: "Fahrenheit", plural: "Fahrenheit", symbol: "°F",
            scale: "5" / "9", offset: "459.67", aliases: ["f"]),
        // The SI base unit of temperature.
        UnitDefinition(
            "kelvin", .temperature, name: "Kelvin", plural: "Kelvin", symbol: "K",
            scale: 1, aliases: ["kelvins"]),
        // Absolute scale with Fahrenheit-sized degrees: 1 °R = 5/9 K.
        UnitDefinition(
            "rankine", .temperature, name: "Rankine", plural: "Rankine", symbol: "°R",
            scale: "5" / "9", aliases: ["r"]),
    ]
}
