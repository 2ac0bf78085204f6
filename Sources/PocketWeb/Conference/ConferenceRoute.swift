import Foundation
import Hummingbird

/// Every route of the Conference app, registering handlers and building links from one place.
enum ConferenceRoute: Equatable {
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

    /// The pattern below the app's prefix, as registered.
    var pattern: RouterPath {
        switch self {
        case .conferences: return ""
        case .conference: return "conferences/:id"
        case .talk: return "talks/:id"
        case .talkText: return "talks/:id/text"
        case .keep: return "conferences/:id/keep"
        case .bookmark: return "talks/:id/bookmark"
        case .bookmarkChanges: return "bookmarks/changes"
        case .volumes: return "citations"
        case .book: return "citations/:book"
        case .chapter: return "citations/:book/:chapter"
        case .verse: return "citations/:book/:chapter/:verse"
        case .speakers: return "speakers"
        case .speaker: return "speakers/:id"
        case .search: return "search"
        case .settings: return "settings"
        case .checkForUpdate: return "settings/check"
        case .install: return "settings/install"
        case .importDatabase: return "settings/import"
        case .events: return "settings/events"
        }
    }

    /// The link to this route.
    var href: String {
        switch self {
        case .conferences: return Self.prefix
        case .conference(let id): return "\(Self.prefix)/conferences/\(id)"
        case .talk(let id, let from):
            let query = from.map { "?from=\(Self.queryValue($0.token))" } ?? ""
            return "\(Self.prefix)/talks/\(id)\(query)"
        case .bookmark(let id): return "\(Self.prefix)/talks/\(id)/bookmark"
        case .bookmarkChanges: return "\(Self.prefix)/bookmarks/changes"
        case .talkText(let id): return "\(Self.prefix)/talks/\(id)/text"
        case .keep(let id): return "\(Self.prefix)/conferences/\(id)/keep"
        case .volumes: return "\(Self.prefix)/citations"
        case .book(let book): return "\(Self.prefix)/citations/\(book)"
        case .chapter(let book, let chapter): return "\(Self.prefix)/citations/\(book)/\(chapter)"
        case .verse(let book, let chapter, let verse): return "\(Self.prefix)/citations/\(book)/\(chapter)/\(verse.map(String.init) ?? "all")"
        case .speakers: return "\(Self.prefix)/speakers"
        case .speaker(let id): return "\(Self.prefix)/speakers/\(id)"
        case .search(let query):
            guard let query, !query.isEmpty else { return "\(Self.prefix)/search" }
            return "\(Self.prefix)/search?q=\(Self.queryValue(query))"
        case .settings: return "\(Self.prefix)/settings"
        case .checkForUpdate: return "\(Self.prefix)/settings/check"
        case .install: return "\(Self.prefix)/settings/install"
        case .importDatabase: return "\(Self.prefix)/settings/import"
        case .events: return "\(Self.prefix)/settings/events"
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
