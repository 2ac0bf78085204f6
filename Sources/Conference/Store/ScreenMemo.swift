import PocketCore
import Synchronization

/// Answers of the screens that depend only on one sci-core file (and its digest, which is made
/// from it), kept for as long as that file is in use: the file is never written, so an answer
/// cannot go stale. Each `CoreGeneration` has its own, so a newly installed file starts empty.
///
/// Why: the conference list, a conference's sessions (beside every one of its talks), the
/// citation index and the speakers are the same for everyone and read on most requests, and
/// reading and decoding them again cost most of their pages' time. A search (the index is
/// rebuilt with each file) ranks every matching talk, which a short word makes costly, and the
/// same words come again as people type, go back, and search what others searched.
final class ScreenMemo: Sendable {
    /// Which screen, with what it was asked for.
    enum Key: Hashable, Sendable {
        case status
        case conferences
        case conference(Int)
        case talk(Int)
        case volumes
        case book(Int)
        case chapter(book: Int, chapter: Int)
        case verse(book: Int, chapter: Int, verse: Int?)
        case speakers
        case speaker(Int)
        case search(String, limit: Int)
        /// Talk rows for a person's recent or bookmarked ids, in that order.
        case summaries([Int])
    }

    /// Beyond this many answers of one kind (talks, searches, the rest), those of that kind are
    /// forgotten, which bounds the memory a crawl of every talk can take (an answer is a few
    /// kilobytes; the largest, the speakers, about a hundred) and keeps the lists every talk page
    /// shows from being pushed out by the talks.
    static let capacity = 256

    private enum Kind: CaseIterable {
        case talk, search, summaries, other
    }

    private let answers = Mutex<[Kind: [Key: any Sendable]]>([:])

    /// The kept answer to `key`, else `compute`'s, kept. Failures are not kept.
    func answer<T: Sendable>(_ key: Key, isolation: isolated (any Actor)? = #isolation,
                             compute: () async throws -> T) async throws -> T {
        let kind = Self.kind(of: key)
        if let known = answers.withLock({ $0[kind]?[key] }) as? T { return known }
        let answer = try await compute()
        answers.withLock { answers in
            if answers[kind, default: [:]].count >= Self.capacity { answers[kind]?.removeAll(keepingCapacity: true) }
            answers[kind, default: [:]][key] = answer
        }
        return answer
    }

    /// How many answers are kept (for tests).
    var count: Int {
        answers.withLock { $0.values.reduce(0) { $0 + $1.count } }
    }

    private static func kind(of key: Key) -> Kind {
        switch key {
        case .talk: .talk
        case .search: .search
        case .summaries: .summaries
        default: .other
        }
    }
}
