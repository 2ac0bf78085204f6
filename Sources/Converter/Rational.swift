import Foundation

/// An exact signed fraction in lowest terms, so conversions only round once, for display.
///
/// Factors such as 5/9 (temperature) or 1/3.6 (km/h) are not finite decimals; keeping them as
/// fractions lets 98.6 °F come out as exactly 37 °C.
struct Rational: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    /// Whether the value is below zero (never set for zero itself, so zero has one representation).
    private(set) var isNegative: Bool
    /// The numerator's magnitude, coprime with `denominator`.
    private(set) var numerator: BigUInt
    /// Always positive; 1 for integers.
    private(set) var denominator: BigUInt

    /// Zero.
    static let zero = Rational(numerator: BigUInt())

    /// The fraction `numerator / denominator` in lowest terms; a zero denominator yields zero.
    init(isNegative: Bool = false, numerator: BigUInt, denominator: BigUInt = BigUInt(1)) {
        guard !numerator.isZero, !denominator.isZero else {
            self.isNegative = false
            self.numerator = BigUInt()
            self.denominator = BigUInt(1)
            return
        }
        self.isNegative = isNegative
        if denominator == BigUInt(1) {
            self.numerator = numerator
            self.denominator = denominator
            return
        }
        let divisor = BigUInt.greatestCommonDivisor(numerator, denominator)
        self.numerator = numerator.quotientAndRemainder(dividingBy: divisor).quotient
        self.denominator = denominator.quotientAndRemainder(dividingBy: divisor).quotient
    }

    /// A whole number.
    init(integerLiteral value: UInt64) {
        self.init(numerator: BigUInt(value))
    }

    /// A decimal literal such as "0.45359237" for the unit tables; a malformed literal is zero,
    /// which `UnitCatalogTests` would catch because every factor must be positive.
    init(stringLiteral value: String) {
        self = Rational(parsing: value) ?? .zero
    }

    /// Parses a decimal number such as "-12.5", "1e12" or "6.2e-07"; nil if malformed or if the
    /// exponent is beyond ±1000 (far outside what `Decimal` can hold anyway).
    init?(parsing text: some StringProtocol) {
        guard let literal = DecimalLiteral(text), let digits = BigUInt(decimalDigits: literal.digits) else {
            return nil
        }
        let exponent = literal.exponent
        guard abs(exponent) <= Self.maximumExponent else { return nil }
        if exponent >= 0 {
            self.init(isNegative: literal.isNegative, numerator: digits * BigUInt.powerOfTen(exponent))
        } else {
            self.init(isNegative: literal.isNegative, numerator: digits, denominator: BigUInt.powerOfTen(-exponent))
        }
    }

    /// The exact value of a `Decimal` (a decimal is a fraction over a power of ten); nil for NaN.
    init?(_ decimal: Decimal) {
        guard !decimal.isNaN else { return nil }
        // `description` prints every digit of the mantissa positionally, so it round-trips exactly.
        self.init(parsing: decimal.description)
    }

    private static let maximumExponent = 1000

    /// Whether the value is zero.
    var isZero: Bool { numerator.isZero }

    /// The absolute value.
    var magnitude: Rational {
        Rational(numerator: numerator, denominator: denominator)
    }

    static prefix func - (value: Rational) -> Rational {
        Rational(isNegative: !value.isNegative, numerator: value.numerator, denominator: value.denominator)
    }

    static func + (lhs: Rational, rhs: Rational) -> Rational {
        let left = lhs.numerator * rhs.denominator
        let right = rhs.numerator * lhs.denominator
        let denominator = lhs.denominator * rhs.denominator
        if lhs.isNegative == rhs.isNegative {
            return Rational(isNegative: lhs.isNegative, numerator: left + right, denominator: denominator)
        }
        // Opposite signs: subtract the smaller magnitude from the larger and keep its sign.
        if left < right {
            return Rational(isNegative: rhs.isNegative, numerator: right - left, denominator: denominator)
        }
        return Rational(isNegative: lhs.isNegative, numerator: left - right, denominator: denominator)
    }

    static func - (lhs: Rational, rhs: Rational) -> Rational {
        lhs + -rhs
    }

    static func * (lhs: Rational, rhs: Rational) -> Rational {
        Rational(
            isNegative: lhs.isNegative != rhs.isNegative,
            numerator: lhs.numerator * rhs.numerator,
            denominator: lhs.denominator * rhs.denominator
        )
    }

    /// The quotient; dividing by zero yields zero (only unit factors, all positive, are divisors).
    static func / (lhs: Rational, rhs: Rational) -> Rational {
        Rational(
            isNegative: lhs.isNegative != rhs.isNegative,
            numerator: lhs.numerator * rhs.denominator,
            denominator: lhs.denominator * rhs.numerator
        )
    }

    static func < (lhs: Rational, rhs: Rational) -> Bool {
        if lhs.isNegative != rhs.isNegative { return lhs.isNegative }
        let left = lhs.numerator * rhs.denominator
        let right = rhs.numerator * lhs.denominator
        return lhs.isNegative ? right < left : left < right
    }
}

/// The parts of a decimal number written as text: sign, digits and a power of ten.
struct DecimalLiteral: Sendable, Equatable {
    /// Whether a minus sign ("-" or "−") was given.
    var isNegative: Bool
    /// Integer and fraction digits run together, e.g. "125" for "12.5".
    var digits: Substring
    /// The power of ten the digits are scaled by, e.g. -1 for "12.5", clamped to ±1,000,000.
    var exponent: Int

    /// Scans `[+|-|−] digits [. digits] [(e|E) [+|-] digits]` with at least one mantissa digit.
    init?(_ text: some StringProtocol) {
        var rest = Substring(text)
        isNegative = false
        if let first = rest.first, first == "-" || first == "−" || first == "+" {
            isNegative = first != "+"
            rest = rest.dropFirst()
        }
        let integerPart = rest.prefix { $0.isASCII && $0.isNumber }
        rest = rest.dropFirst(integerPart.count)
        var fractionPart = Substring()
        if rest.first == "." {
            rest = rest.dropFirst()
            fractionPart = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(fractionPart.count)
        }
        guard !(integerPart.isEmpty && fractionPart.isEmpty) else { return nil }
        var writtenExponent = 0
        if let marker = rest.first, marker == "e" || marker == "E" {
            rest = rest.dropFirst()
            var exponentIsNegative = false
            if let sign = rest.first, sign == "-" || sign == "+" {
                exponentIsNegative = sign == "-"
                rest = rest.dropFirst()
            }
            let exponentDigits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !exponentDigits.isEmpty else { return nil }
            rest = rest.dropFirst(exponentDigits.count)
            // Clamp instead of overflowing Int; callers reject anything this large.
            let magnitude = exponentDigits.count > 7 ? Self.exponentLimit : min(Int(exponentDigits) ?? 0, Self.exponentLimit)
            writtenExponent = exponentIsNegative ? -magnitude : magnitude
        }
        guard rest.isEmpty else { return nil }
        let joined = String(integerPart) + String(fractionPart)
        let significant = joined.drop { $0 == "0" }
        digits = significant.isEmpty ? "0" : significant
        exponent = writtenExponent - fractionPart.count
    }

    private static let exponentLimit = 1_000_000
}
