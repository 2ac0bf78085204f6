import Converter
import Foundation
import Testing

/// Every ordered unit pair of every category, at several values, against GNU units.
///
/// GNU units computes in binary doubles and prints 15 significant digits, so agreement is
/// required to 12 significant digits; data units, whose factors are exact in binary, must match
/// exactly (all 15 printed digits, and equal outright whenever the exact answer has ≤ 15 digits).
@Suite struct GNUUnitsCrossCheckTests {
    /// Values typed into every unit: zero, one, a fraction, a tiny and a huge value.
    private static let values = ["0", "1", "12.5", "987654.321", "0.000123", "1000000000000"]
    /// Extra values where negatives mean something (only temperatures; those below absolute zero
    /// are skipped per unit, as Pocket refuses them and GNU's temperature functions do too).
    /// Not -459.67 °F: GNU's doubles put it 6e-14 K below zero, outside tempF's domain.
    private static let negativeValues = ["-40", "-12.5", "-273.15", "-400"]

    private struct Comparison {
        var category: UnitCategory
        var convention: DataConvention
        var value: String
        var from: UnitID
        var to: UnitID
        var have: String
        var want: String
        var pocket: ExactValue
    }

    @Test func everyPairAgreesWithGNUUnits() throws {
        guard let units = GNUUnits.locate() else {
            Issue.record(
                "GNU units is not installed (looked for /usr/bin/units and on PATH); the cross-check needs it: apt-get install -y units")
            return
        }
        let comparisons = try Self.plannedComparisons()
        let answers = try units.answers(comparisons.map { ($0.have, $0.want) })
        try #require(
            answers.count == comparisons.count,
            "GNU units gave \(answers.count) answers for \(comparisons.count) queries; first lines: \(answers.prefix(5))")
        var failures: [String] = []
        for (comparison, answer) in zip(comparisons, answers) {
            if let problem = Self.disagreement(comparison, answer) {
                failures.append(problem)
            }
        }
        for failure in failures.prefix(25) {
            Issue.record(Comment(rawValue: failure))
        }
        #expect(failures.isEmpty, "\(failures.count) of \(comparisons.count) comparisons disagree")
        let dataCount = comparisons.count { $0.category == .data }
        let exactCount = comparisons.count { $0.category == .data && Self.isShortExact($0.pocket) }
        print("GNU units cross-check: \(comparisons.count) comparisons, \(failures.count) disagreements; "
            + "\(dataCount) data comparisons, \(exactCount) of them equal to the last digit")
    }

    @Test func tableCoversEveryUnit() {
        for convention in DataConvention.allCases {
            for category in UnitCatalog.categories {
                for unit in UnitCatalog.units(in: category, convention: convention) {
                    #expect(GNUUnitsTable.want(unit.id, convention: convention) != nil, "no GNU expression for \(unit.id)")
                }
            }
        }
    }

    private static func plannedComparisons() throws -> [Comparison] {
        var planned: [Comparison] = []
        for category in UnitCatalog.categories {
            let conventions = category == .data ? DataConvention.allCases : [.standard]
            let categoryValues = values + (category.allowsNegative ? negativeValues : [])
            for convention in conventions {
                let list = UnitCatalog.units(in: category, convention: convention)
                for from in list {
                    for to in list {
                        for value in categoryValues {
                            let number = try NumberFormat.parse(value)
                            let pocket: ExactValue
                            do {
                                pocket = try ConversionEngine.convert(number, from: from.id, to: to.id, convention: convention)
                            } catch .belowAbsoluteZero {
                                continue
                            }
                            guard let have = GNUUnitsTable.have(value, from.id, convention: convention),
                                let want = GNUUnitsTable.want(to.id, convention: convention)
                            else { continue }
                            planned.append(Comparison(
                                category: category, convention: convention, value: value, from: from.id, to: to.id,
                                have: have, want: want, pocket: pocket))
                        }
                    }
                }
            }
        }
        return planned
    }

    /// Why Pocket and GNU disagree, or nil if they agree closely enough.
    private static func disagreement(_ comparison: Comparison, _ answer: String) -> String? {
        let context = "\(comparison.value) \(comparison.from) → \(comparison.to) (\(comparison.convention.rawValue)): "
            + "Pocket \(comparison.pocket.formatted(plain(38))), GNU '\(comparison.have)' → '\(comparison.want)' = \(answer)"
        guard let gnu = try? NumberFormat.parse(answer) else { return "unreadable answer: " + context }
        let pocket = comparison.pocket
        if comparison.category == .data {
            // When the exact answer has at most the 15 digits GNU prints, GNU must give it exactly.
            if isShortExact(pocket) {
                return pocket.decimal == gnu ? nil : "data not exact: " + context
            }
            // Otherwise GNU's 15 digits must be one of the two 15-digit neighbours of the exact
            // value (a decimal input like 987654.321 is inexact in GNU's binary double, so an
            // exact tail of …25 may print as …2 rather than …3).
            return abs(pocket.decimal - gnu) < unitIn15thDigit(of: pocket.decimal) ? nil : "data mismatch: " + context
        }
        // GNU sums temperatures through kelvin in doubles, so its error scales with the largest
        // magnitude involved: input, result, or the 459.67 offset of absolute zero in °F/°R.
        var scale = max(abs(pocket.decimal), abs(gnu))
        if comparison.category == .temperature {
            scale = max(scale, abs((try? NumberFormat.parse(comparison.value)) ?? 0), Decimal(string: "459.67") ?? 0)
        }
        let tolerance = scale * (Decimal(string: "1e-12") ?? 0)
        return abs(pocket.decimal - gnu) <= tolerance ? nil : "differs beyond 12 digits: " + context
    }

    private static func plain(_ significantDigits: Int) -> NumberFormat {
        NumberFormat(significantDigits: significantDigits, groupingSeparator: "", minusSign: "-", exponentStyle: .eNotation)
    }

    /// One unit in the 15th significant digit of a non-zero value: 1e-12 for 964.5…
    private static func unitIn15thDigit(of value: Decimal) -> Decimal {
        let significandDigits = abs(value).significand.description.count
        let leadingExponent = Int(value.exponent) + significandDigits - 1
        return Decimal(sign: .plus, exponent: leadingExponent - 14, significand: 1)
    }

    /// Whether the exact value has at most the 15 significant digits GNU prints.
    private static func isShortExact(_ value: ExactValue) -> Bool {
        value.isExact && value.formatted(plain(38)) == value.formatted(plain(15))
    }
}
