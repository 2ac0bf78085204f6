/// A key of the converter's keypad.
public enum KeypadKey: Hashable, Sendable, Codable, CaseIterable, RawRepresentable, CustomStringConvertible {
    /// A digit key; only 0…9 exist, other numbers are ignored with `notADigit`.
    case digit(Int)
    /// The "." key.
    case decimalPoint
    /// Backspace: removes the rightmost character.
    case delete
    /// The ± key (offered only where the category allows negatives).
    case toggleSign
    /// Back to "0" in one press.
    case clear

    /// Every key: the ten digits, then ".", delete, ± and clear.
    public static let allCases: [KeypadKey] = (0...9).map { .digit($0) } + [.decimalPoint, .delete, .toggleSign, .clear]

    /// Reads a key name as a web form or URL carries it: "0"…"9", ".", "delete", "sign", "clear".
    public init?(rawValue: String) {
        switch rawValue {
        case ".": self = .decimalPoint
        case "delete": self = .delete
        case "sign": self = .toggleSign
        case "clear": self = .clear
        default:
            guard rawValue.count == 1, let digit = rawValue.first?.wholeNumberValue, rawValue.first?.isASCII == true
            else { return nil }
            self = .digit(digit)
        }
    }

    /// The key name `init(rawValue:)` reads.
    public var rawValue: String {
        switch self {
        case .digit(let digit): String(digit)
        case .decimalPoint: "."
        case .delete: "delete"
        case .toggleSign: "sign"
        case .clear: "clear"
        }
    }

    /// The key's caption: "7", ".", "⌫", "±", "C".
    public var description: String {
        switch self {
        case .digit(let digit): String(digit)
        case .decimalPoint: "."
        case .delete: "⌫"
        case .toggleSign: "±"
        case .clear: "C"
        }
    }

    /// Decodes a key name.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let key = KeypadKey(rawValue: name) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown keypad key '\(name)'")
        }
        self = key
    }

    /// Encodes the key name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// What a key press did, so the UI can give feedback for refused presses.
public enum KeypadOutcome: Hashable, Sendable {
    /// The input changed.
    case accepted
    /// The input is unchanged, for this reason.
    case ignored(IgnoredKeyReason)
}

/// Why a key press left the input unchanged.
public enum IgnoredKeyReason: String, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The number already has a decimal point.
    case decimalPointAlreadyEntered
    /// The number already has `KeypadInput.maximumDigits` digits.
    case digitLimitReached
    /// The category has no negative values.
    case negativeNotAllowed
    /// The input is already "0".
    case nothingToDelete
    /// A leading zero would change nothing ("0" then "0" is still "0").
    case redundantZero
    /// A `.digit` outside 0…9.
    case notADigit
    /// ± on a zero, which would show "−0".
    case zeroHasNoSign
    /// The entry already has `KeypadInput.maximumLength` digits, leading zeros included.
    case tooSmall

    /// A short message for the UI.
    public var description: String {
        switch self {
        case .decimalPointAlreadyEntered: "The number already has a decimal point"
        case .digitLimitReached: "At most \(KeypadInput.maximumDigits) digits"
        case .negativeNotAllowed: "This category has no negative values"
        case .nothingToDelete: "Nothing to delete"
        case .redundantZero: "Leading zeros change nothing"
        case .notADigit: "Not a digit key"
        case .zeroHasNoSign: "Zero has no sign: type the number first"
        case .tooSmall: "At most \(KeypadInput.maximumLength) digits, counting leading zeros"
        }
    }
}
