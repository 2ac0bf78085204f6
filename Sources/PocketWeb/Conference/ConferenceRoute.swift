import Foundation
import Hummingbird

/// Every route of the Conference app, each declared once; `ConferenceApp.endpoints` gives each
/// its handler, and links are built from the same values.
enum ConferenceRoute {
    /// The prefix every Conference URL starts with.
    static let prefix = "/conference"

    static let conferences = Route(.get, "", under: prefix)
    static let conference = Route(.get, "conferences/:id", Int.self, under: prefix)
    /// A talk; its link may name the list it was opened from (`talkHref(_:from:)`).
    static let talk = Route(.get, "talks/:id", Int.self, under: prefix)
    /// A talk's text as a document of its own, shown in the talk page's sandboxed frame.
    static let talkText = Route(.get, "talks/:id/text", Int.self, under: prefix)
    /// The addresses to keep offline for a conference (JSON); stores any talk texts still missing.
    static let keep = Route(.get, "conferences/:id/keep", Int.self, under: prefix)
    /// Bookmark a talk (`bookmark=1`) or remove its bookmark (`bookmark=0`), for the signed-in person.
    static let bookmark = Route(.post, "talks/:id/bookmark", Int.self, under: prefix)
    /// A bookmark change from a phone's outbox (see `Outbox`).
    static let bookmarkChanges = Route(.post, "bookmarks/changes", under: prefix)
    static let volumes = Route(.get, "citations", under: prefix)
    static let book = Route(.get, "citations/:book", Int.self, under: prefix)
    static let chapter = Route(.get, "citations/:book/:chapter", Int.self, Int.self, under: prefix)
    /// The talks citing a verse, or the whole chapter (`CitedVerse`).
    static let verse = Route(.get, "citations/:book/:chapter/:verse", Int.self, Int.self, CitedVerse.self, under: prefix)
    static let speakers = Route(.get, "speakers", under: prefix)
    static let speaker = Route(.get, "speakers/:id", Int.self, under: prefix)
    /// Search; its link may carry the words (`searchHref(_:)`).
    static let search = Route(.get, "search", under: prefix)
    static let settings = Route(.get, "settings", under: prefix)
    static let checkForUpdate = Route(.post, "settings/check", under: prefix)
    static let install = Route(.post, "settings/install", under: prefix)
    static let importDatabase = Route(.post, "settings/import", under: prefix)
    static let events = Route(.get, "settings/events", under: prefix)

    /// The link to a talk opened from `source` (named in `?from=`, so its list shows beside it).
    static func talkHref(_ id: Int, from source: TalkListSource?) -> String {
        talk.href(id) + (source.map { "?from=" + queryValue($0.token) } ?? "")
    }

    /// The link to the search page showing the talks that match `query`.
    static func searchHref(_ query: String?) -> String {
        guard let query, !query.isEmpty else { return search.href() }
        return search.href() + "?q=" + queryValue(query)
    }

    /// The link to the talks citing `verse` of a chapter, or the whole chapter when `verse` is nil.
    static func verseHref(book: Int, chapter: Int, verse: Int?) -> String {
        self.verse.href(book, chapter, CitedVerse(number: verse))
    }

    /// `text` escaped for a query value. Most values (`conference-12`) need no escaping, and
    /// Foundation's escaping cost a talk page with a conference's talks beside it 8% of its time.
    static func queryValue(_ text: String) -> String {
        let plain = text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
            default: false
            }
        }
        return plain ? text : text.addingPercentEncoding(withAllowedCharacters: .urlQueryValue) ?? ""
    }
}

/// The last part of a citation's path: a verse's number, or `all` for the whole chapter.
struct CitedVerse: PathValue, Equatable {
    /// The verse, or nil for the whole chapter.
    let number: Int?

    init(number: Int?) {
        self.number = number
    }

    init?(pathPart: String) {
        if pathPart == "all" {
            number = nil
        } else if let number = Int(pathPart) {
            self.number = number
        } else {
            return nil
        }
    }

    var pathPart: String { number.map(String.init) ?? "all" }
}

/// The list a talk was opened from, shown beside it in the split view and named by its back button.
enum TalkListSource: Equatable, Sendable {
    case conference(Int)
    case speaker(Int)
    case verse(book: Int, chapter: Int, verse: Int?)
    case search(String)

    /// The `from` query value: `speaker-12`, `verse-3-16-5`, `verse-3-16-all`, `search-words`.
    var token: String {
        switch self {
        case .conference(let id): return "conference-\(id)"
        case .speaker(let id): return "speaker-\(id)"
        case .verse(let book, let chapter, let verse): return "verse-\(book)-\(chapter)-\(verse.map(String.init) ?? "all")"
        case .search(let text): return "search-\(text)"
        }
    }

    /// Reads a `from` value; anything unrecognised is nil (the talk's own conference is used).
    init?(token: String?) {
        guard let token, let dash = token.firstIndex(of: "-") else { return nil }
        let kind = token[..<dash], rest = String(token[token.index(after: dash)...])
        switch kind {
        case "conference": guard let id = Int(rest) else { return nil }; self = .conference(id)
        case "speaker": guard let id = Int(rest) else { return nil }; self = .speaker(id)
        case "search":
            guard !rest.isEmpty, rest.count <= 200 else { return nil }
            self = .search(rest)
        case "verse":
            let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, let book = Int(parts[0]), let chapter = Int(parts[1]) else { return nil }
            if parts[2] == "all" {
                self = .verse(book: book, chapter: chapter, verse: nil)
            } else if let verse = Int(parts[2]) {
                self = .verse(book: book, chapter: chapter, verse: verse)
            } else {
                return nil
            }
        default: return nil
        }
    }
}

extension CharacterSet {
    /// Characters a query value may hold unescaped (no `&`, `=`, `+`, `#`).
    static let urlQueryValue: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.remove(charactersIn: "&=+#?/")
        return set
    }()
}
