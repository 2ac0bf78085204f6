import Foundation

/// A conversion result held as an exact fraction, with its nearest `Decimal`.
///
/// Formatting reads the fraction, not `decimal`, so a display never rounds twice.
public struct ExactValue: Hashable, Sendable, CustomStringConvertible {
    /// The exact value in lowest terms.
    let rational: Rational
    /// The value rounded to 38 significant digits, the most a `Decimal` holds.
    public let decimal: Decimal
    /// Whether `decimal` is the exact value (false for 1 km/h in m/s = 0.2777…).
    public let isExact: Bool

    /// Wraps an exact fraction; throws `valueOutOfRange` if no `Decimal` comes near it.
    init(_ rational: Rational) throws(ConverterError) {
        guard let nearest = rational.decimalValue() else { throw .valueOutOfRange }
        self.rational = rational
        self.decimal = nearest.value
        self.isExact = nearest.isExact
    }

    /// The exact value of a decimal; throws `invalidNumber` for NaN.
    public init(_ decimal: Decimal) throws(ConverterError) {
        guard let rational = Rational(decimal) else { throw .invalidNumber(decimal.description) }
        try self.init(rational)
    }

    /// Whether the value is below zero.
    public var isNegative: Bool { rational.isNegative }

    /// Whether the value is zero.
    public var isZero: Bool { rational.isZero }

    /// The exact value as "numerator/denominator" in lowest terms ("5/18"), or an integer ("12288").
    public var fraction: String {
        let sign = rational.isNegative ? "-" : ""
        let numerator = rational.numerator.decimalString
        if rational.denominator == BigUInt(1) { return sign + numerator }
        return sign + numerator + "/" + rational.denominator.decimalString
    }

    /// Whether `format` shows this value without rounding (1/4 does; 5/18 or 2/3 does not), so a
    /// UI can write "=" or "≈" between the two sides.
    public func isShownExactly(in format: NumberFormat = .display) -> Bool {
        rational.rounded(significantDigits: format.significantDigits).isExact
    }

    /// The value as text in the given format.
    public func formatted(_ format: NumberFormat = .display) -> String {
        format.string(for: self)
    }

    /// The plain machine format (`NumberFormat.plain`).
    public var description: String { formatted(.plain) }

    /// Equal when the exact values are equal.
    public static func == (lhs: ExactValue, rhs: ExactValue) -> Bool {
        lhs.rational == rhs.rational
    }

    /// Hashes the exact value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rational)
    }
}
