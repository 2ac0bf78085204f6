// Base unit: the litre (1 L = 1 dm³ exactly since 1964).
extension UnitCatalog {
    static let volumeUnits: [UnitDefinition] = [
        UnitDefinition("millilitre", .volume, name: "Millilitre", symbol: "mL", scale: "0.001", aliases: ["cc"]),
        UnitDefinition("litre", .volume, name: "Litre", symbol: "L", scale: 1, aliases: ["l"]),
        UnitDefinition(
            "cubic-metre", .volume, name: "Cubic metre", symbol: "m³", scale: 1000, aliases: ["cu m", "cbm"]),
        // US customary units all derive from the US gallon = 231 in³ = 3.785411784 L.
        // Fluid ounce = 1/128 gal = 0.0295735295625 L.
        UnitDefinition(
            "us-fluid-ounce", .volume, name: "US fluid ounce", symbol: "fl oz", scale: "0.0295735295625",
            // "oz"/"ounce" also name the mass ounce, which wins unless the other unit is a volume.
            aliases: ["fluid ounce", "fluid ounces", "us fl oz", "oz", "ounce", "ounces"]),
        // Customary cup = 8 fl oz = 1/16 gal (not the 240 mL "legal" nutrition-label cup).
        UnitDefinition(
            "us-cup", .volume, name: "US cup", symbol: "cup", scale: "0.2365882365", aliases: ["cup", "cups"],
            note: "US customary cup: 8 US fl oz"),
        // Pint = 1/8 gal.
        UnitDefinition(
            "us-pint", .volume, name: "US pint", symbol: "pt", scale: "0.473176473", aliases: ["pint", "pints"]),
        // Quart = 1/4 gal.
        UnitDefinition(
            "us-quart", .volume, name: "US quart", symbol: "qt", scale: "0.946352946", aliases: ["quart", "quarts"]),
        UnitDefinition(
            "us-gallon", .volume, name: "US gallon", symbol: "gal", scale: "3.785411784",
            aliases: ["gallon", "gallons", "us gal"]),
        // UK Weights and Measures Act 1985: 1 imperial gallon = 4.54609 L.
        UnitDefinition(
            "imperial-gallon", .volume, name: "Imperial gallon", symbol: "imp gal", scale: "4.54609",
            aliases: ["uk gallon", "uk gallons", "uk gal"]),
    ]
}
