import Converter
import Foundation
import Testing

/// A conversion with its exactly known answer (plain text, all digits).
struct KnownConversion: Sendable, CustomTestStringConvertible {
    var value: String
    var from: UnitID
    var to: UnitID
    var convention: DataConvention = .binary
    var expected: String

    var testDescription: String { "\(value) \(from) → \(to) (\(convention.rawValue)) = \(expected)" }
}

@Suite struct ConversionEngineTests {
    static let exact: [KnownConversion] = [
        // Data.
        KnownConversion(value: "0.1", from: "kilobyte", to: "byte", expected: "102.4"),
        KnownConversion(value: "12", from: "gigabyte", to: "megabyte", expected: "12288"),
        KnownConversion(value: "12", from: "gigabyte", to: "megabyte", convention: .decimal, expected: "12000"),
        KnownConversion(value: "12", from: "kibibyte", to: "byte", convention: .iec, expected: "12288"),
        KnownConversion(value: "1", from: "kilobyte", to: "byte", convention: .iec, expected: "1000"),
        KnownConversion(value: "1", from: "kibibyte", to: "kilobyte", convention: .decimal, expected: "1.024"),
        KnownConversion(value: "1", from: "byte", to: "bit", expected: "8"),
        KnownConversion(value: "1", from: "terabyte", to: "bit", expected: "8796093022208"),
        KnownConversion(value: "512", from: "byte", to: "kilobyte", expected: "0.5"),
        // Temperature: affine and exact, including the 5/9 that no decimal holds.
        KnownConversion(value: "100", from: "celsius", to: "fahrenheit", expected: "212"),
        KnownConversion(value: "-40", from: "celsius", to: "fahrenheit", expected: "-40"),
        KnownConversion(value: "-40", from: "fahrenheit", to: "celsius", expected: "-40"),
        KnownConversion(value: "0", from: "kelvin", to: "fahrenheit", expected: "-459.67"),
        KnownConversion(value: "98.6", from: "fahrenheit", to: "celsius", expected: "37"),
        KnownConversion(value: "0", from: "celsius", to: "kelvin", expected: "273.15"),
        KnownConversion(value: "491.67", from: "rankine", to: "celsius", expected: "0"),
        KnownConversion(value: "-273.15", from: "celsius", to: "rankine", expected: "0"),
        // Length, mass, volume: defined factors, not Foundation's truncated ones.
        KnownConversion(value: "1", from: "mile", to: "kilometre", expected: "1.609344"),
        KnownConversion(value: "1", from: "inch", to: "millimetre", expected: "25.4"),
        KnownConversion(value: "1", from: "nautical-mile", to: "metre", expected: "1852"),
        KnownConversion(value: "1", from: "pound", to: "kilogram", expected: "0.45359237"),
        KnownConversion(value: "1", from: "stone", to: "pound", expected: "14"),
        KnownConversion(value: "16", from: "ounce", to: "pound", expected: "1"),
        KnownConversion(value: "1", from: "us-gallon", to: "litre", expected: "3.785411784"),
        KnownConversion(value: "128", from: "us-fluid-ounce", to: "us-gallon", expected: "1"),
        KnownConversion(value: "1", from: "imperial-gallon", to: "millilitre", expected: "4546.09"),
        // Area, speed, time, energy, pressure.
        KnownConversion(value: "1", from: "acre", to: "square-metre", expected: "4046.8564224"),
        KnownConversion(value: "640", from: "acre", to: "square-mile", expected: "1"),
        KnownConversion(value: "1", from: "hectare", to: "square-metre", expected: "10000"),
        KnownConversion(value: "36", from: "kilometre-per-hour", to: "metre-per-second", expected: "10"),
        KnownConversion(value: "60", from: "mile-per-hour", to: "kilometre-per-hour", expected: "96.56064"),
        KnownConversion(value: "1", from: "year", to: "day", expected: "365.25"),
        KnownConversion(value: "1", from: "week", to: "minute", expected: "10080"),
        KnownConversion(value: "1", from: "kilocalorie", to: "joule", expected: "4184"),
        KnownConversion(value: "1", from: "kilowatt-hour", to: "kilojoule", expected: "3600"),
        KnownConversion(value: "1", from: "btu", to: "joule", expected: "1055.05585262"),
        KnownConversion(value: "1", from: "electronvolt", to: "joule", expected: "1.602176634e-19"),
        KnownConversion(value: "760", from: "torr", to: "atmosphere", expected: "1"),
        KnownConversion(value: "1", from: "bar", to: "kilopascal", expected: "100"),
    ]

    @Test(arguments: exact)
    func exactResults(_ known: KnownConversion) throws {
        let value = try NumberFormat.parse(known.value)
        let result = try ConversionEngine.convert(value, from: known.from, to: known.to, convention: known.convention)
        #expect(result.isExact)
        #expect(result.decimal == (try NumberFormat.parse(known.expected)))
    }

