import Foundation
import Hummingbird

/// Every route of the Conference app, registering handlers and building links from one place.
enum ConferenceRoute: AppRoute, Equatable {
    case conferences
    case conference(Int)
    case talk(Int, from: TalkListSource? = nil)
    /// A talk's text as a document of its own, shown in the talk page's sandboxed frame.
    case talkText(Int)
    /// The addresses to keep offline for a conference (JSON); stores any talk texts still missing.
    case keep(Int)
    /// POST: bookmark a talk (`bookmark=1`) or remove its bookmark (`bookmark=0`), for the signed-in person.
    case bookmark(Int)
    /// POST: a bookmark change from a phone's outbox (see `Outbox`).
    case bookmarkChanges
    case volumes
    case book(Int)
    case chapter(book: Int, chapter: Int)
    /// The talks citing a verse; `verse` nil means those citing the whole chapter.
    case verse(book: Int, chapter: Int, verse: Int?)
    case speakers
    case speaker(Int)
    case search(String?)
    case settings
    case checkForUpdate
    case install
    case importDatabase
    case events

    /// The prefix every Conference URL starts with.
    static let prefix = "/conference"

    /// Each path of the app, spelled once, below its prefix.
    enum Path: String, RoutePath {
        case conferences = ""
        case conference = "conferences/:id"
        case talk = "talks/:id"
        case talkText = "talks/:id/text"
        case keep = "conferences/:id/keep"
        case bookmark = "talks/:id/bookmark"
        case bookmarkChanges = "bookmarks/changes"
        case volumes = "citations"
        case book = "citations/:book"
        case chapter = "citations/:book/:chapter"
        case verse = "citations/:book/:chapter/:verse"
        case speakers
        case speaker = "speakers/:id"
        case search
        case settings
        case checkForUpdate = "settings/check"
        case install = "settings/install"
        case importDatabase = "settings/import"
        case events = "settings/events"
    }

    var path: Path {
        switch self {
        case .conferences: .conferences
        case .conference: .conference
        case .talk: .talk
        case .talkText: .talkText
        case .keep: .keep
        case .bookmark: .bookmark
        case .bookmarkChanges: .bookmarkChanges
        case .volumes: .volumes
        case .book: .book
        case .chapter: .chapter
        case .verse: .verse
        case .speakers: .speakers
        case .speaker: .speaker
        case .search: .search
        case .settings: .settings
        case .checkForUpdate: .checkForUpdate
        case .install: .install
        case .importDatabase: .importDatabase
        case .events: .events
        }
    }

    var parameters: [String] {
        switch self {
        case .conference(let id), .talk(let id, _), .talkText(let id), .keep(let id), .bookmark(let id), .book(let id), .speaker(let id):
            [String(id)]
        case .chapter(let book, let chapter): [String(book), String(chapter)]
        // A verse of nil is the whole chapter's citations.
        case .verse(let book, let chapter, let verse): [String(book), String(chapter), verse.map(String.init) ?? "all"]
        case .conferences, .bookmarkChanges, .volumes, .speakers, .search, .settings, .checkForUpdate, .install, .importDatabase, .events:
            []
        }
    }

    var query: String {
        switch self {
        case .talk(_, let from?): "?from=\(Self.queryValue(from.token))"
        case .search(let query?) where !query.isEmpty: "?q=\(Self.queryValue(query))"
        default: ""
        }
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
