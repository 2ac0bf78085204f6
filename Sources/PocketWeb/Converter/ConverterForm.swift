import Converter
import Hummingbird

/// One submission of the converter's form, read and checked before anything changes.
///
/// The screen is a single form, so every submission carries the whole screen: the checked
/// category, both wheels, the data convention, plus the key or swap button that sent it (none
/// when a wheel or segment changed). Only what differs from the remembered state is applied:
/// - a new category (or convention) wins over the wheels, which still show the old category's
///   units; the typed value is kept;
/// - otherwise the wheels' units are selected;
/// - then swap, then the key.
/// Without JavaScript a user may change a wheel and press a key in one go; both apply.
struct ConverterForm: Sendable, Equatable {
    /// The checked category segment.
    var category: UnitCategory?
    /// The checked data convention (only shown for Data).
    var convention: DataConvention?
    /// The checked "from" wheel row.
    var from: UnitID?
    /// The checked "to" wheel row.
    var to: UnitID?
    /// Whether the swap button sent the form.
    var swap = false
    /// The keypad key that sent the form.
    var key: KeypadKey?

    /// Field names, shared with the screen's view.
    enum Field {
        static let category = "category"
        static let convention = "convention"
        static let from = "from"
        static let to = "to"
        static let swap = "swap"
        static let key = "key"
    }

    /// A form that changes nothing.
    init() {}

    /// Reads the posted fields; anything the screen could not have sent is a 400 with a message
    /// that says what was wrong.
    init(fields: FormFields) throws(HTTPError) {
        if let text = fields[Field.category] {
            guard let category = UnitCategory(rawValue: text) else {
                throw Self.badRequest("There is no “\(Self.clipped(text))” category. Choose one of: "
                    + UnitCategory.allCases.map(\.name).joined(separator: ", ") + ".")
            }
            self.category = category
        }
        if let text = fields[Field.convention] {
            guard let convention = DataConvention(rawValue: text) else {
                throw Self.badRequest("There is no “\(Self.clipped(text))” data convention. Choose binary, decimal or iec.")
            }
            self.convention = convention
        }
        from = try Self.unit(fields[Field.from])
        to = try Self.unit(fields[Field.to])
        swap = fields[Field.swap] != nil
        if let text = fields[Field.key] {
            guard let key = KeypadKey(rawValue: text) else {
                throw Self.badRequest("The keypad has no “\(Self.clipped(text))” key.")
            }
            self.key = key
        }
    }

    /// Applies the submission to `state`.
    /// - Returns: the key's outcome, or nil when no key sent the form.
    /// - Throws: `unitNotInCategory` when a wheel names a unit the category does not offer.
    func apply(to state: inout ConverterState) throws(ConverterError) -> KeypadOutcome? {
        var movedOn = false
        if let category, category != state.category {
            state.switchCategory(to: category)
            movedOn = true
        }
        if let convention, convention != state.convention {
            state.setConvention(convention)
            movedOn = true
        }
        // The wheels belonged to the screen before the change: their rows mean nothing now.
        if !movedOn {
            if let from { try state.selectFromUnit(from) }
            if let to { try state.selectToUnit(to) }
        }
        if swap { state.swap() }
        return key.map { state.press($0) }
    }

    private static func unit(_ text: String?) throws(HTTPError) -> UnitID? {
        guard let text else { return nil }
        let id = UnitID(text)
        guard UnitCatalog.category(of: id) != nil else {
            throw badRequest("There is no unit “\(clipped(text))”.")
        }
        return id
    }

    private static func badRequest(_ message: String) -> HTTPError {
        HTTPError(.badRequest, message: message)
    }

    /// Long hostile values are cut short: the message only has to show what was sent.
    private static func clipped(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}
