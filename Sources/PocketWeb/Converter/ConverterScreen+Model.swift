import Converter
import Foundation

/// The converter screen: category segments, two unit wheels with their values, the keypad.
enum ConverterScreen {
    /// A segment or wheel row: one radio.
    struct Choice: Sendable, Equatable {
        let id: String
        let value: String
        let label: String
        let checked: Bool

        /// Whether the label is too long for one line of a wheel ("Pound per square inch").
        var isLong: Bool { label.count > 13 }
    }

    /// One keypad button.
    struct Key: Sendable, Equatable {
        let id: String
        /// The `key` field's value, a `KeypadKey` raw value.
        let value: String
        let label: String
        /// What a screen reader says (the label is a symbol for some keys).
        let spoken: String
        /// Keyboard keys that press it (`data-key`).
        let shortcuts: String
        /// `digit`, `function` or `delete`: the key's colour.
        let kind: String
        /// Whether it is two keys wide (the 0, like a calculator's).
        let wide: Bool
        /// Set for ± where negatives mean nothing: shown, but not pressable.
        let disabledReason: String?
    }

    /// One side's big label: the number, its unit and how long it is.
    struct Value: Sendable, Equatable {
        let text: String
        let symbol: String
        /// The unit as spoken ("Kilobytes").
        let unitName: String
        /// `w3` … `w12`: the text's width in ems, so longer numbers get a smaller type (see converter.css).
        let size: String
    }

    /// Everything the page is made from besides the layout: `ConverterPages` keeps each page
    /// rendered under it (`PageMemo`), so a screen read again is neither worked out, rendered nor
    /// compressed again, and only this small value is hashed on each request.
    struct Shown: Hashable, Sendable {
        let state: ConverterState
        /// A refused key carried over from the POST (shown once).
        let notice: IgnoredKeyReason?
        /// Whose state it is (`Offline.owner`).
        let owner: String
        /// When the state was saved, in ms since 1970; nil if never.
        let savedAt: Int64?
    }

    /// What the page's module (js/converter/app.js) needs to convert on the phone.
    struct Offline: Sendable {
        /// The module's versioned URL.
        let module: String
        /// The catalog's versioned URL.
        let catalog: String
        /// Where the phone saves its state.
        let stateURL: String
        /// Whose state the page shows, so a shared browser keeps each person's apart.
        let owner: String
        /// The state as JSON (`ConverterState`'s encoding), which the module starts from.
        let stateJSON: String
        /// When that state was saved, in ms since 1970 ("0" if never): newer waiting changes on the phone win.
        let savedAt: String

        init(module: String, catalog: String, stateURL: String, owner: String, state: ConverterState, savedAt: Int64?) {
            self.savedAt = String(savedAt ?? 0)
            self.module = module
            self.catalog = catalog
            self.stateURL = stateURL
            self.owner = owner
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            stateJSON = (try? encoder.encode(state)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        }
    }

    /// Everything the screen shows, worked out from one person's remembered state, so the view
    /// only lays it out.
    struct Model: Sendable {
        /// The common categories, shown as segments (Apple keeps a phone's segmented control to about five).
        let categories: [Choice]
        /// The other categories, one tap away in the "More" menu.
        let moreCategories: [Choice]
        /// Whether the chosen category is in the menu, so "More" shows as the chosen segment.
        let moreChosen: Bool
        /// The menu's segment: "More", or the chosen category's name when it is one of the menu's.
        let moreLabel: String
        let fromUnits: [Choice]
        let toUnits: [Choice]
        let from: Value
        let to: Value
        /// "=" or "≈" between the two values ("≠" when there is no result).
        let relation: String
        /// The relation as a screen reader says it.
        let relationSpoken: String
        /// The result in the plain machine format, for the copy button; nil when there is none.
        let copyText: String?
        /// What the copy button announces once it copied.
        let copiedMessage: String
        /// Why the last key changed nothing, or why there is no result.
        let message: String?
        /// `notice` (a refused key: shown once, with a nudge), `error` (no result) or empty.
        let messageKind: String
        /// Whether the data convention control shows (only on Data).
        let showsConventions: Bool
        /// The data convention segments.
        let conventions: [Choice]
        /// What the chosen convention means, e.g. "1 KB = 1,024 B".
        let conventionCaption: String
        /// The keypad's keys in reading order (three a row; the 0 is two wide).
        let keys: [Key]
        /// Set when the page loads the module that converts on the phone.
        let offline: Offline?

        /// How many categories are segments; three fit a 320-point phone at the default text size
        /// with "More" beside them, and the rest stay one tap away.
        static let segmentCount = 3

