import Converter
import Foundation
import Testing

@Suite struct ConverterStateTests {
    private func type(_ keys: String, into state: inout ConverterState) {
        for character in keys {
            let key = character == "±" ? KeypadKey.toggleSign : KeypadKey(rawValue: String(character))
            if let key { state.press(key) }
        }
    }

    @Test func startsOnDataWithKilobytesToBytes() throws {
        var state = ConverterState()
        #expect(state.category == .data && state.convention == .binary)
        #expect(state.units == UnitPair(from: "kilobyte", to: "byte"))
        #expect(state.input.display == "0")
        #expect(try state.convertedValue().formatted() == "0")
        type("12", into: &state)
        #expect(try state.convertedValue().formatted() == "12,288")
        type(".5", into: &state)
        #expect(try state.convertedValue().formatted() == "12,800")
        #expect(state.fromInfo?.symbol == "KB" && state.toInfo?.symbol == "B")
    }

    @Test func switchingCategoryKeepsTheValue() throws {
        var state = ConverterState()
        type("12", into: &state)
        state.switchCategory(to: .temperature)
        #expect(state.units == UnitPair(from: "celsius", to: "fahrenheit"))
        #expect(state.input.display == "12")
        #expect(try state.convertedValue().formatted() == "53.6")
        #expect(state.availableUnits.map(\.symbol) == ["°C", "°F", "K", "°R"])
    }

    @Test func signOnlyWhereNegativesExist() throws {
        var state = ConverterState()
        #expect(state.press(.toggleSign) == .ignored(.negativeNotAllowed))
        state.switchCategory(to: .temperature)
        type("40±", into: &state)
        #expect(state.input.display == "−40")
        #expect(try state.convertedValue().formatted() == "−40")
        state.switchCategory(to: .length)
        #expect(state.input.display == "40")
        state.setInput(try #require(KeypadInput(entry: "-3")))
        #expect(state.input.display == "3")
    }

    @Test func belowAbsoluteZeroIsAnErrorTheUICanShow() {
        var state = ConverterState(category: .temperature)
        type("300±", into: &state)
        #expect(throws: ConverterError.belowAbsoluteZero(value: "−300 °C", minimum: "−273.15 °C")) {
            try state.convertedValue()
        }
    }

    @Test func unitsAreRememberedPerCategory() throws {
        var state = ConverterState()
        try state.selectFromUnit("megabyte")
        try state.selectToUnit("gigabyte")
        state.switchCategory(to: .length)
        #expect(state.units == UnitPair(from: "kilometre", to: "mile"))
        try state.selectToUnit("nautical-mile")
        state.switchCategory(to: .data)
        #expect(state.units == UnitPair(from: "megabyte", to: "gigabyte"))
        state.switchCategory(to: .length)
        #expect(state.units == UnitPair(from: "kilometre", to: "nautical-mile"))
    }

    @Test func onlyOfferedUnitsCanBeSelected() {
        var state = ConverterState()
        #expect(throws: ConverterError.unitNotInCategory(
            "kilogram", category: .data, choices: ["bit", "B", "KB", "MB", "GB", "TB"])) {
            try state.selectFromUnit("kilogram")
        }
        #expect(throws: ConverterError.self) { try state.selectToUnit("kibibyte") }
        #expect(state.units == UnitPair(from: "kilobyte", to: "byte"))
    }

    @Test func swapExchangesUnitsAndKeepsTheValue() throws {
        var state = ConverterState()
        type("2048", into: &state)
        state.swap()
        #expect(state.units == UnitPair(from: "byte", to: "kilobyte"))
        #expect(try state.convertedValue().formatted() == "2")
    }

    @Test func conventionKeepsPickerPositions() throws {
        var state = ConverterState()
        type("1", into: &state)
        state.setConvention(.iec)
        #expect(state.units == UnitPair(from: "kibibyte", to: "byte"))
        #expect(try state.convertedValue().formatted() == "1,024")
        state.setConvention(.decimal)
        #expect(state.units == UnitPair(from: "kilobyte", to: "byte"))
        #expect(try state.convertedValue().formatted() == "1,000")
        #expect(state.fromInfo?.symbol == "kB")
    }

    @Test func codableRoundTrip() throws {
        var state = ConverterState()
        state.switchCategory(to: .temperature)
        type("98.6", into: &state)
        try state.selectFromUnit("fahrenheit")
        try state.selectToUnit("celsius")
        state.setConvention(.iec)
        let data = try JSONEncoder().encode(state)
        let decoded = try JSONDecoder().decode(ConverterState.self, from: data)
        #expect(decoded == state)
        #expect(try decoded.convertedValue().formatted() == "37")
    }

    @Test func decodingRepairsStaleUnits() throws {
        let json = #"{"category":"length","from":"furlong","to":"mile","input":"-12.5","convention":"binary"}"#
        let state = try JSONDecoder().decode(ConverterState.self, from: Data(json.utf8))
        #expect(state.units == UnitPair(from: "kilometre", to: "mile"))
        #expect(state.input.entry == "12.5")
        let minimal = try JSONDecoder().decode(ConverterState.self, from: Data(#"{"category":"data"}"#.utf8))
        #expect(minimal == ConverterState())
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ConverterState.self, from: Data(#"{"category":"colour"}"#.utf8))
        }
    }

    @Test func firstLaunchIsTheAssignmentsFirstScreen() throws {
        var state = ConverterState.firstLaunch
        #expect(state.category == .data && state.convention == .binary)
        #expect(state.units == UnitPair(from: "byte", to: "byte"))
        type("1", into: &state)
        #expect(try state.convertedValue().formatted() == "1")
        try state.selectFromUnit("kilobyte")
        type("2", into: &state)
        #expect(try state.convertedValue().formatted() == "12,288")
        // Categories not visited yet open on their own defaults.
        state.switchCategory(to: .temperature)
        #expect(state.units == UnitPair(from: "celsius", to: "fahrenheit"))
    }

    @Test func resultsSayWhetherTheyAreShownExactly() throws {
        #expect(try ConversionEngine.convert(12, from: "kilobyte", to: "megabyte").isShownExactly())
        #expect(try !ConversionEngine.convert(1, from: "kilometre-per-hour", to: "metre-per-second").isShownExactly())
        #expect(try !ConversionEngine.convert(100, from: "fahrenheit", to: "kelvin").isShownExactly())
        #expect(try ConversionEngine.convert(100, from: "fahrenheit", to: "kelvin").formatted() == "310.927777778")
        let third = try ConversionEngine.convert(1, from: "foot", to: "yard")
        #expect(!third.isShownExactly())
        #expect(third.isShownExactly(in: NumberFormat(significantDigits: 38)) == false)
    }
}
