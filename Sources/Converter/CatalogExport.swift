import Foundation

/// The unit catalog and the converter's rules as JSON, for the browser's engine (converter/engine.js).
///
/// Everything comes from the Swift catalog and types, so the phone and the server convert with
/// one set of factors: exact scales and offsets as fractions, the categories in control order,
/// each convention's data units, defaults, the number formats, the keypad limits and the
/// messages the screen shows. `version` is a hash of the JSON, for a cacheable versioned URL.
public enum CatalogExport {
    /// The catalog as UTF-8 JSON (sorted keys, so the bytes and `version` are stable).
    public static let json: Data = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding plain strings, numbers and arrays cannot fail; an empty object keeps it total.
        return (try? encoder.encode(Payload.make())) ?? Data("{}".utf8)
    }()

    /// 16 hex digits (FNV-1a of `json`): changes whenever anything in the catalog does.
    public static let version: String = {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in json {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }()

    /// A fraction as decimal strings: "-5" / "9".
    struct Fraction: Encodable {
        let numerator: String
        let denominator: String

        init(_ value: Rational) {
            numerator = (value.isNegative ? "-" : "") + value.numerator.decimalString
            denominator = value.denominator.decimalString
        }
    }

    /// One unit with its exact relation to the category's base unit.
    struct Unit: Encodable {
        let id: String
        let name: String
        let plural: String
        let symbol: String
        let scale: Fraction
        let offset: Fraction

        init(_ definition: UnitDefinition) {
            id = definition.id.rawValue
            name = definition.name
            plural = definition.plural
            symbol = definition.symbol
            scale = Fraction(definition.scale)
            offset = Fraction(definition.offset)
        }
    }

    /// A category: its units (per convention for data) and default pairs (per convention).
    struct Category: Encodable {
        let id: String
        let name: String
        let allowsNegative: Bool
        /// Why ± is refused here ("Length can't be negative").
        let negativeNotAllowed: String
        /// Units in picker order, by convention id (every convention for data, the same list otherwise).
        let units: [String: [Unit]]
        /// The pair shown before any choice, by convention id.
        let defaults: [String: UnitPair]
    }

    /// A data convention and what its segment and caption say.
    struct Convention: Encodable {
        let id: String
        let name: String
        let shortName: String
        let caption: String
    }

    /// A `NumberFormat` spelled out.
    struct Format: Encodable {
        let significantDigits: Int
        let groupingSeparator: String
        let decimalSeparator: String
        let minusSign: String
        let exponentStyle: String

        init(_ format: NumberFormat) {
            significantDigits = format.significantDigits
            groupingSeparator = format.groupingSeparator
            decimalSeparator = format.decimalSeparator
            minusSign = format.minusSign
            exponentStyle = format.exponentStyle == .superscript ? "superscript" : "eNotation"
        }
    }

    /// The whole document.
    struct Payload: Encodable {
        let categories: [Category]
        let conventions: [Convention]
        let standardConvention: String
        /// Where a data id missing from the chosen convention's list is looked up, in order.
        let dataFallback: [String]
        let firstLaunch: ConverterState
        let formats: [String: Format]
        let smallestPositionalExponent: Int
        let maximumDigits: Int
        let maximumLength: Int
        /// Why a key press was refused, by `IgnoredKeyReason` raw value.
        let notices: [String: String]
        /// Error messages with `{value}` / `{minimum}` placeholders.
        let belowAbsoluteZero: String
        let valueOutOfRange: String

        static func make() -> Payload {
            let categories = UnitCatalog.categories.map { category in
                Category(
                    id: category.rawValue, name: category.name, allowsNegative: category.allowsNegative,
                    negativeNotAllowed: ConverterError.negativeNotAllowed(category).description,
                    units: Dictionary(uniqueKeysWithValues: DataConvention.allCases.map { convention in
                        (convention.rawValue, UnitCatalog.definitions(in: category, convention: convention).map(Unit.init))
                    }),
                    defaults: Dictionary(uniqueKeysWithValues: DataConvention.allCases.map { convention in
                        (convention.rawValue, UnitCatalog.defaultUnits(for: category, convention: convention))
                    }))
            }
            let reasons: [IgnoredKeyReason] = [
                .decimalPointAlreadyEntered, .digitLimitReached, .negativeNotAllowed, .nothingToDelete,
                .redundantZero, .notADigit, .zeroHasNoSign, .tooSmall,
            ]
            return Payload(
                categories: categories,
                conventions: DataConvention.allCases.map { convention in
                    Convention(
                        id: convention.rawValue, name: convention.name, shortName: convention.shortName,
                        caption: convention.caption)
                },
                standardConvention: DataConvention.standard.rawValue,
                dataFallback: [DataConvention.iec.rawValue, DataConvention.decimal.rawValue],
                firstLaunch: .firstLaunch,
                formats: ["display": Format(.display), "plain": Format(.plain)],
                smallestPositionalExponent: NumberFormat.smallestPositionalExponent,
                maximumDigits: KeypadInput.maximumDigits,
                maximumLength: KeypadInput.maximumLength,
                notices: Dictionary(uniqueKeysWithValues: reasons.map { ($0.rawValue, $0.description) }),
                belowAbsoluteZero: ConverterError.belowAbsoluteZero(value: "{value}", minimum: "{minimum}").description,
                valueOutOfRange: ConverterError.valueOutOfRange.description)
        }
    }
}
