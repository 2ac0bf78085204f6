// Base unit: the square metre. Squares of the defined lengths, so all exact.
extension UnitCatalog {
    static let areaUnits: [UnitDefinition] = [
        UnitDefinition(
            "square-millimetre", .area, name: "Square millimetre", symbol: "mm²", scale: "0.000001",
            aliases: ["sq mm"]),
        UnitDefinition(
            "square-centimetre", .area, name: "Square centimetre", symbol: "cm²", scale: "0.0001",
            aliases: ["sq cm"]),
        UnitDefinition("square-metre", .area, name: "Square metre", symbol: "m²", scale: 1, aliases: ["sq m"]),
        // 1 ha = 100 m × 100 m.
        UnitDefinition("hectare", .area, name: "Hectare", symbol: "ha", scale: 10000),
        UnitDefinition(
            "square-kilometre", .area, name: "Square kilometre", symbol: "km²", scale: 1_000_000,
            aliases: ["sq km"]),
        // (0.0254 m)².
        UnitDefinition(
            "square-inch", .area, name: "Square inch", plural: "Square inches", symbol: "in²", scale: "0.00064516",
            aliases: ["sq in"]),
        // (0.3048 m)².
        UnitDefinition(
            "square-foot", .area, name: "Square foot", plural: "Square feet", symbol: "ft²", scale: "0.09290304",
            aliases: ["sq ft"]),
        // (0.9144 m)².
        UnitDefinition("square-yard", .area, name: "Square yard", symbol: "yd²", scale: "0.83612736",
                       aliases: ["sq yd"]),
        // International acre = 43,560 ft² = 4046.8564224 m² (not the retired US survey acre).
        UnitDefinition("acre", .area, name: "Acre", symbol: "ac", scale: "4046.8564224"),
        // (1609.344 m)².
        UnitDefinition(
            "square-mile", .area, name: "Square mile", symbol: "mi²", scale: "2589988.110336", aliases: ["sq mi"]),
    ]
}
