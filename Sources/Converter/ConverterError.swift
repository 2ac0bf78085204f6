/// Why a conversion or a state change was refused; each message says what to do instead.
public enum ConverterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No unit has this name, symbol or id; `suggestions` holds symbols to offer instead.
    case unknownUnit(String, suggestions: [String])
    /// The two units measure different things.
    case incompatibleUnits(from: UnitCategory, to: UnitCategory)
    /// The unit exists but is not offered in this category (and data convention).
    case unitNotInCategory(UnitID, category: UnitCategory, choices: [String])
    /// A negative value in a category where negatives mean nothing (see `allowsNegative`).
    case negativeNotAllowed(UnitCategory)
    /// A temperature below 0 K; `value` and `minimum` are formatted in the given unit's symbol.
    case belowAbsoluteZero(value: String, minimum: String)
    /// The text is not a plain decimal number.
    case invalidNumber(String)
    /// The result's magnitude is beyond what `Decimal` can hold (1e-128 to 1e128).
    case valueOutOfRange
    /// A personal export's converter part that cannot be taken in.
    case invalidImport(String)

    /// A one-line message a user can act on.
    public var description: String {
        switch self {
        case .unknownUnit(let name, let suggestions):
            let tail = suggestions.isEmpty ? "" : " Try: \(suggestions.joined(separator: ", "))"
            return "Unknown unit '\(name)'.\(tail)"
        case .incompatibleUnits(let from, let to):
            return "Can't convert \(from.name) to \(to.name)"
        case .unitNotInCategory(let unit, let category, let choices):
            return "'\(unit.rawValue)' is not one of the \(category.name) units; choose one of: "
                + choices.joined(separator: ", ")
        case .negativeNotAllowed(let category):
            return "\(category.name) can't be negative"
        case .belowAbsoluteZero(let value, let minimum):
            return "\(value) is below absolute zero (\(minimum))"
        case .invalidNumber(let text):
            return "'\(text)' is not a number; use digits with an optional '.', e.g. 12.5 or -40"
        case .valueOutOfRange:
            return "The value is too large or too small to show"
        case .invalidImport(let detail):
            return "The converter's part of the file cannot be imported: \(detail)"
        }
    }
}
