import Converter
import Foundation
import Testing

/// What one key press should do.
enum KeyExpectation: Sendable, Equatable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The entry becomes this text (`KeypadInput.entry` form; "d" stands for the digit pressed).
    case becomes(String)
    /// The press is refused and the entry is unchanged.
    case ignored(IgnoredKeyReason)

    init(stringLiteral value: String) {
        self = .becomes(value)
    }

    var description: String {
        switch self {
        case .becomes(let text): "→ \(text)"
        case .ignored(let reason): "ignored (\(reason.rawValue))"
        }
    }
}

/// One row of the keypad table: a starting entry, a key, and what must happen.
struct KeypadCase: Sendable, CustomTestStringConvertible {
    var start: String
    var key: KeypadKey
    var allowsNegative: Bool
    var expected: KeyExpectation

    var testDescription: String {
        "\"\(start)\" + \(key)\(allowsNegative ? "" : " (no negatives)") \(expected)"
    }
}

@Suite struct KeypadInputTests {
    private static let cap = "123456789012345"
    private static let capWithPoint = "1234567890.12345"
    /// "0." and fourteen zeros: fifteen digits, none of them significant.
    private static let leadingZeros = "0." + String(repeating: "0", count: 14)
    /// Fifteen significant digits after three leading zeros.
    private static let smallCap = "0.000123456789012345"
    /// "0." and 29 zeros: `KeypadInput.maximumLength` digits in all.
    private static let longest = "0." + String(repeating: "0", count: 29)

    /// Per starting state: the result of 0, of 1…9 ("d"), ".", delete, ± (allowed) and clear.
    /// ± where negatives are not allowed is always ignored, so it is added for every state below.
    private static let states: [(start: String, zero: KeyExpectation, digit: KeyExpectation, point: KeyExpectation,
                                 delete: KeyExpectation, sign: KeyExpectation, clear: KeyExpectation)] = [
        ("0", .ignored(.redundantZero), "d", "0.", .ignored(.nothingToDelete), .ignored(.zeroHasNoSign), .ignored(.nothingToDelete)),
        ("0.", "0.0", "0.d", .ignored(.decimalPointAlreadyEntered), "0", .ignored(.zeroHasNoSign), "0"),
        ("0.0", "0.00", "0.0d", .ignored(.decimalPointAlreadyEntered), "0.", .ignored(.zeroHasNoSign), "0"),
        ("-0.5", "-0.50", "-0.5d", .ignored(.decimalPointAlreadyEntered), "0.", "0.5", "0"),
        ("-0.05", "-0.050", "-0.05d", .ignored(.decimalPointAlreadyEntered), "0.0", "0.05", "0"),
        // Zeros before the first other digit only say where the point is: they are not significant.
        (leadingZeros, .becomes(leadingZeros + "0"), .becomes(leadingZeros + "d"), .ignored(.decimalPointAlreadyEntered),
         "0.0000000000000", .ignored(.zeroHasNoSign), "0"),
        (smallCap, .ignored(.digitLimitReached), .ignored(.digitLimitReached), .ignored(.decimalPointAlreadyEntered),
         "0.00012345678901234", .becomes("-" + smallCap), "0"),
        (longest, .ignored(.tooSmall), .ignored(.tooSmall), .ignored(.decimalPointAlreadyEntered),
         .becomes(String(longest.dropLast())), .ignored(.zeroHasNoSign), "0"),
        ("12", "120", "12d", "12.", "1", "-12", "0"),
        ("7", "70", "7d", "7.", "0", "-7", "0"),
        ("-7", "-70", "-7d", "-7.", "0", "7", "0"),
        ("12.", "12.0", "12.d", .ignored(.decimalPointAlreadyEntered), "12", "-12.", "0"),
        ("12.5", "12.50", "12.5d", .ignored(.decimalPointAlreadyEntered), "12.", "-12.5", "0"),
        ("-12.5", "-12.50", "-12.5d", .ignored(.decimalPointAlreadyEntered), "-12.", "12.5", "0"),
        (cap, .ignored(.digitLimitReached), .ignored(.digitLimitReached), .becomes(cap + "."), "12345678901234",
         .becomes("-" + cap), "0"),
        (capWithPoint, .ignored(.digitLimitReached), .ignored(.digitLimitReached),
         .ignored(.decimalPointAlreadyEntered), "1234567890.1234", .becomes("-" + capWithPoint), "0"),
    ]

    static let cases: [KeypadCase] = states.flatMap { state -> [KeypadCase] in
        var rows = [
            KeypadCase(start: state.start, key: .digit(0), allowsNegative: true, expected: state.zero),
            KeypadCase(start: state.start, key: .decimalPoint, allowsNegative: true, expected: state.point),
            KeypadCase(start: state.start, key: .delete, allowsNegative: true, expected: state.delete),
            KeypadCase(start: state.start, key: .toggleSign, allowsNegative: true, expected: state.sign),
            KeypadCase(start: state.start, key: .toggleSign, allowsNegative: false, expected: .ignored(.negativeNotAllowed)),
            KeypadCase(start: state.start, key: .clear, allowsNegative: true, expected: state.clear),
            KeypadCase(start: state.start, key: .digit(10), allowsNegative: true, expected: .ignored(.notADigit)),
        ]
        for digit in 1...9 {
            let expected: KeyExpectation = switch state.digit {
            case .becomes(let template): .becomes(template.replacingOccurrences(of: "d", with: String(digit)))
            case .ignored(let reason): .ignored(reason)
            }
            rows.append(KeypadCase(start: state.start, key: .digit(digit), allowsNegative: true, expected: expected))
        }
        return rows
    }