        init(state: ConverterState, notice: IgnoredKeyReason? = nil, offline: Offline? = nil) {
            self.offline = offline
            let choices = UnitCatalog.categories.map { category in
                Choice(id: "converter-category-\(category.rawValue)", value: category.rawValue, label: category.name, checked: category == state.category)
            }
            categories = Array(choices.prefix(Self.segmentCount))
            moreCategories = Array(choices.dropFirst(Self.segmentCount))
            let chosenInMenu = moreCategories.first(where: \.checked)
            moreChosen = chosenInMenu != nil
            moreLabel = chosenInMenu?.label ?? "More"
            let units = state.availableUnits
            fromUnits = units.map { Choice(id: "converter-from-\($0.id.rawValue)", value: $0.id.rawValue, label: $0.name, checked: $0.id == state.fromUnit) }
            toUnits = units.map { Choice(id: "converter-to-\($0.id.rawValue)", value: $0.id.rawValue, label: $0.name, checked: $0.id == state.toUnit) }

            let fromInfo = state.fromInfo
            let toInfo = state.toInfo
            let fromText = state.input.display(groupingSeparator: NumberFormat.display.groupingSeparator)
            from = Value(text: fromText, symbol: fromInfo?.symbol ?? "", unitName: Self.spokenUnit(fromInfo, plural: fromText != "1"), size: Self.size(of: fromText))

            var conversionError: String?
            switch Result(catching: { () throws(ConverterError) -> ExactValue in try state.convertedValue() }) {
            case .success(let result):
                let text = result.formatted(.display)
                to = Value(text: text, symbol: toInfo?.symbol ?? "", unitName: Self.spokenUnit(toInfo, plural: text != "1"), size: Self.size(of: text))
                let exact = result.isShownExactly(in: .display)
                relation = exact ? "=" : "≈"
                relationSpoken = exact ? "equals" : "equals about"
                copyText = result.formatted(.plain)
                copiedMessage = "Copied \(result.formatted(.plain)) \(toInfo?.symbol ?? "")"
            case .failure(let error):
                to = Value(text: "—", symbol: toInfo?.symbol ?? "", unitName: Self.spokenUnit(toInfo, plural: true), size: Self.size(of: "—"))
                relation = "≠"
                relationSpoken = "has no value in"
                copyText = nil
                copiedMessage = ""
                conversionError = error.description
            }
            if let notice {
                message = notice.description
                messageKind = "notice"
            } else {
                message = conversionError
                messageKind = conversionError == nil ? "" : "error"
            }

            showsConventions = state.category == .data
            conventions = DataConvention.allCases.map { convention in
                Choice(id: "converter-convention-\(convention.rawValue)", value: convention.rawValue, label: convention.shortName, checked: convention == state.convention)
            }
            conventionCaption = state.convention.caption
            keys = Self.keys(for: state.category)
        }

        // MARK: Helpers

        /// How wide `text` is in ems, rounded up and kept within 3…12: the size class that lets
        /// converter.css pick a type size that fits the column (`--w7` is about `100cqi / 7`). The
        /// widths are the widest of the fonts a phone or this machine may use (DejaVu Sans: digits
        /// 0.64 em, the minus sign 0.84), counted in hundredths so that state.js's copy agrees exactly.
        static func size(of text: String) -> String {
            let hundredths = text.reduce(0) { width, character in
                switch character {
                case ",", ".", " ": width + 35
                case "⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹", "⁻": width + 42
                case "—": width + 100
                case "−", "-", "+", "×": width + 84
                default: width + 64
                }
            }
            return "w" + String(min(max((hundredths + 99) / 100, 3), 12))
        }

        private static func spokenUnit(_ info: UnitInfo?, plural: Bool) -> String {
            guard let info else { return "" }
            return plural ? info.plural : info.name
        }

        /// Calculator layout: C ± ⌫ on top, then 7 8 9 / 4 5 6 / 1 2 3, then a wide 0 and ".".
        static func keys(for category: UnitCategory) -> [Key] {
            func digit(_ value: Int) -> Key {
                Key(id: "converter-key-\(value)", value: String(value), label: String(value), spoken: String(value),
                    shortcuts: String(value), kind: "digit", wide: value == 0, disabledReason: nil)
            }
            let clear = Key(id: "converter-key-clear", value: KeypadKey.clear.rawValue, label: "C", spoken: "Clear",
                            shortcuts: "Escape Clear c C", kind: "function", wide: false, disabledReason: nil)
            let sign = Key(id: "converter-key-sign", value: KeypadKey.toggleSign.rawValue, label: "±", spoken: "Plus or minus",
                           shortcuts: "- ±", kind: "function", wide: false,
                           disabledReason: category.allowsNegative ? nil : "\(category.name) can't be negative")
            let delete = Key(id: "converter-key-delete", value: KeypadKey.delete.rawValue, label: "⌫", spoken: "Delete",
                             shortcuts: "Backspace Delete", kind: "delete", wide: false, disabledReason: nil)
            let point = Key(id: "converter-key-point", value: KeypadKey.decimalPoint.rawValue, label: ".", spoken: "Decimal point",
                            shortcuts: ". ,", kind: "digit", wide: false, disabledReason: nil)
            return [clear, sign, delete]
                + [7, 8, 9, 4, 5, 6, 1, 2, 3, 0].map(digit)
                + [point]
        }
    }
}