    @Test func inexactResultsRoundOnlyForDisplay() throws {
        let atmosphere = try ConversionEngine.convert(1, from: "atmosphere", to: "psi")
        #expect(!atmosphere.isExact)
        #expect(atmosphere.formatted() == "14.6959487755")
        #expect(atmosphere.formatted(NumberFormat(significantDigits: 15)) == "14.6959487755134")
        let kmh = try ConversionEngine.convert(1, from: "kilometre-per-hour", to: "metre-per-second")
        #expect(kmh.fraction == "5/18")
        #expect(kmh.formatted() == "0.277777777778")
        let mmHg = try ConversionEngine.convert(1, from: "torr", to: "millimetre-of-mercury")
        #expect(mmHg.formatted() == "0.999999857534")
    }

    @Test func foundationsTruncatedFactorsAreNotUsed() throws {
        // Foundation on Linux gives 1.60934, 0.453592, 3.78541 and 211.99999999999454.
        #expect(try ConversionEngine.convert(1000, from: "mile", to: "kilometre").formatted() == "1,609.344")
        #expect(try ConversionEngine.convert(1_000_000, from: "pound", to: "kilogram").formatted() == "453,592.37")
        #expect(try ConversionEngine.convert(100, from: "celsius", to: "fahrenheit").formatted(.plain) == "212")
    }

    @Test func roundTripsAreExact() throws {
        let values: [Decimal] = [0, 1, try NumberFormat.parse("12.5"), try NumberFormat.parse("0.000123"), 1_000_000_000_000]
        var checked = 0
        for category in UnitCatalog.categories {
            for convention in category == .data ? DataConvention.allCases : [.standard] {
                let units = UnitCatalog.units(in: category, convention: convention)
                for from in units {
                    for to in units {
                        for value in values {
                            let there = try ConversionEngine.convert(value, from: from.id, to: to.id, convention: convention)
                            let back = try ConversionEngine.convert(there, from: to.id, to: from.id, convention: convention)
                            #expect(back.decimal == value, "\(value) \(from.id) → \(to.id) → back")
                            #expect(back.isExact)
                            // Through the 38-digit Decimal the trip is exact whenever `there` was.
                            if there.isExact {
                                let viaDecimal = try ConversionEngine.convert(
                                    there.decimal, from: to.id, to: from.id, convention: convention)
                                #expect(viaDecimal.decimal == value)
                            }
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked > 1500)
    }

    @Test func unknownUnitsAreReportedWithSuggestions() {
        #expect(throws: ConverterError.self) { try ConversionEngine.convert(1, from: "furlong", to: "metre") }
        do {
            _ = try ConversionEngine.convert(1, from: "metre", to: "kilometer")
            Issue.record("an unknown id converted")
        } catch {
            #expect(error == .unknownUnit("kilometer", suggestions: ["km"]))
            #expect(error.description == "Unknown unit 'kilometer'. Try: km")
        }
    }

    @Test func mixedCategoriesAreRefused() {
        #expect(throws: ConverterError.incompatibleUnits(from: .length, to: .mass)) {
            try ConversionEngine.convert(1, from: "metre", to: "kilogram")
        }
        #expect(ConverterError.incompatibleUnits(from: .length, to: .mass).description == "Can't convert Length to Mass")
    }

    @Test func negativesOnlyWhereTheyMeanSomething() throws {
        #expect(throws: ConverterError.negativeNotAllowed(.length)) {
            try ConversionEngine.convert(-1, from: "metre", to: "foot")
        }
        #expect(try ConversionEngine.convert(-10, from: "celsius", to: "kelvin").decimal == (try NumberFormat.parse("263.15")))
    }

    @Test func belowAbsoluteZeroIsRefused() {
        #expect(throws: ConverterError.belowAbsoluteZero(value: "−300 °C", minimum: "−273.15 °C")) {
            try ConversionEngine.convert(-300, from: "celsius", to: "kelvin")
        }
        #expect(throws: ConverterError.belowAbsoluteZero(value: "−1 K", minimum: "0 K")) {
            try ConversionEngine.convert(-1, from: "kelvin", to: "celsius")
        }
        #expect(ConverterError.belowAbsoluteZero(value: "−300 °C", minimum: "−273.15 °C").description
            == "−300 °C is below absolute zero (−273.15 °C)")
    }

    @Test func hugeResultsBeyondDecimalAreAnError() throws {
        let huge = try NumberFormat.parse("1e120")
        #expect(throws: ConverterError.valueOutOfRange) {
            try ConversionEngine.convert(huge, from: "kilowatt-hour", to: "electronvolt")
        }
        let tiny = try NumberFormat.parse("1e-120")
        #expect(throws: ConverterError.valueOutOfRange) {
            try ConversionEngine.convert(tiny, from: "electronvolt", to: "kilowatt-hour")
        }
        // Near Decimal's smallest exponent fewer digits survive, but the value still converts.
        let small = try ConversionEngine.convert(tiny, from: "kilowatt-hour", to: "kilojoule")
        #expect(small.decimal == (try NumberFormat.parse("3.6e-117")))
        #expect(throws: ConverterError.invalidNumber("NaN")) {
            try ConversionEngine.convert(Decimal.nan, from: "metre", to: "foot")
        }
    }

    @Test func sameUnitIsIdentity() throws {
        let value = try NumberFormat.parse("123456789012345")
        #expect(try ConversionEngine.convert(value, from: "byte", to: "byte").decimal == value)
    }
}
