import Converter
import Foundation
import PocketCore
import TestSupport
import Testing

/// The browser's converter (js/converter/*.js, run by Node) against the Swift engine, to the
/// last digit: seeded random key sequences in every category and convention, random unit pairs,
/// and random screen changes; the displayed and plain results, the exact fraction, "=" or "≈",
/// refused keys, error messages and the resulting state must all be identical.
@Suite struct BrowserEngineCrossCheckTests {
    private static let conversionCount = 1500
    private static let replayCount = 150

    @Test func browserEngineMatchesSwiftToTheLastDigit() throws {
        var random = SplitMix64(seed: 13)
        let conversions = (0..<Self.conversionCount).map { _ in ConversionCase.random(using: &random) }
        let replays = (0..<Self.replayCount).map { _ in ReplayCase.random(using: &random) }

        let results = try Self.runNode(conversions: conversions, replays: replays)
        try #require(results.count == conversions.count + replays.count, "node answered \(results.count) cases of \(conversions.count + replays.count)")
        var failures: [String] = []
        for (index, test) in conversions.enumerated() {
            let expected = try test.expected()
            let (swift, browser) = (try NodeScript.canonical(expected), try NodeScript.canonical(results[index]))
            if swift != browser { failures.append("\(test): Swift \(swift), JS \(browser)") }
        }
        for (offset, replay) in replays.enumerated() {
            let expected = try replay.expected()
            let (swift, browser) = (try NodeScript.canonical(expected), try NodeScript.canonical(results[conversions.count + offset]))
            if swift != browser { failures.append("replay \(replay.steps): Swift \(swift), JS \(browser)") }
        }
        for failure in failures.prefix(10) { Issue.record(Comment(rawValue: failure)) }
        #expect(failures.count == 0, "\(failures.count) of \(results.count) cases differ between the browser engine and Swift")
        let categories = Set(conversions.map(\.category)), conventions = Set(conversions.map(\.convention))
        #expect(categories.count == UnitCategory.allCases.count && conventions.count == DataConvention.allCases.count)
    }

    /// Runs the browser's engine on { catalog, cases } and reads its answers.
    private static func runNode(conversions: [ConversionCase], replays: [ReplayCase]) throws -> [[String: Any]] {
        let catalog = try JSONSerialization.jsonObject(with: CatalogExport.json)
        let cases: [Any] = conversions.map(\.json) + replays.map(\.json)
        return try NodeScript.answers(of: "Tests/JavaScript/converter-crosscheck.mjs", input: ["catalog": catalog, "cases": cases])
    }
}

/// Keys typed in a category, then a conversion between two of its units.
private struct ConversionCase: CustomStringConvertible {
    var category: UnitCategory
    var convention: DataConvention
    var keys: [KeypadKey]
    var from: UnitID
    var to: UnitID

    var description: String { "\(keys.map(\.rawValue).joined(separator: " ")) \(category.rawValue)/\(convention.rawValue) \(from) → \(to)" }

    var json: [String: Any] {
        ["category": category.rawValue, "convention": convention.rawValue, "keys": keys.map(\.rawValue), "from": from.rawValue, "to": to.rawValue]
    }

    static func random(using random: inout SplitMix64) -> ConversionCase {
        let category = UnitCategory.allCases.randomElement(using: &random) ?? .data
        let convention = DataConvention.allCases.randomElement(using: &random) ?? .binary
        let units = UnitCatalog.units(in: category, convention: convention)
        return ConversionCase(
            category: category, convention: convention, keys: randomKeys(using: &random),
            from: units.randomElement(using: &random)?.id ?? "byte", to: units.randomElement(using: &random)?.id ?? "byte")
    }

    /// Numbers as people type them: short and long, with points, signs, leading zeros, deletes.
    static func randomKeys(using random: inout SplitMix64) -> [KeypadKey] {
        var keys: [KeypadKey] = []
        let style = Int.random(in: 0..<5, using: &random)
        let length = style == 0 ? Int.random(in: 16...34, using: &random) : Int.random(in: 1...10, using: &random)
        if style == 1 { keys += [.decimalPoint] + Array(repeating: .digit(0), count: Int.random(in: 0...12, using: &random)) }
        for _ in 0..<length {
            let roll = Int.random(in: 0..<100, using: &random)
            switch roll {
            case 0..<80: keys.append(.digit(Int.random(in: 0...9, using: &random)))
            case 80..<88: keys.append(.decimalPoint)
            case 88..<94: keys.append(.toggleSign)
            case 94..<99: keys.append(.delete)
            default: keys.append(.clear)
            }
        }
        if Int.random(in: 0..<3, using: &random) == 0 { keys.append(.toggleSign) }
        return keys
    }

