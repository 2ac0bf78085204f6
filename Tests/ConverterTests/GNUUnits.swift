import Converter
import Foundation

/// GNU units (2.22) driven in batch mode, as an independent oracle for the converter's tables.
struct GNUUnits {
    /// The `units` executable.
    let executable: URL

    /// Finds `units` at /usr/bin/units or on PATH; nil if it is not installed.
    static func locate() -> GNUUnits? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = ["/usr/bin/units"] + path.split(separator: ":").map { "\($0)/units" }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return nil
        }
        return GNUUnits(executable: URL(fileURLWithPath: found))
    }

    /// Answers each (have, want) query with one output line, from a single `units` process.
    ///
    /// With `-t -q` units reads a "have" line then a "want" line and prints one terse answer
    /// per pair; `-d 15` asks for 15 significant digits (doubles carry about 15.9).
    func answers(_ queries: [(have: String, want: String)]) throws -> [String] {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["-t", "-q", "-d", "15"]
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C"
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let request = Data(queries.map { "\($0.have)\n\($0.want)\n" }.joined().utf8)
        let writer = input.fileHandleForWriting
        // Write from another thread: units answers while reading, and once the output pipe is
        // full it would stop reading, deadlocking a writer that waits on the same thread.
        let feeder = Thread {
            writer.write(request)
            try? writer.close()
        }
        feeder.start()
        let reply = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: reply, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
            .filter { !$0.isEmpty }
    }
}

/// Each Pocket unit as GNU units spells it: one table, keyed by unit id, or by
/// "id(binary)"/"id(decimal)" where the meaning follows the data convention (GNU's plain
/// "kilobyte" is 1000 bytes, like Pocket's decimal and IEC conventions). A value ending in "()"
/// is a GNU function for an absolute temperature scale with an offset: tempC(x) and tempF(x) as
/// the "have", the bare name as the "want".
///
/// Names GNU units spells differently from Pocket's ids: liter/ml (litre, millilitre),
/// usfloz/uscup/uspint/usquart/usgallon (US customary volumes; spelled out so no UK reading
/// can creep in), brgallon (imperial gallon), nauticalmile, km/hr (km/h), julianyear (year;
/// GNU's "year" is the tropical year), calorie_th and kcal (thermochemical), btu (International
/// Table), eV, mmHg (conventional 13.5951 g/cm³ column), torr (atm/760), acre (international in
/// GNU 2.22), kibibyte… (Pocket's binary kilobyte…), tempC/tempF functions (°C, °F), K (kelvin)
/// and tempR (rankine: a plain unit, as its zero is absolute zero).
enum GNUUnitsTable {
    static let expressions: [String: String] = [
        // Data.
        "bit": "bit", "byte": "byte",
        "kilobyte(binary)": "kibibyte", "megabyte(binary)": "mebibyte",
        "gigabyte(binary)": "gibibyte", "terabyte(binary)": "tebibyte",
        "kilobyte(decimal)": "kilobyte", "megabyte(decimal)": "megabyte",
        "gigabyte(decimal)": "gigabyte", "terabyte(decimal)": "terabyte",
        "kibibyte": "kibibyte", "mebibyte": "mebibyte", "gibibyte": "gibibyte", "tebibyte": "tebibyte",
        // Temperature.
        "celsius": "tempC()", "fahrenheit": "tempF()", "kelvin": "K", "rankine": "tempR",
        // Length.
        "millimetre": "mm", "centimetre": "cm", "metre": "m", "kilometre": "km", "inch": "inch",
        "foot": "foot", "yard": "yard", "mile": "mile", "nautical-mile": "nauticalmile",
        // Mass.
        "milligram": "mg", "gram": "g", "kilogram": "kg", "tonne": "tonne", "ounce": "ounce",
        "pound": "pound", "stone": "stone",
        // Volume.
        "millilitre": "ml", "litre": "liter", "cubic-metre": "m^3", "us-fluid-ounce": "usfloz",
        "us-cup": "uscup", "us-pint": "uspint", "us-quart": "usquart", "us-gallon": "usgallon",
        "imperial-gallon": "brgallon",
        // Area.
        "square-millimetre": "mm^2", "square-centimetre": "cm^2", "square-metre": "m^2", "hectare": "hectare",
        "square-kilometre": "km^2", "square-inch": "in^2", "square-foot": "ft^2", "square-yard": "yd^2",
        "acre": "acre", "square-mile": "mi^2",
        // Speed.
        "metre-per-second": "m/s", "kilometre-per-hour": "km/hr", "foot-per-second": "ft/s",
        "mile-per-hour": "mph", "knot": "knot",
        // Time.
        "millisecond": "ms", "second": "s", "minute": "min", "hour": "hr", "day": "day", "week": "week",
        "year": "julianyear",
        // Energy.
        "joule": "J", "kilojoule": "kJ", "calorie": "calorie_th", "kilocalorie": "kcal", "watt-hour": "Wh",
        "kilowatt-hour": "kWh", "btu": "btu", "electronvolt": "eV",
        // Pressure.
        "pascal": "Pa", "kilopascal": "kPa", "bar": "bar", "atmosphere": "atm", "psi": "psi",
        "millimetre-of-mercury": "mmHg", "torr": "torr",
    ]

    /// The table entry for a unit under a convention; nil if untabled.
    private static func expression(_ id: UnitID, convention: DataConvention) -> String? {
        expressions["\(id.rawValue)(\(convention == .binary ? "binary" : "decimal"))"] ?? expressions[id.rawValue]
    }

    /// The GNU "have" expression for `value` (plain decimal text) in a unit; nil if untabled.
    static func have(_ value: String, _ id: UnitID, convention: DataConvention) -> String? {
        guard let expression = expression(id, convention: convention) else { return nil }
        if expression.hasSuffix("()") { return expression.dropLast() + value + ")" }
        return "\(value) \(expression)"
    }

    /// The GNU "want" expression for a unit; nil if untabled.
    static func want(_ id: UnitID, convention: DataConvention) -> String? {
        guard let expression = expression(id, convention: convention) else { return nil }
        return expression.hasSuffix("()") ? String(expression.dropLast(2)) : expression
    }
}
