import Foundation

/// A value rounded to a number of significant digits: `0.digits × 10^(exponent + 1)`, sign apart.
///
/// Both display formatting and the `Decimal` result are produced from this one rounding step,
/// taken from the exact fraction, so no value is ever rounded twice.
struct RoundedDigits: Sendable, Equatable {
    /// Whether the value is below zero (false for zero).
    var isNegative: Bool
    /// Significant digits without trailing zeros; "0" for zero.
    var digits: String
    /// The power of ten of the first digit: 2 for 123.4, -3 for 0.00123.
    var exponent: Int
    /// Whether no non-zero digit was dropped by rounding.
    var isExact: Bool

    /// Zero, which is exact.
    static let zero = RoundedDigits(isNegative: false, digits: "0", exponent: 0, isExact: true)

    /// Whether the value is zero.
    var isZero: Bool { digits == "0" }
}

extension Rational {
    /// The value rounded half away from zero (the calculator convention) to `significantDigits`.
    func rounded(significantDigits: Int) -> RoundedDigits {
        guard !isZero else { return .zero }
        let precision = max(significantDigits, 1)
        var exponent = decimalExponent()
        let shift = precision - 1 - exponent
        var dividend = numerator
        var divisor = denominator
        if shift >= 0 {
            dividend = dividend * BigUInt.powerOfTen(shift)
        } else {
            divisor = divisor * BigUInt.powerOfTen(-shift)
        }
        let division = dividend.quotientAndRemainder(dividingBy: divisor)
        var quotient = division.quotient
        let remainder = division.remainder
        let isExact = remainder.isZero
        if !((remainder + remainder) < divisor) {
            quotient = quotient.adding(1)
            // 9.99…95 can round up to 10.00…0, one digit more than asked for.
            if quotient == BigUInt.powerOfTen(precision) {
                quotient = BigUInt.powerOfTen(precision - 1)
                exponent += 1
            }
        }
        var text = quotient.decimalString
        while text.count > 1, text.last == "0" { text.removeLast() }
        return RoundedDigits(isNegative: isNegative, digits: text, exponent: exponent, isExact: isExact)
    }

    /// The `e` with 10^e ≤ |value| < 10^(e+1); the value must not be zero.
    private func decimalExponent() -> Int {
        // Bit lengths pin the exponent down to within one; comparisons settle it exactly.
        let bitDifference = numerator.bitWidth - denominator.bitWidth
        var exponent = Int((Double(bitDifference) * 0.30102999566398120).rounded(.down))
        while isBelowPowerOfTen(exponent) { exponent -= 1 }
        while !isBelowPowerOfTen(exponent + 1) { exponent += 1 }
        return exponent
    }

    /// Whether |value| < 10^exponent.
    private func isBelowPowerOfTen(_ exponent: Int) -> Bool {
        if exponent >= 0 {
            return numerator < denominator * BigUInt.powerOfTen(exponent)
        }
        return numerator * BigUInt.powerOfTen(-exponent) < denominator
    }

    /// The nearest `Decimal` (38 significant digits, the most `Decimal` holds, fewer below about
    /// 1e-90) and whether it is exact; nil unless 1e-128 ≤ |value| < 1e128 (or it is zero).
    func decimalValue() -> (value: Decimal, isExact: Bool)? {
        guard !isZero else { return (Decimal(), true) }
        // Decimal's mantissa exponent stops at -128, so values near 1e-100 keep fewer digits.
        let precision = min(38, decimalExponent() + 129)
        guard precision >= 1 else { return nil }
        let rounded = rounded(significantDigits: precision)
        let digits = rounded.digits
        let mantissaExponent = rounded.exponent - (digits.count - 1)
        // Foundation's Decimal turns larger values into NaN on Linux, even where an unnormalized
        // mantissa could hold them, so 10^128 is the ceiling.
        guard rounded.exponent <= 127, mantissaExponent >= -128, let significand = Decimal(string: digits) else {
            return nil
        }
        let value = Decimal(sign: rounded.isNegative ? .minus : .plus, exponent: mantissaExponent, significand: significand)
        return (value, rounded.isExact)
    }
}
