import Foundation

/// The "from" value as typed on the keypad, behaving like a pocket calculator's entry.
///
/// Rules: "0" then "5" is "5"; "." first is "0."; one decimal point; at most 15 significant digits
/// (the zeros before the first other digit, as in "0.0005", say only where the point is, so they do
/// not count); delete removes the rightmost character and deleting the last digit also drops the
/// sign, so deleting everything shows "0". Zero has no sign: ± on "0" or "0.00" is refused, and
/// deleting "−0.5" back to "0." drops the sign, so "−0" is never shown.
public struct KeypadInput: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Most significant digits an entry may have: 15 keeps every entry exact in a `Double`-backed UI too.
    public static let maximumDigits = 15
    /// Most digits in all, leading zeros included, so a tiny number cannot grow without end
    /// (0.000…1 with this many digits is 1×10⁻²⁹, far below any unit's precision).
    public static let maximumLength = 30

    /// Digits with at most one ".", without redundant leading zeros; "" means nothing typed.
    private var digits: String
    /// Whether ± made the entry negative; never true while the value is zero.
    public private(set) var isNegative: Bool

    /// An empty entry, showing "0".
    public init() {
        digits = ""
        isNegative = false
    }

    /// Restores an entry from `entry` text ("-12.5", "0.", "-0"; "−" works too, leading zeros are
    /// dropped); nil if it is not a number the keypad could have produced.
    public init?(entry: String) {
        var text = Substring(entry.trimmingCharacters(in: .whitespaces))
        var negative = false
        if let first = text.first, first == "-" || first == "−" {
            negative = true
            text = text.dropFirst()
        }
        guard text.allSatisfy({ $0 == "." || ($0.isASCII && $0.isNumber) }), text.filter({ $0 == "." }).count <= 1
        else { return nil }
        var canonical = String(text.drop { $0 == "0" })
        if canonical.hasPrefix(".") { canonical = "0" + canonical }
        guard Self.significantDigitCount(canonical) <= Self.maximumDigits, Self.digitCount(canonical) <= Self.maximumLength
        else { return nil }
        digits = canonical
        // "-0" stored by an earlier release reads back as plain 0: zero has no sign.
        isNegative = negative && !Self.isZero(canonical)
    }

    /// The text `init(entry:)` reads back, with an ASCII minus: "-12.5", "0.", "0".
    public var entry: String {
        (isNegative ? "-" : "") + (digits.isEmpty ? "0" : digits)
    }

    /// What the "from" label shows: "0", "0.", "12", "−12.5" (minus is U+2212, as in `NumberFormat.display`).
    public var display: String {
        display(groupingSeparator: "")
    }

    /// `display` with the integer digits grouped in threes ("12,288.5"); a trailing "." stays.
    public func display(groupingSeparator: String) -> String {
        let shown = digits.isEmpty ? "0" : digits
        let integerPart = shown.prefix { $0 != "." }
        let rest = shown.dropFirst(integerPart.count)
        let integerText = NumberFormat.grouped(String(integerPart), separator: groupingSeparator)
        return (isNegative ? "−" : "") + integerText + rest
    }

    /// The entry's value; "0." is 0.
    public var value: Decimal {
        guard let exact = Rational(parsing: digits.isEmpty ? "0" : digits), let nearest = exact.decimalValue() else {
            return Decimal()
        }
        return isNegative ? -nearest.value : nearest.value
    }

    /// How many significant digits have been typed: the zeros before the first other digit
    /// ("0.000" of "0.0005") do not count, the zeros after it ("5000", "0.50") do.
    public var digitCount: Int { Self.significantDigitCount(digits) }

    /// Whether the entry has a decimal point.
    public var hasDecimalPoint: Bool { digits.contains(".") }

    /// Whether nothing has been typed (the label shows "0").
    public var isEmpty: Bool { digits.isEmpty }

    /// Same as `display`.
    public var description: String { display }

    /// Applies one key press; `allowsNegative` is the current category's (see `UnitCategory`).
    @discardableResult
    public mutating func press(_ key: KeypadKey, allowsNegative: Bool = false) -> KeypadOutcome {
        switch key {
        case .digit(let digit):
            guard (0...9).contains(digit) else { return .ignored(.notADigit) }
            if digits.isEmpty && digit == 0 { return .ignored(.redundantZero) }
            guard digitCount < Self.maximumDigits else { return .ignored(.digitLimitReached) }
            guard Self.digitCount(digits) < Self.maximumLength else { return .ignored(.tooSmall) }
            digits += String(digit)
        case .decimalPoint:
            guard !hasDecimalPoint else { return .ignored(.decimalPointAlreadyEntered) }
            digits = digits.isEmpty ? "0." : digits + "."
        case .delete:
            guard !digits.isEmpty || isNegative else { return .ignored(.nothingToDelete) }
            if !digits.isEmpty { digits.removeLast() }
            // "0." minus its point is just "0", which is stored as nothing typed.
            if digits == "0" { digits = "" }
            // Back to a zero ("−0.5" → "0."): a sign on it would show "−0".
            if Self.isZero(digits) { isNegative = false }
        case .toggleSign:
            guard allowsNegative else { return .ignored(.negativeNotAllowed) }
            guard !Self.isZero(digits) else { return .ignored(.zeroHasNoSign) }
            isNegative.toggle()
        case .clear:
            guard !digits.isEmpty || isNegative else { return .ignored(.nothingToDelete) }
            self = KeypadInput()
        }
        return .accepted
    }

    /// Makes the entry non-negative, keeping its digits (for categories without negatives).
    mutating func dropSign() {
        isNegative = false
    }

    /// Every digit, leading zeros included.
    private static func digitCount(_ text: String) -> Int {
        text.count { $0 != "." }
    }

    /// The digits from the first non-zero one on.
    private static func significantDigitCount(_ text: String) -> Int {
        digitCount(String(text.drop { $0 == "0" || $0 == "." }))
    }

    /// Whether the digits are worth zero ("", "0.", "0.000").
    private static func isZero(_ text: String) -> Bool {
        text.allSatisfy { $0 == "0" || $0 == "." }
    }

    /// Decodes an `entry` string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let input = KeypadInput(entry: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a keypad entry: '\(text)'")
        }
        self = input
    }

    /// Encodes as the `entry` string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(entry)
    }
}
