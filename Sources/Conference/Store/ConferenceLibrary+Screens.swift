import Foundation
import GRDB
import PocketCore

// The screens: what does not change for an installed file comes from its digest (`CoreDigest`),
// the rest from the file, and each answer is kept with the file (`ScreenMemo`). Each digest answer falls back to the file itself when there is no
// digest (it could not be built) or it has just been replaced by another process's install.

extension ConferenceLibrary {
    /// Which database is in use (sample or installed), its counts, capabilities and any start-up warning.
    public func status() async throws -> DatabaseStatus {
        let active = try await generation()
        let warning = warning
        let file = try await kept(in: active, .status) {
            let known = await fromDigest(of: active) { state, digest in try await state.digestCounts(digest) }
            return try await active.read { db, schema in
                DatabaseStatus(
                    source: active.source,
                    footer: try CoreQueries.footer(db, schema: schema, source: active.source),
                    counts: try known ?? CoreQueries.counts(db, schema: schema),
                    capabilities: schema.capabilities,
                    warning: nil
                )
            }
        }
        return DatabaseStatus(source: file.source, footer: file.footer, counts: file.counts, capabilities: file.capabilities, warning: warning)
    }

    /// Conferences newest first (`ORDER BY IssueDate DESC`) and the footer line.
    public func conferences() async throws -> ConferenceList {
        let active = try await generation()
        return try await kept(in: active, .conferences) {
            let known = await fromDigest(of: active) { state, digest in try await state.digestConferences(digest) }
            return try await active.read { db, schema in
                ConferenceList(conferences: try known ?? CoreQueries.conferences(db, schema: schema),
                               footer: try CoreQueries.footer(db, schema: schema, source: active.source))
            }
        }
    }

    /// A conference's talks in sections by session (ordered by session, then talk sequence).
    public func conference(id: Int) async throws -> ConferenceDetail {
        let active = try await generation()
        return try await kept(in: active, .conference(id)) {
            if let known = await fromDigest(of: active, { state, digest in try await state.digestConference(digest, id: id) }) {
                guard let known else { throw ConferenceError.unknownConference(id) }
                return try await active.read { db, schema in try CoreQueries.conference(db, schema: schema, order: known) }
            }
            return try await active.read { db, schema in try CoreQueries.conference(db, schema: schema, id: id) }
        }
    }

    /// A talk: speaker, session, pages, links, media by era, previous/next talk and its citations.
    public func talk(id: Int) async throws -> TalkDetail {
        let active = try await generation()
        return try await kept(in: active, .talk(id)) {
            guard caches.keeps(.digest), let digest = await digest(for: active) else {
                return try await active.read { db, schema in try CoreQueries.talk(db, schema: schema, id: id) }
            }
            let detail = try await active.read { db, schema in try CoreQueries.talk(db, schema: schema, id: id, neighbours: false) }
            guard let conference = detail.conference else { return detail }
            guard let (previous, next) = try await state.digestNeighbours(digest, conferenceID: conference.id, talkID: id) else {
                forgetDigest(of: active)
                return try await active.read { db, schema in try CoreQueries.talk(db, schema: schema, id: id) }
            }
            let keys = [previous, next].compactMap { $0?.talkKey }
            let talks = try await active.read { db, schema in try CoreQueries.talkSummaries(db, schema: schema, keys: keys) }
            return detail.with(previous: previous.flatMap { talks[$0.talkID] }, next: next.flatMap { talks[$0.talkID] })
        }
    }

    /// The citation index's first screen: volumes with their books and citation counts.
    public func citationVolumes() async throws -> [VolumeCitations] {
        let active = try await generation()
        guard active.schema.capabilities.citations else { throw ConferenceError.citationsUnavailable }
        return try await kept(in: active, .volumes) {
            if let known = await fromDigest(of: active, { state, digest in try await state.digestVolumes(digest) }) { return known }
            return try await active.read { db, schema in try CoreQueries.volumes(db, schema: schema) }
        }
    }

    /// A book's cited chapters with counts.
    public func citations(bookID: Int) async throws -> BookCitations {
        let active = try await generation()
        return try await kept(in: active, .book(bookID)) {
            let known = await fromDigest(of: active) { state, digest in try await state.digestChapters(digest, bookID: bookID) }
            return try await active.read { db, schema in try CoreQueries.book(db, schema: schema, id: bookID, chapters: known) }
        }
    }

    /// A chapter's cited verses with counts.
    public func citations(bookID: Int, chapter: Int) async throws -> ChapterCitations {
        let active = try await generation()
        return try await kept(in: active, .chapter(book: bookID, chapter: chapter)) {
            try await active.read { db, schema in try CoreQueries.chapter(db, schema: schema, bookID: bookID, chapter: chapter) }
        }
    }

    /// The talks citing a verse (nil: citing the whole chapter), newest first.
    public func citations(bookID: Int, chapter: Int, verse: Int?) async throws -> VerseCitations {
        let active = try await generation()
        return try await kept(in: active, .verse(book: bookID, chapter: chapter, verse: verse)) {
            try await active.read { db, schema in try CoreQueries.verse(db, schema: schema, bookID: bookID, chapter: chapter, verse: verse) }
        }
    }

    /// Speakers A–Z in sections by the first letter of their last name.
    public func speakers() async throws -> [SpeakerSection] {
        let active = try await generation()
        return try await kept(in: active, .speakers) {
            if let known = await fromDigest(of: active, { state, digest in try await state.digestSpeakers(digest) }) { return known }
            return try await active.read { db, schema in try CoreQueries.speakers(db, schema: schema) }
        }
    }

