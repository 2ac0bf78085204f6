import Foundation
import PocketCore

/// How numbers are written for people (`display`) or for machines (`plain`).
///
/// Values are rounded half away from zero to `significantDigits` (12 by default) and written
/// positionally when their leading digit lies between 10^-6 and 10^(significantDigits - 1),
/// so every digit shown is significant and no padding zeros are invented; anything else is
/// scientific. Zero is always "0", never "−0".
public struct NumberFormat: Hashable, Sendable {
    /// How a power of ten is written in scientific notation.
    public enum ExponentStyle: Hashable, Sendable {
        /// "1.5×10¹⁵", "1.5×10⁻⁷": for people.
        case superscript
        /// "1.5e+15", "1.5e-7": parsed back by `NumberFormat.parse`, `Double`, JavaScript and GNU units.
        case eNotation
    }

    /// Most significant digits shown, 1…38.
    public var significantDigits: Int
    /// Inserted between groups of three integer digits; empty for none.
    public var groupingSeparator: String
    /// Between the integer and fraction digits.
    public var decimalSeparator: String
    /// Prefix of negative values: "−" (U+2212) for display, "-" for machines.
    public var minusSign: String
    /// How scientific notation writes the exponent.
    public var exponentStyle: ExponentStyle

    /// The smallest leading-digit exponent still written positionally (0.00000123 is; 1.23e-7 isn't).
    public static let smallestPositionalExponent = -6

    /// A format; the defaults are those of `display`.
    public init(
        significantDigits: Int = 12, groupingSeparator: String = ",", decimalSeparator: String = ".",
        minusSign: String = "−", exponentStyle: ExponentStyle = .superscript
    ) {
        self.significantDigits = min(max(significantDigits, 1), 38)
        self.groupingSeparator = groupingSeparator
        self.decimalSeparator = decimalSeparator
        self.minusSign = minusSign
        self.exponentStyle = exponentStyle
    }

    /// For labels: "12,288", "−459.67", "1.23456789012×10¹⁵".
    public static let display = NumberFormat()

    /// For copying and the CLI: "12288", "-459.67", "1.23456789012e+15".
    public static let plain = NumberFormat(groupingSeparator: "", minusSign: "-", exponentStyle: .eNotation)

    /// Writes an exact conversion result.
    public func string(for value: ExactValue) -> String {
        string(for: value.rational.rounded(significantDigits: significantDigits))
    }

    /// Writes a decimal ("NaN" for NaN, which no converter API produces).
    public func string(for value: Decimal) -> String {
        guard let exact = Rational(value) else { return "NaN" }
        return string(for: exact.rounded(significantDigits: significantDigits))
    }

    /// Writes already-rounded digits.
    func string(for value: RoundedDigits) -> String {
        guard !value.isZero else { return "0" }
        let sign = value.isNegative ? minusSign : ""
        let digits = Array(value.digits)
        let exponent = value.exponent
        guard exponent >= Self.smallestPositionalExponent, exponent < significantDigits else {
            let fraction = digits.dropFirst()
            let mantissa = String(digits[0]) + (fraction.isEmpty ? "" : decimalSeparator + String(fraction))
            return sign + mantissa + exponentText(exponent)
        }
        var integerDigits: String
        var fractionDigits: String
        if exponent >= 0 {
            let padded = digits + Array(repeating: "0", count: max(0, exponent + 1 - digits.count))
            integerDigits = String(padded[0...exponent])
            fractionDigits = String(padded[(exponent + 1)...])
        } else {
            integerDigits = "0"
            fractionDigits = String(repeating: "0", count: -exponent - 1) + String(digits)
        }
        integerDigits = Self.grouped(integerDigits, separator: groupingSeparator)
        return sign + integerDigits + (fractionDigits.isEmpty ? "" : decimalSeparator + fractionDigits)
    }

    /// Integer digits with `separator` between groups of three, counted from the right.
    static func grouped(_ digits: String, separator: String) -> String {
        guard !separator.isEmpty, digits.count > 3 else { return digits }
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.append(digits[start..<end])
            end = start
        }
        return groups.reversed().joined(separator: separator)
    }

    private func exponentText(_ exponent: Int) -> String {
        switch exponentStyle {
        case .eNotation:
            return (exponent < 0 ? "e-" : "e+") + String(abs(exponent))
        case .superscript:
            let superscripts: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
            let digits = String(abs(exponent)).compactMap { $0.wholeNumberValue.map { superscripts[$0] } }
            return "×10" + (exponent < 0 ? "⁻" : "") + String(digits)
        }
    }

    /// Reads a plain decimal number such as "12", "-40", "−40", "0.000123", "1e12" or "6.2e-07".
    ///
    /// Stricter than `Decimal(string:)`, which reads "12abc" as 12: anything but one optional
    /// sign, digits with at most one ".", and an optional exponent is `invalidNumber`.
    /// More than 38 significant digits are rounded, as `Decimal` must.
    public static func parse(_ text: String) throws(ConverterError) -> Decimal {
        // The characters of Foundation's `whitespacesAndNewlines`, without building its CharacterSet,
        // which was most of the cost of parsing a typed number.
        let trimmed = WhiteSpace.trimmed(text)
        // No real number needs more; the limit keeps hostile input from costing time.
        guard trimmed.count <= 400, DecimalLiteral(trimmed) != nil else { throw .invalidNumber(text) }
        guard let exact = Rational(parsing: trimmed), let nearest = exact.decimalValue() else {
            throw .valueOutOfRange
        }
        return nearest.value
    }
}
