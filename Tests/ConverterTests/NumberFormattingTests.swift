import Converter
import Foundation
import Testing

@Suite struct NumberFormattingTests {
    private func display(_ text: String, _ format: NumberFormat = .display) throws -> String {
        format.string(for: try NumberFormat.parse(text))
    }

    @Test func grouping() throws {
        #expect(try display("12288") == "12,288")
        #expect(try display("1234567.25") == "1,234,567.25")
        #expect(try display("999") == "999")
        #expect(try display("12288", NumberFormat(groupingSeparator: "\u{202F}")) == "12\u{202F}288")
        #expect(try display("1234.5", NumberFormat(groupingSeparator: ".", decimalSeparator: ",")) == "1.234,5")
        #expect(try display("12288", .plain) == "12288")
    }

    @Test func twelveSignificantDigitsRoundedHalfAwayFromZero() throws {
        #expect(try display("3.14159265358979323846") == "3.14159265359")
        #expect(try display("0.1234567890125") == "0.123456789013")
        #expect(try display("-0.1234567890125") == "−0.123456789013")
        #expect(try display("999999999999.5") == "1×10¹²")
        #expect(try display("123456789012.4") == "123,456,789,012")
    }

    @Test func noFloatingPointNoise() throws {
        let sum = try NumberFormat.parse("0.1") + NumberFormat.parse("0.2")
        #expect(NumberFormat.display.string(for: sum) == "0.3")
        #expect(NumberFormat.display.string(for: Decimal(0.1 + 0.2)) == "0.3")
        #expect(try ConversionEngine.convert(sum, from: "metre", to: "centimetre").formatted() == "30")
    }

    @Test func scientificBeyondTheRange() throws {
        #expect(try display("1234567890123456") == "1.23456789012×10¹⁵")
        #expect(try display("1234567890123456", .plain) == "1.23456789012e+15")
        #expect(try display("1000000000000") == "1×10¹²")
        #expect(try display("999999999999") == "999,999,999,999")
        #expect(try display("0.000001") == "0.000001")
        #expect(try display("0.00000012345") == "1.2345×10⁻⁷")
        #expect(try display("-0.00000012345", .plain) == "-1.2345e-7")
        #expect(try display("6.02214076e23", NumberFormat(decimalSeparator: ",")) == "6,02214076×10²³")
    }

    @Test func signsAndZero() throws {
        #expect(try display("-459.67") == "−459.67")
        #expect(try display("-459.67", .plain) == "-459.67")
        #expect(try display("-0") == "0")
        #expect(try display("0.000") == "0")
        #expect(NumberFormat.display.string(for: Decimal.nan) == "NaN")
    }

    @Test func significantDigitsAreConfigurable() throws {
        let three = NumberFormat(significantDigits: 3)
        #expect(try display("14.6959", three) == "14.7")
        #expect(try display("98765", three) == "9.88×10⁴")
        #expect(NumberFormat(significantDigits: 0).significantDigits == 1)
        #expect(NumberFormat(significantDigits: 99).significantDigits == 38)
    }

    @Test func plainOutputParsesBack() throws {
        for text in ["12288", "-459.67", "1.23456789012e+15", "-1.2345e-7", "0.000001"] {
            let value = try NumberFormat.parse(text)
            #expect(try NumberFormat.parse(NumberFormat.plain.string(for: value)) == value)
        }
    }

    @Test(arguments: ["", " ", ".", "-", "1.2.3", "12abc", "1e", "1e+", "NaN", "inf", "1,000", "0x10", "--1"])
    func malformedNumbersAreRefused(_ text: String) {
        #expect(throws: ConverterError.invalidNumber(text)) { try NumberFormat.parse(text) }
    }

    @Test func wellFormedNumbersParseExactly() throws {
        #expect(try NumberFormat.parse(" 12 ") == 12)
        #expect(try NumberFormat.parse("−40") == -40)
        #expect(try NumberFormat.parse("+5") == 5)
        #expect(try NumberFormat.parse(".5") == (try NumberFormat.parse("0.5")))
        #expect(try NumberFormat.parse("5.") == 5)
        #expect(try NumberFormat.parse("1E3") == 1000)
        #expect(try NumberFormat.parse("6.2e-07").description == "0.00000062")
        let long = "12345678901234567890123456789012345678"
        #expect(try NumberFormat.parse(long).description == long)
    }

    @Test func outOfRangeNumbers() {
        #expect(throws: ConverterError.valueOutOfRange) { try NumberFormat.parse("1e128") }
        #expect(throws: ConverterError.valueOutOfRange) { try NumberFormat.parse("1e-129") }
        #expect(throws: ConverterError.valueOutOfRange) { try NumberFormat.parse("1e99999999999") }
        #expect(throws: ConverterError.invalidNumber(String(repeating: "1", count: 401))) {
            try NumberFormat.parse(String(repeating: "1", count: 401))
        }
    }
}