    /// A speaker and their talks, newest first.
    public func speaker(id: Int) async throws -> SpeakerDetail {
        let active = try await generation()
        return try await kept(in: active, .speaker(id)) {
            try await active.read { db, schema in try CoreQueries.speaker(db, schema: schema, id: id) }
        }
    }

    /// Talks matching what has been typed so far (title and speaker, word prefixes, accents
    /// ignored), from the index in Pocket's own database.
    public func search(_ text: String, limit: Int) async throws -> [SearchHit] {
        // The index names the file it describes: one built for another file (the install that
        // brought this one ends before its index is built) is never read for this one.
        let active = try await generation()
        let fileName = active.file.lastPathComponent
        return try await kept(in: active, .search(text, limit: limit)) {
            for _ in 0..<3 {
                if let hits = try await state.search(text, limit: limit, in: fileName) { return hits }
                try await prepareSearch(for: active)
            }
            // Only another process's installs, one after another, rebuilding it for newer files get here.
            throw ConferenceError.fileSystem("the search index is being rebuilt for a newer database; search again")
        }
    }

    /// Remembers that `person` opened a talk, in Pocket's own database.
    public func recordView(talkID: Int, by person: PersonID) async throws {
        try await state.recordView(talkID: talkID, by: person, at: Date())
    }

    /// The talks `person` opened recently, newest first (talks the current database lacks are left out).
    public func recentTalks(of person: PersonID, limit: Int) async throws -> [TalkSummary] {
        // Talks the current database lacks are skipped, so ask for all that are remembered.
        let ids = try await state.recentTalkIDs(of: person)
        return Array(try await summaries(ids).prefix(max(0, limit)))
    }

    /// Bookmarks a talk for `person` (true) or removes the bookmark (false); repeating either
    /// changes nothing (bookmarking twice keeps the first date). Kept in Pocket's own database, so
    /// it outlives the downloaded file.
    public func setBookmark(_ isBookmarked: Bool, talkID: Int, for person: PersonID, at date: Date) async throws {
        try await state.setBookmark(isBookmarked, talkID: talkID, for: person, at: date)
    }

    /// Applies a bookmark change from a phone's outbox by `ToggleChange`'s rule; setting a
    /// bookmark needs a talk the database has (`ConferenceError.unknownTalk`).
    public func apply(_ change: ToggleChange, for person: PersonID) async throws -> ToggleOutcome {
        let exists: Bool
        if change.isOn {
            do {
                _ = try await talk(id: change.itemID)
                exists = true
            } catch ConferenceError.unknownTalk {
                exists = false
            }
        } else {
            exists = true
        }
        return try await state.apply(change, for: person, talkExists: exists)
    }

    /// Whether `person` has bookmarked the talk.
    public func isBookmarked(talkID: Int, by person: PersonID) async throws -> Bool {
        try await state.isBookmarked(talkID: talkID, by: person)
    }

    /// The ids of the talks `person` bookmarked, newest first, including any the current database lacks.
    public func bookmarkedTalkIDs(of person: PersonID) async throws -> [Int] {
        try await state.bookmarkedTalkIDs(of: person)
    }

    /// The talks `person` bookmarked, newest first (talks the current database lacks are left out).
    public func bookmarkedTalks(of person: PersonID) async throws -> [TalkSummary] {
        try await summaries(try await state.bookmarkedTalkIDs(of: person))
    }

    /// The first 25 talks matching what has been typed so far.
    public func search(_ text: String) async throws -> [SearchHit] {
        try await search(text, limit: 25)
    }

    /// The ten talks `person` opened most recently.
    public func recentTalks(of person: PersonID) async throws -> [TalkSummary] {
        try await recentTalks(of: person, limit: 10)
    }

    /// Bookmarks a talk for `person` (true) or removes the bookmark (false), dated now.
    public func setBookmark(_ isBookmarked: Bool, talkID: Int, for person: PersonID) async throws {
        try await setBookmark(isBookmarked, talkID: talkID, for: person, at: Date())
    }
}

// MARK: - Private

private extension ConferenceLibrary {
    /// `active`'s kept answer to `key`, else `compute`'s, kept (unless the page benchmark made this
    /// library with the screens' answers passed through).
    func kept<T: Sendable>(in active: CoreGeneration, _ key: ScreenMemo.Key, compute: () async throws -> T) async throws -> T {
        guard caches.keeps(.screenMemo) else { return try await compute() }
        return try await active.screens.answer(key, compute: compute)
    }

    /// Rows for `ids` in their order, leaving out talks the current database lacks.
    func summaries(_ ids: [Int]) async throws -> [TalkSummary] {
        guard !ids.isEmpty else { return [] }
        let active = try await generation()
        return try await kept(in: active, .summaries(ids)) {
            try await active.read { db, schema in try CoreQueries.talkSummaries(db, schema: schema, ids: ids) }
        }
    }

    /// `read`'s answer from `active`'s digest; nil when there is none to read, and the file
    /// itself must answer. A failed read counts as none: the file can always answer.
    func fromDigest<T>(of active: CoreGeneration,
                       _ read: @Sendable (ConferenceStateDatabase, Int64) async throws -> T?) async -> T? {
        guard caches.keeps(.digest), let digest = await digest(for: active) else { return nil }
        guard let answer = try? await read(state, digest) else {
            forgetDigest(of: active)
            return nil
        }
        return answer
    }
}

extension TalkDetail {
    /// The same talk with the given neighbours.
    func with(previous: TalkSummary?, next: TalkSummary?) -> TalkDetail {
        TalkDetail(id: id, title: title, speaker: speaker, speakerID: speakerID, conference: conference, session: session, date: date,
                   corpus: corpus, pages: pages, url: url, contentURL: contentURL, media: media, previous: previous, next: next,
                   citations: citations)
    }
}
