/// Writes scripture references the way the index shows them, and reads the verse lists it stores.
public enum CitationFormatter {
    /// "Mosiah 3:19", "D&C 20" (no verses), "BM Title Page" (a book without chapters),
    /// "JST Matt. 4:1"; verse lists get en dashes and spaces: "Matt. 25:1–4, 6–13".
    public static func reference(citeAbbr: String, chapterCount: Int, chapter: Int, verses: String?, jst: Bool) -> String {
        let name = (jst ? "JST " : "") + citeAbbr
        let shownVerses = verses.map(displayVerses).flatMap { $0.isEmpty ? nil : $0 }
        if chapterCount == 0 && chapter == 0 {
            return [name, shownVerses].compactMap { $0 }.joined(separator: " ")
        }
        guard let shownVerses else { return "\(name) \(chapter)" }
        return "\(name) \(chapter):\(shownVerses)"
    }

    /// The verses a stored list names: "11-24" → 11…24, "1,3,5-7" → [1, 3, 5, 6, 7]. Text that
    /// is not a verse list (e.g. a section heading) gives no verses. Ranges are capped, so a
    /// damaged row cannot make the index enumerate millions of verses.
    public static func verses(in list: String?) -> [Int] {
        guard let list else { return [] }
        var result: Set<Int> = []
        for part in list.split(whereSeparator: { $0 == "," || $0 == " " }) {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
            if bounds.count == 1, let verse = Int(bounds[0]), verse > 0 {
                result.insert(verse)
            } else if bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]), first > 0, last >= first {
                result.formUnion(first...min(last, first + maximumRange))
            }
        }
        return result.sorted()
    }

    /// The longest verse range read from one citation (the longest chapter, Psalm 119, has 176 verses).
    static let maximumRange = 200

    /// "1-4,6-13" → "1–4, 6–13".
    static func displayVerses(_ verses: String) -> String {
        verses.split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "-", with: "–") }
            .filter { !$0.isEmpty }
            .joined(separator: ", ")
    }
}
