import ArgumentParser
import Converter
import Foundation

/// `pocket convert`: the converter app's exact engine on the command line. It needs neither the
/// server nor the data directory.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a value between units, exactly.",
        usage: """
            pocket convert <value> <from-unit> <to-unit> [--convention <convention>] [--plain] [--digits <n>]
            pocket convert --list [<category>] [--convention <convention>] [--plain]
            """,
        discussion: """
            Units are names, symbols or ids, spelled loosely: KB, kilobyte, °C, degC, km/h, "sq ft". \
            Results are exact fractions shown to 12 significant digits; "≈" marks a rounded one. \
            A negative value may follow "--" (pocket convert -- -40 C F) or stand alone.

            Examples:
              pocket convert 12 KB MB                     12 KB = 0.01171875 MB
              pocket convert -- -40 C F                   -40 °C = -40 °F
              pocket convert 1 GB MB --convention decimal 1 GB = 1000 MB
              pocket convert 5 km mi --plain              3.10685596119
              pocket convert --list temperature
            """
    )

    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("The value, the unit to convert from and the unit to convert to (with --list: an optional category).", valueName: "value from-unit to-unit"))
    var words: [String] = []

    @Flag(help: "List the units, of every category or of the one named, instead of converting.")
    var list = false

    @Option(help: ArgumentHelp("What KB, MB, … mean: binary (1 KB = 1024 B), decimal (1 kB = 1000 B) or iec (KiB, MiB, …).", valueName: "convention"))
    var convention = ConvertRequest.defaultConvention

    @Flag(help: "Print only the result, written for scripts (12288, -40, 1.5e+20); with --list, tab-separated lines.")
    var plain = false

    @Option(help: ArgumentHelp("Significant digits of the result, 1 to 38.", valueName: "n"))
    var digits = ConvertRequest.defaultDigits

    func validate() throws {
        try request.validate()
    }

    func run() throws {
        try request.run()
    }

    private var request: ConvertRequest {
        ConvertRequest(words: words, list: list, convention: convention, plain: plain, digits: digits)
    }
}

/// What `pocket convert` was asked, read by ArgumentParser (`Convert`) or, for a plain
/// conversion, without it (`init?(commandLine:)`): both check and run it here, so they cannot differ.
struct ConvertRequest {
    /// `--convention`'s default.
    static let defaultConvention = DataConvention.standard.rawValue
    /// `--digits`' default.
    static let defaultDigits = NumberFormat.display.significantDigits

    /// The positional words as given, with any "--".
    var words: [String]
    /// `--list`.
    var list = false
    /// `--convention`, as typed.
    var convention = defaultConvention
    /// `--plain`.
    var plain = false
    /// `--digits`.
    var digits = defaultDigits

    /// The positional words, without the "--" that may precede a negative value.
    private var arguments: [String] {
        guard let terminator = words.firstIndex(of: "--") else { return words }
        return Array(words[..<terminator] + words[(terminator + 1)...])
    }

    /// Refuses what no conversion or listing could answer, with a message saying what to type.
    func validate() throws {
        // Anything before "--" that looks like an option but is not a number is a mistyped option.
        let beforeTerminator = words.prefix { $0 != "--" }
        if let option = beforeTerminator.first(where: { $0.hasPrefix("-") && (try? NumberFormat.parse($0)) == nil }) {
            throw ValidationError("Unknown option '\(option)'")
        }
        guard DataConvention(rawValue: convention.lowercased()) != nil else {
            throw ValidationError("Unknown convention '\(convention)': use binary, decimal or iec")
        }
        guard (1...38).contains(digits) else {
            throw ValidationError("--digits must be between 1 and 38, not \(digits)")
        }
        if list {
            guard arguments.count <= 1 else {
                throw ValidationError("--list takes at most one category, e.g. pocket convert --list length")
            }
        } else if arguments.count != 3 {
            throw ValidationError("Give a value and two units, e.g. pocket convert 12 KB MB (or --list to see the units)")
        }
    }

    /// Prints the conversion or the listing; a failure is one `CommandFailure` line.
    func run() throws {
        let convention = DataConvention(rawValue: convention.lowercased()) ?? .standard
        do {
            if list {
                print(try listing(category: arguments.first, convention: convention), terminator: "")
            } else {
                print(try conversion(convention: convention))
            }
        } catch let error as ConverterError {
            throw CommandFailure(description: error.description)
        }
    }

    // MARK: Converting

    /// "12 KB = 0.01171875 MB", "1 km/h ≈ 0.277777777778 m/s", or with --plain just the number.
    private func conversion(convention: DataConvention) throws(ConverterError) -> String {
        let words = arguments
        let value = try NumberFormat.parse(words[0])
        let units = try UnitCatalog.lookupPair(from: words[1], to: words[2])
        let result = try ConversionEngine.convert(value, from: units.from, to: units.to, convention: convention)
        let format = NumberFormat(significantDigits: digits, groupingSeparator: "", minusSign: "-", exponentStyle: .eNotation)
        if plain { return format.string(for: result) }
        // The value as typed, only tidied ("1e3" → "1000", "-0" → "0"), never rounded.
        let echo = NumberFormat(significantDigits: 38, groupingSeparator: "", minusSign: "-", exponentStyle: .eNotation)
        let relation = result.isShownExactly(in: format) ? "=" : "≈"
        return "\(echo.string(for: value)) \(symbol(units.from, convention)) \(relation) \(format.string(for: result)) \(symbol(units.to, convention))"
    }

    private func symbol(_ id: UnitID, _ convention: DataConvention) -> String {
        UnitCatalog.info(for: id, convention: convention)?.symbol ?? id.rawValue
    }

    // MARK: Listing

    /// Every category (or one) with its units: symbol, name and id, as pickers order them.
    private func listing(category name: String?, convention: DataConvention) throws -> String {
        var listings = UnitCatalog.listing(convention: convention)
        if let name {
            let wanted = name.lowercased()
            listings = listings.filter { $0.category.rawValue == wanted || $0.category.name.lowercased() == wanted }
            guard !listings.isEmpty else {
                throw CommandFailure(description: "There is no '\(name)' category; choose one of: "
                    + UnitCategory.allCases.map(\.rawValue).joined(separator: ", "))
            }
        }
        if plain {
            return listings.flatMap { listing in
                listing.units.map { "\(listing.category.rawValue)\t\($0.id.rawValue)\t\($0.symbol)\t\($0.name)\n" }
            }.joined()
        }
        return listings.map { listing in
            let header = listing.category == .data ? "\(listing.category.name) (\(convention.name))" : listing.category.name
            let symbolWidth = listing.units.map(\.symbol.count).max() ?? 0
            let nameWidth = listing.units.map(\.name.count).max() ?? 0
            let rows = listing.units.map { unit in
                let columns = [padded(unit.symbol, symbolWidth), padded(unit.name, nameWidth), unit.id.rawValue]
                return "  " + columns.joined(separator: "  ") + (unit.note.map { "  (\($0))" } ?? "")
            }
            return ([header] + rows).joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }

    private func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
