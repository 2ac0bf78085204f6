// Base unit: the pascal.
extension UnitCatalog {
    static let pressureUnits: [UnitDefinition] = [
        UnitDefinition("pascal", .pressure, name: "Pascal", symbol: "Pa", scale: 1),
        UnitDefinition("kilopascal", .pressure, name: "Kilopascal", symbol: "kPa", scale: 1000),
        // 1 bar = 100 kPa.
        UnitDefinition("bar", .pressure, name: "Bar", symbol: "bar", scale: 100_000),
        // Standard atmosphere: 101325 Pa (10th CGPM, 1954).
        UnitDefinition("atmosphere", .pressure, name: "Atmosphere", symbol: "atm", scale: 101_325),
        // Pound-force per square inch: 0.45359237 kg × 9.80665 m/s² (standard gravity) over
        // (0.0254 m)²; the quotient is not a finite decimal (6894.757293168…).
        UnitDefinition(
            "psi", .pressure, name: "Pound per square inch", plural: "Pounds per square inch", symbol: "psi",
            scale: "4.4482216152605" / "0.00064516", aliases: ["lbf/in2", "lb/in2"]),
        // Conventional millimetre of mercury: 13595.1 kg/m³ × 9.80665 m/s² × 0.001 m = 133.322387415 Pa.
        UnitDefinition(
            "millimetre-of-mercury", .pressure, name: "Millimetre of mercury", plural: "Millimetres of mercury",
            symbol: "mmHg", scale: "133.322387415"),
        // 1 Torr = 1/760 atm = 101325/760 Pa (≈ but not exactly 1 mmHg).
        UnitDefinition("torr", .pressure, name: "Torr", plural: "Torr", symbol: "Torr", scale: "101325" / "760"),
    ]
}
