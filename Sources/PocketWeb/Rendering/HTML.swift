/// A piece of HTML, written as a Swift string literal whose literal text is trusted markup and
/// whose interpolated strings are escaped.
///
/// Pages are built from these instead of templates (issue #14): swift-mustache found every value
/// by reflection and looked a missing one up again on every enclosing object, which made pages
/// take milliseconds and once showed a whole page model's debug text inside a talk. Here every
/// value is a Swift expression, so a misspelt or missing one does not compile, and nothing is
/// looked up at run time. What may be interpolated is deliberately narrow:
///
/// - a `String` (or `Substring`) is escaped, so text from outside can never become markup;
/// - an `Int` or `Int64` is written in decimal;
/// - another `HTML` goes in as it is: the only way to add markup;
/// - an optional has no interpolation at all: `\(unwrap:)` or `\(attribute:)` says what its
///   absence renders, so "nothing" is always a decision and never a fallback.
///
/// Escaping matches Mustache's `{{x}}` (`& < > " '`), so pages keep their exact markup.
struct HTML: ExpressibleByStringInterpolation, Sendable, Equatable, CustomStringConvertible {
    /// The markup.
    private(set) var text: String

    /// Nothing.
    static let empty = HTML(trusted: "")

    init(stringLiteral literal: String) {
        text = literal
    }

    init(stringInterpolation: Interpolation) {
        text = stringInterpolation.text
    }

    /// Markup made elsewhere and known to be safe, such as an inline SVG icon built into Pocket.
    /// Never for text that came from outside.
    init(trusted markup: String) {
        text = markup
    }

    /// Text shown as it is: escaped.
    init(escaping value: String) {
        var text = ""
        HTML.appendEscaped(value, to: &text)
        self.text = text
    }

    var description: String { text }

    /// Whether this renders nothing.
    var isEmpty: Bool { text.isEmpty }

    /// Each element's markup, one after another, with `separator` between them.
    static func join<S: Sequence>(_ elements: S, separator: HTML = .empty, _ body: (S.Element) -> HTML) -> HTML {
        var result = HTML.empty
        var first = true
        for element in elements {
            if !first { result.text += separator.text }
            first = false
            result.text += body(element).text
        }
        return result
    }

    /// The interpolation of `HTML` literals.
    struct Interpolation: StringInterpolationProtocol {
        fileprivate var text = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// Text from a model: escaped.
        mutating func appendInterpolation(_ value: String) {
            HTML.appendEscaped(value, to: &text)
        }

        /// Text from a model: escaped.
        mutating func appendInterpolation(_ value: Substring) {
            HTML.appendEscaped(String(value), to: &text)
        }

        /// A number, in decimal.
        mutating func appendInterpolation(_ value: Int) {
            text += String(value)
        }

        /// A number, in decimal (database ids and byte counts).
        mutating func appendInterpolation(_ value: Int64) {
            text += String(value)
        }

        /// Markup built elsewhere, already safe.
        mutating func appendInterpolation(_ html: HTML) {
            text += html.text
        }

        /// Each element's markup, one after another.
        mutating func appendInterpolation<S: Sequence>(each sequence: S, _ body: (S.Element) -> HTML) {
            for element in sequence { text += body(element).text }
        }

        /// `html` when `condition` holds, else `otherwise` (nothing unless given).
        mutating func appendInterpolation(if condition: Bool, _ html: @autoclosure () -> HTML, else otherwise: @autoclosure () -> HTML = .empty) {
            text += condition ? html().text : otherwise().text
        }

        /// The markup for the value when there is one, else `otherwise` (nothing unless given).
        mutating func appendInterpolation<T>(unwrap value: T?, _ body: (T) -> HTML, else otherwise: @autoclosure () -> HTML = .empty) {
            if let value { text += body(value).text } else { text += otherwise().text }
        }

        /// ` name="value"` (value escaped) when there is a value, else nothing: an optional
        /// attribute such as `href` or `data-sound`.
        mutating func appendInterpolation(attribute name: StaticString, _ value: String?) {
            guard let value else { return }
            text += " "
            text += name.description
            text += "=\""
            HTML.appendEscaped(value, to: &text)
            text += "\""
        }

        /// ` name` when `present` holds, else nothing: a boolean attribute such as `disabled`.
        mutating func appendInterpolation(flag name: StaticString, _ present: Bool) {
            guard present else { return }
            text += " "
            text += name.description
        }
    }

    /// Appends `value` to `text` with `& < > " '` escaped.
    static func appendEscaped(_ value: String, to text: inout String) {
        // Most values have nothing to escape; they are appended in one piece.
        guard value.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            text += value
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": text += "&amp;"
            case "<": text += "&lt;"
            case ">": text += "&gt;"
            case "\"": text += "&quot;"
            case "'": text += "&#39;"
            default: text.unicodeScalars.append(scalar)
            }
        }
    }
}
