/// Tidies text read from a sci-core database for display.
///
/// Every list a screen shows runs its titles and names through here, and so does the search
/// index at install (every talk): it uses the standard library's Unicode tables rather than
/// Foundation's `trimmingCharacters`, which bridges each string through `NSString`.
enum DisplayText {
    /// `raw` with its HTML character references decoded and the white space at both ends removed.
    static func clean(_ raw: String) -> String {
        trimmed(HTMLEntities.decode(raw))
    }

    /// `text` without leading and trailing white space. Untouched text is returned as is.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return text }
        guard isSpace(first) || isSpace(last) else { return text }
        guard let start = scalars.firstIndex(where: { !isSpace($0) }),
              let end = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[start...end])
    }

    /// What `trimmed` removes: Unicode's White_Space characters and the zero-width space, the same
    /// set as Foundation's `whitespacesAndNewlines`.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar == "\u{200B}"
    }
}
