// Base unit: the metre.
extension UnitCatalog {
    static let lengthUnits: [UnitDefinition] = [
        // SI prefixes.
        UnitDefinition("millimetre", .length, name: "Millimetre", symbol: "mm", scale: "0.001"),
        UnitDefinition("centimetre", .length, name: "Centimetre", symbol: "cm", scale: "0.01"),
        UnitDefinition("metre", .length, name: "Metre", symbol: "m", scale: 1),
        UnitDefinition("kilometre", .length, name: "Kilometre", symbol: "km", scale: 1000),
        // International yard and pound agreement (1959): 1 yd = 0.9144 m, 1 in = 2.54 cm.
        UnitDefinition(
            "inch", .length, name: "Inch", plural: "Inches", symbol: "in", scale: "0.0254", aliases: ["\""]),
        UnitDefinition(
            "foot", .length, name: "Foot", plural: "Feet", symbol: "ft", scale: "0.3048", aliases: ["'"]),
        UnitDefinition("yard", .length, name: "Yard", symbol: "yd", scale: "0.9144"),
        // 1 mi = 1760 yd = 1609.344 m.
        UnitDefinition("mile", .length, name: "Mile", symbol: "mi", scale: "1609.344"),
        // International nautical mile (1929): 1852 m.
        UnitDefinition(
            "nautical-mile", .length, name: "Nautical mile", symbol: "nmi", scale: 1852),
    ]
}