    @Test(arguments: cases)
    func everyKeyInEveryState(_ row: KeypadCase) throws {
        var input = try #require(KeypadInput(entry: row.start))
        let before = input
        let outcome = input.press(row.key, allowsNegative: row.allowsNegative)
        switch row.expected {
        case .becomes(let entry):
            #expect(outcome == .accepted)
            #expect(input.entry == entry)
            #expect(input.display == entry.replacingOccurrences(of: "-", with: "−"))
        case .ignored(let reason):
            #expect(outcome == .ignored(reason))
            #expect(input == before)
        }
    }

    @Test func theAssignmentsWalkthrough() {
        var input = KeypadInput()
        #expect(input.display == "0")
        input.press(.digit(1))
        input.press(.digit(2))
        #expect(input.display == "12")
        input.press(.decimalPoint)
        input.press(.digit(5))
        #expect(input.display == "12.5")
        #expect(input.value == Decimal(string: "12.5"))
        input.press(.delete)
        input.press(.delete)
        #expect(input.display == "12")
        #expect(input.press(.decimalPoint) == .accepted)
        #expect(input.press(.decimalPoint) == .ignored(.decimalPointAlreadyEntered))
        #expect(input.display == "12.")
    }

    @Test func negativeZeroIsNeverShown() {
        var input = KeypadInput()
        #expect(input.press(.toggleSign, allowsNegative: true) == .ignored(.zeroHasNoSign))
        #expect(input.display == "0")
        #expect(!input.isNegative)
        for key: KeypadKey in [.digit(5), .toggleSign, .delete] {
            input.press(key, allowsNegative: true)
        }
        #expect(input.display == "0")
        for key: KeypadKey in [.decimalPoint, .digit(5), .toggleSign, .delete] {
            input.press(key, allowsNegative: true)
        }
        #expect(input.display == "0.")
        #expect(!input.isNegative)
    }

    @Test func aTinyNumberCanBeTypedDigitByDigit() {
        var input = KeypadInput()
        input.press(.decimalPoint)
        for _ in 0..<14 { #expect(input.press(.digit(0)) == .accepted) }
        #expect(input.press(.digit(1)) == .accepted)
        #expect(input.display == "0.000000000000001")
        #expect(input.value == Decimal(string: "1e-15"))
        #expect(input.digitCount == 1)
    }

    @Test func deletingEverythingShowsZero() {
        var input = KeypadInput()
        // The sign goes on a number, not on nothing (that would show "−0").
        for key: KeypadKey in [.digit(4), .decimalPoint, .digit(2), .toggleSign] {
            input.press(key, allowsNegative: true)
        }
        #expect(input.display == "−4.2")
        #expect(input.value == Decimal(string: "-4.2"))
        for _ in 0..<3 { input.press(.delete) }
        #expect(input.display == "0")
        #expect(input.isNegative == false)
        #expect(input.press(.delete) == .ignored(.nothingToDelete))
    }

    @Test func values() throws {
        #expect(KeypadInput().value == 0)
        #expect(try #require(KeypadInput(entry: "0.")).value == 0)
        #expect(try #require(KeypadInput(entry: "-0")).value == 0)
        #expect(try #require(KeypadInput(entry: "-0")).display == "0", "an earlier release's −0 reads back without its sign")
        #expect(try #require(KeypadInput(entry: "-0.")).entry == "0.")
        #expect(try #require(KeypadInput(entry: "0.000000000000001")).value == Decimal(string: "1e-15"))
        #expect(KeypadInput(entry: "0.0000000000000001234567890123456") == nil, "sixteen significant digits")
        #expect(try #require(KeypadInput(entry: Self.cap)).value == Decimal(string: Self.cap))
        #expect(try #require(KeypadInput(entry: "0.00000000000001")).value == Decimal(string: "1e-14"))
    }

    @Test func groupedDisplayKeepsWhatWasTyped() throws {
        #expect(try #require(KeypadInput(entry: "1234567.50")).display(groupingSeparator: ",") == "1,234,567.50")
        #expect(try #require(KeypadInput(entry: "-12288.")).display(groupingSeparator: " ") == "−12 288.")
        #expect(try #require(KeypadInput(entry: "999")).display(groupingSeparator: ",") == "999")
        #expect(try #require(KeypadInput(entry: Self.cap)).display(groupingSeparator: ",") == "123,456,789,012,345")
    }

    @Test(arguments: ["1.2.3", "abc", "12a", "--1", "1234567890123456", "1e5", "+1"])
    func malformedEntriesAreRejected(_ text: String) {
        #expect(KeypadInput(entry: text) == nil)
    }

    @Test func entriesAreCanonicalised() {
        #expect(KeypadInput(entry: "007")?.entry == "7")
        #expect(KeypadInput(entry: ".5")?.entry == "0.5")
        #expect(KeypadInput(entry: "−3")?.entry == "-3")
        #expect(KeypadInput(entry: "")?.entry == "0")
    }

    @Test func codableAsEntryString() throws {
        let input = try #require(KeypadInput(entry: "-12.50"))
        let data = try JSONEncoder().encode(input)
        #expect(String(decoding: data, as: UTF8.self) == "\"-12.50\"")
        #expect(try JSONDecoder().decode(KeypadInput.self, from: data) == input)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(KeypadInput.self, from: Data("\"1..2\"".utf8)) }
    }

    @Test func keyNamesRoundTrip() throws {
        #expect(KeypadKey.allCases.count == 14)
        for key in KeypadKey.allCases {
            #expect(KeypadKey(rawValue: key.rawValue) == key)
            let data = try JSONEncoder().encode(key)
            #expect(try JSONDecoder().decode(KeypadKey.self, from: data) == key)
        }
        #expect(KeypadKey(rawValue: "12") == nil)
        #expect(KeypadKey(rawValue: "٣") == nil)
        #expect(KeypadKey.delete.description == "⌫")
    }
}
