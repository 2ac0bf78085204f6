@testable import Converter
import Foundation
import Testing

@Suite struct UnitCatalogTests {
    @Test func tenCategoriesInSegmentOrder() {
        #expect(UnitCatalog.categories.map(\.name) == [
            "Data", "Temperature", "Length", "Mass", "Volume", "Area", "Speed", "Time", "Energy", "Pressure",
        ])
        #expect(UnitCatalog.categories.filter(\.allowsNegative) == [.temperature])
    }

    @Test func dataUnitsPerConvention() {
        #expect(UnitCatalog.units(in: .data, convention: .binary).map(\.symbol) == ["bit", "B", "KB", "MB", "GB", "TB"])
        #expect(UnitCatalog.units(in: .data, convention: .decimal).map(\.symbol) == ["bit", "B", "kB", "MB", "GB", "TB"])
        #expect(UnitCatalog.units(in: .data, convention: .iec).map(\.symbol) == ["bit", "B", "KiB", "MiB", "GiB", "TiB"])
    }

    @Test func pickerOrders() {
        #expect(UnitCatalog.units(in: .length).map(\.symbol) == ["mm", "cm", "m", "km", "in", "ft", "yd", "mi", "nmi"])
        #expect(UnitCatalog.units(in: .temperature).map(\.symbol) == ["°C", "°F", "K", "°R"])
        #expect(UnitCatalog.units(in: .volume).map(\.id.rawValue).contains("imperial-gallon"))
        #expect(UnitCatalog.info(for: "year")?.note == "Julian year: 365.25 days")
    }

    @Test func everyFactorIsPositiveAndEveryIdUnique() {
        var seen: [UnitID: UnitCategory] = [:]
        for definition in UnitCatalog.allDefinitions {
            #expect(Rational.zero < definition.scale, "\(definition.id) has no positive factor")
            #expect(!definition.offset.isNegative, "\(definition.id)")
            if let category = seen[definition.id] { #expect(category == definition.category) }
            seen[definition.id] = definition.category
        }
        #expect(seen.count >= 70)
    }

    @Test func defaultsAreOfferedAndDistinct() {
        for convention in DataConvention.allCases {
            for category in UnitCatalog.categories {
                let pair = UnitCatalog.defaultUnits(for: category, convention: convention)
                let ids = UnitCatalog.units(in: category, convention: convention).map(\.id)
                #expect(ids.contains(pair.from) && ids.contains(pair.to) && pair.from != pair.to, "\(category)")
            }
        }
    }

    @Test func listingCoversEveryCategory() throws {
        let listing = UnitCatalog.listing()
        #expect(listing.map(\.category) == UnitCatalog.categories)
        #expect(listing.allSatisfy { $0.units.count >= 4 })
        let json = try JSONEncoder().encode(listing)
        #expect(try JSONDecoder().decode([CategoryListing].self, from: json) == listing)
    }

    @Test(arguments: [
        ("KB", "kilobyte"), ("kb", "kilobyte"), ("kB", "kilobyte"), ("MB", "megabyte"), ("GiB", "gibibyte"),
        ("kibibytes", "kibibyte"), ("B", "byte"), ("b", "bit"), ("bits", "bit"), ("bytes", "byte"),
        ("C", "celsius"), ("°C", "celsius"), ("degC", "celsius"), ("degrees Fahrenheit", "fahrenheit"),
        ("F", "fahrenheit"), ("K", "kelvin"), ("°R", "rankine"),
        ("m", "metre"), ("meters", "metre"), ("Metres", "metre"), ("km", "kilometre"), ("kilometers", "kilometre"),
        ("mi", "mile"), ("miles", "mile"), ("ft", "foot"), ("feet", "foot"), ("in", "inch"), ("inches", "inch"),
        ("NM", "nautical-mile"), ("nmi", "nautical-mile"), ("nautical miles", "nautical-mile"),
        ("lb", "pound"), ("lbs", "pound"), ("oz", "ounce"), ("st", "stone"), ("t", "tonne"), ("kg", "kilogram"),
        ("l", "litre"), ("liters", "litre"), ("mL", "millilitre"), ("gal", "us-gallon"), ("gallons", "us-gallon"),
        ("imperial gallon", "imperial-gallon"), ("fl oz", "us-fluid-ounce"), ("fl. oz.", "us-fluid-ounce"),
        ("cups", "us-cup"), ("m3", "cubic-metre"), ("m³", "cubic-metre"),
        ("m2", "square-metre"), ("m^2", "square-metre"), ("sq ft", "square-foot"), ("square feet", "square-foot"),
        ("acres", "acre"), ("ha", "hectare"), ("mi²", "square-mile"),
        ("km/h", "kilometre-per-hour"), ("kph", "kilometre-per-hour"), ("mph", "mile-per-hour"), ("knots", "knot"),
        ("m/s", "metre-per-second"), ("ft/s", "foot-per-second"),
        ("min", "minute"), ("s", "second"), ("ms", "millisecond"), ("h", "hour"), ("hrs", "hour"), ("years", "year"),
        ("J", "joule"), ("kcal", "kilocalorie"), ("cal", "calorie"), ("kWh", "kilowatt-hour"), ("BTU", "btu"),
        ("eV", "electronvolt"), ("Pa", "pascal"), ("kPa", "kilopascal"), ("atm", "atmosphere"), ("psi", "psi"),
        ("mmHg", "millimetre-of-mercury"), ("torr", "torr"), ("us-gallon", "us-gallon"), ("  Kilometre  ", "kilometre"),
    ] as [(String, String)])
    func lookupBySymbolNameAndPlural(_ text: String, _ id: String) throws {
        #expect(try UnitCatalog.lookup(text) == UnitID(id))
    }

    @Test func ambiguousNamesSettleByTheOtherUnit() throws {
        #expect(try UnitCatalog.lookupPair(from: "oz", to: "mL") == UnitPair(from: "us-fluid-ounce", to: "millilitre"))
        #expect(try UnitCatalog.lookupPair(from: "oz", to: "g") == UnitPair(from: "ounce", to: "gram"))
        #expect(try UnitCatalog.lookupPair(from: "12 KB".dropFirst(3).description, to: "MB")
            == UnitPair(from: "kilobyte", to: "megabyte"))
        #expect(try UnitCatalog.lookupPair(from: "C", to: "F") == UnitPair(from: "celsius", to: "fahrenheit"))
        #expect(try UnitCatalog.lookupPair(from: "mi", to: "km") == UnitPair(from: "mile", to: "kilometre"))
        #expect(throws: ConverterError.incompatibleUnits(from: .length, to: .mass)) {
            try UnitCatalog.lookupPair(from: "m", to: "kg")
        }
    }

    @Test func onlyIntendedAliasesAreShared() {
        let intended: Set<String> = ["oz", "ounce", "ounces"]
        for (alias, ids) in UnitCatalog.aliasIndex where ids.count > 1 {
            #expect(intended.contains(alias), "'\(alias)' means \(ids)")
        }
    }

    @Test func unknownUnitsSuggestAlternatives() {
        #expect(throws: ConverterError.unknownUnit("nm", suggestions: ["nmi", "mm", "cm", "km"])) {
            try UnitCatalog.lookup("nm")
        }
        do {
            _ = try UnitCatalog.lookup("furlongs")
            Issue.record("furlongs resolved")
        } catch {
            #expect(error.description == "Unknown unit 'furlongs'. Try: m, km, mi, kg, lb, L, gal, °C, °F, KB, MB")
        }
        #expect(throws: ConverterError.unknownUnit("ton", suggestions: ["t"])) { try UnitCatalog.lookup("ton") }
        #expect(throws: ConverterError.self) { try UnitCatalog.lookup("") }
        #expect(throws: ConverterError.self) { try UnitCatalog.lookupPair(from: "m", to: "parsecs") }
    }
}
