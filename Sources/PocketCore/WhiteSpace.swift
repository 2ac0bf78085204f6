/// Trims white space with the standard library's Unicode tables.
///
/// Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` bridges every string through
/// `NSString` on Linux; where thousands of values are tidied at once (a sync feed, a search index)
/// that bridge was most of the time. This removes the same characters.
public enum WhiteSpace {
    /// `text` without leading and trailing white space. Untouched text is returned as is.
    public static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return text }
        guard isSpace(first) || isSpace(last) else { return text }
        guard let start = scalars.firstIndex(where: { !isSpace($0) }),
              let end = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[start...end])
    }

    /// What `trimmed` removes: Unicode's White_Space characters and the zero-width space, the same
    /// set as Foundation's `whitespacesAndNewlines`.
    public static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar == "\u{200B}"
    }
}