    /// What the Swift engine shows, in the Node script's shape.
    func expected() throws -> [String: Any] {
        var input = KeypadInput()
        let ignored = keys.map { key -> String in
            if case .ignored(let reason) = input.press(key, allowsNegative: category.allowsNegative) { return reason.rawValue }
            return ""
        }
        var result: [String: Any] = ["entry": input.entry, "ignored": ignored]
        do {
            let value = try ConversionEngine.convert(input.value, from: from, to: to, convention: convention)
            result["display"] = value.formatted(.display)
            result["plain"] = value.formatted(.plain)
            result["fraction"] = value.fraction
            result["exact"] = value.isShownExactly(in: .display)
        } catch {
            result["error"] = error.description
        }
        return result
    }
}

/// A run of single screen changes from the first-launch screen.
private struct ReplayCase {
    var steps: [[String: String]]

    var json: [String: Any] { ["steps": steps.map { $0.mapValues { $0 == "true" ? true : $0 as Any } }] }

    static func random(using random: inout SplitMix64) -> ReplayCase {
        var state = ConverterState.firstLaunch
        var steps: [[String: String]] = []
        for _ in 0..<Int.random(in: 5...25, using: &random) {
            let step: [String: String]
            switch Int.random(in: 0..<10, using: &random) {
            case 0: step = ["category": (UnitCategory.allCases.randomElement(using: &random) ?? .data).rawValue]
            case 1: step = ["convention": (DataConvention.allCases.randomElement(using: &random) ?? .binary).rawValue]
            case 2: step = ["from": (state.availableUnits.randomElement(using: &random)?.id ?? "byte").rawValue]
            case 3: step = ["to": (state.availableUnits.randomElement(using: &random)?.id ?? "byte").rawValue]
            case 4: step = ["swap": "true"]
            default: step = ["key": (ConversionCase.randomKeys(using: &random).first ?? .digit(1)).rawValue]
            }
            _ = Self.apply(step, to: &state)
            steps.append(step)
        }
        return ReplayCase(steps: steps)
    }

    /// One change, as the screen's form applies it; returns why a key was refused.
    @discardableResult
    static func apply(_ step: [String: String], to state: inout ConverterState) -> IgnoredKeyReason? {
        if let category = step["category"].flatMap(UnitCategory.init(rawValue:)) { state.switchCategory(to: category) }
        if let convention = step["convention"].flatMap(DataConvention.init(rawValue:)) { state.setConvention(convention) }
        if let from = step["from"] { try? state.selectFromUnit(UnitID(from)) }
        if let to = step["to"] { try? state.selectToUnit(UnitID(to)) }
        if step["swap"] != nil { state.swap() }
        if let key = step["key"].flatMap(KeypadKey.init(rawValue:)), case .ignored(let reason) = state.press(key) { return reason }
        return nil
    }

    /// The state after every step (as the server stores it) and what each screen showed.
    func expected() throws -> [String: Any] {
        var state = ConverterState.firstLaunch
        var shown: [String] = []
        for step in steps {
            Self.apply(step, to: &state)
            let from = state.input.display(groupingSeparator: NumberFormat.display.groupingSeparator)
            let line: String
            switch Result(catching: { () throws(ConverterError) -> ExactValue in try state.convertedValue() }) {
            case .success(let value):
                line = "\(from) \(state.fromInfo?.symbol ?? "") \(value.isShownExactly() ? "=" : "≈") \(value.formatted()) \(state.toInfo?.symbol ?? "") "
            case .failure(let error):
                line = "\(from) \(state.fromInfo?.symbol ?? "") ≠ — \(state.toInfo?.symbol ?? "") \(error.description)"
            }
            shown.append(line)
        }
        let encoded = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(state))
        return ["state": encoded, "shown": shown]
    }
}
