@testable import Converter
import Foundation
import Testing

@Suite struct RationalTests {
    @Test func bigIntegersRoundTripThroughText() throws {
        let text = "340282366920938463463374607431768211457123456789"
        let value = try #require(BigUInt(decimalDigits: text))
        #expect(value.decimalString == text)
        #expect((value * value).decimalString
            == "115792089237316195423570985008687907854034569736229198725515897319051989342806523704724750190521")
        let product = value * BigUInt(1_000_000_007)
        let (quotient, remainder) = product.adding(5).quotientAndRemainder(dividingBy: value)
        #expect(quotient == BigUInt(1_000_000_007))
        #expect(remainder == BigUInt(5))
        #expect(BigUInt(decimalDigits: "12a") == nil)
    }

    @Test func gcdAndLowestTerms() throws {
        let sixth = Rational(numerator: BigUInt(10), denominator: BigUInt(60))
        #expect(sixth == Rational(numerator: BigUInt(1), denominator: BigUInt(6)))
        #expect(BigUInt.greatestCommonDivisor(BigUInt(1 << 40), BigUInt(3 << 20)) == BigUInt(1 << 20))
        let a: Rational = "0.45359237"
        #expect(a.numerator.decimalString == "45359237" && a.denominator.decimalString == "100000000")
        let nine: Rational = "5" / "9"
        #expect(nine + nine == "10" / "9")
        #expect(nine - 1 == -("4" / "9"))
        #expect(nine * 9 == 5)
        #expect((1 as Rational) / .zero == .zero)
        #expect(-(Rational.zero) == .zero)
        #expect(-(1 as Rational) < .zero && Rational.zero < "0.001")
    }

    @Test func roundingToSignificantDigits() throws {
        let third: Rational = "1" / "3"
        #expect(third.rounded(significantDigits: 5) == RoundedDigits(isNegative: false, digits: "33333", exponent: -1, isExact: false))
        let nines: Rational = "9.9999996"
        #expect(nines.rounded(significantDigits: 7) == RoundedDigits(isNegative: false, digits: "1", exponent: 1, isExact: false))
        let exact: Rational = "-1024"
        #expect(exact.rounded(significantDigits: 12) == RoundedDigits(isNegative: true, digits: "1024", exponent: 3, isExact: true))
        let tiny: Rational = "1.602176634e-19"
        #expect(tiny.rounded(significantDigits: 3).exponent == -19)
    }

    @Test func decimalsConvertExactly() throws {
        for text in ["0", "-12.5", "0.000123", "1000000000000", "12345678901234567890123456789012345678", "1e-100", "-7e120", "9.9e127", "1e-128"] {
            let decimal = try #require(Decimal(string: text))
            let rational = try #require(Rational(decimal))
            let back = try #require(rational.decimalValue())
            #expect(back.value == decimal && back.isExact, "\(text)")
        }
        #expect(Rational(Decimal.nan) == nil)
        #expect((Rational(parsing: "1e128")?.decimalValue()) == nil)
        #expect((Rational(parsing: "1e-129")?.decimalValue()) == nil)
        let third: Rational = "1" / "3"
        #expect(third.decimalValue()?.value.description == "0." + String(repeating: "3", count: 38))
    }
}
