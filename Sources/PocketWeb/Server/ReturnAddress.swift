import Foundation

/// Where a form or the sign-in page may send the browser next. Every redirect chosen by a
/// request's own field goes through this one check, so an open redirect cannot reappear in one
/// app while the others refuse it.
enum ReturnAddress {
    /// `value` when it is a path on this Pocket inside `prefix` (an app's `/plates`, or `/` for any
    /// page), else `fallback`. A path is refused when it could name another host (`//`, a
    /// backslash, which browsers read as a slash) or split a header (any control character).
    static func within(_ prefix: String, _ value: String?, otherwise fallback: String) -> String {
        guard let value, isLocalPath(value) else { return fallback }
        let base = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        guard base.isEmpty || value == base || value.hasPrefix(base + "/") || value.hasPrefix(base + "?") else { return fallback }
        return value
    }

    private static func isLocalPath(_ value: String) -> Bool {
        value.hasPrefix("/") && !value.contains("//") && !value.contains("\\")
            && !value.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
    }
}
