import GRDB

// Reading a digest back into the screens' models. Each read first checks that the digest still
// exists: another Pocket process may have installed a newer database and deleted this one's
// digest, and then the caller answers from the file itself (nil here) rather than with nothing.

extension CoreDigest {
    /// A talk's place in its conference: the session it is listed under, and its id as the screens
    /// read it and as the file stores it (to find its row).
    struct TalkPlace: Sendable, Equatable {
        let sessionID: Int
        let talkID: Int
        let talkKey: DatabaseValue
    }

    /// A conference's row in the list and its talks in order.
    struct ConferenceOrder: Sendable {
        let conference: ConferenceSummary
        let talks: [TalkPlace]
    }

    /// The id of the digest of the file named `fileName`, if one has been built.
    static func id(_ db: Database, fileName: String) throws -> Int64? {
        try Int64.fetchOne(cached: db, sql: "SELECT id FROM digest WHERE fileName = ?", arguments: [fileName])
    }

    /// The table sizes.
    static func counts(_ db: Database, digest: Int64) throws -> DatabaseCounts? {
        try Row.fetchOne(cached: db, sql: "SELECT conferences, sessions, talks, speakers, citations FROM digest WHERE id = ?", arguments: [digest])
            .map { row in
                DatabaseCounts(conferences: row["conferences"], sessions: row["sessions"], talks: row["talks"],
                               speakers: row["speakers"], citations: row["citations"])
            }
    }

    /// The conference list, newest first.
    static func conferences(_ db: Database, digest: Int64) throws -> [ConferenceSummary]? {
        guard try exists(db, digest) else { return nil }
        return try Row.fetchAll(cached: db, sql: "\(conferenceColumns) WHERE digestID = ? ORDER BY position", arguments: [digest]).map(conference)
    }

    /// One conference and its talks in order: `.some(nil)` when the file has no such conference.
    static func conference(_ db: Database, digest: Int64, id: Int) throws -> ConferenceOrder?? {
        guard try exists(db, digest) else { return nil }
        guard let row = try Row.fetchOne(cached: db, sql: "\(conferenceColumns) WHERE digestID = ? AND conferenceID = ? ORDER BY position LIMIT 1",
                                         arguments: [digest, id]) else { return .some(nil) }
        let talks = try Row.fetchAll(cached: db, sql: "\(placeColumns) WHERE digestID = ? AND conferenceKey = ? ORDER BY position",
                                     arguments: [digest, id]).map(place)
        return ConferenceOrder(conference: conference(row), talks: talks)
    }

    /// The talks before and after `talkID` in conference `conferenceID` (across sessions).
    static func neighbours(_ db: Database, digest: Int64, conferenceID: Int, talkID: Int) throws -> (previous: TalkPlace?, next: TalkPlace?)? {
        guard try exists(db, digest) else { return nil }
        guard let position = try Int.fetchOne(cached: db, sql: """
            SELECT position FROM digest_talk WHERE digestID = ? AND conferenceKey = ? AND talkID = ? ORDER BY position LIMIT 1
            """, arguments: [digest, conferenceID, talkID]) else { return (nil, nil) }
        var previous: TalkPlace?
        var next: TalkPlace?
        for row in try Row.fetchAll(cached: db, sql: "\(placeColumns) WHERE digestID = ? AND conferenceKey = ? AND position IN (?, ?)",
                                    arguments: [digest, conferenceID, position - 1, position + 1]) {
            if row["position"] as Int == position - 1 { previous = place(row) } else { next = place(row) }
        }
        return (previous, next)
    }

    /// Speakers A–Z in their sections.
    static func speakers(_ db: Database, digest: Int64) throws -> [SpeakerSection]? {
        guard try exists(db, digest) else { return nil }
        var sections: [SpeakerSection] = []
        var section: Int?
        var letter = ""
        var speakers: [SpeakerSummary] = []
        for row in try Row.fetchAll(cached: db, sql: """
            SELECT section, letter, speakerID, name, info, talkCount FROM digest_speaker WHERE digestID = ? ORDER BY position
            """, arguments: [digest]) {
            if row["section"] != section {
                if section != nil { sections.append(SpeakerSection(letter: letter, speakers: speakers)) }
                section = row["section"]
                letter = row["letter"]
                speakers = []
            }
            speakers.append(SpeakerSummary(id: row["speakerID"], name: row["name"], info: row["info"], talkCount: row["talkCount"]))
        }
        if section != nil { sections.append(SpeakerSection(letter: letter, speakers: speakers)) }
        return sections
    }

    /// The citation index's first screen.
    static func volumes(_ db: Database, digest: Int64) throws -> [VolumeCitations]? {
        guard try exists(db, digest) else { return nil }
        var volumes: [VolumeCitations] = []
        var volume: (book: BookReference, count: Int)?
        var books: [BookCount] = []
        for row in try Row.fetchAll(cached: db, sql: """
            SELECT isVolume, bookID, name, citeAbbr, chapterCount, citationCount FROM digest_book WHERE digestID = ? ORDER BY position
            """, arguments: [digest]) {
            let book = BookReference(id: row["bookID"], name: row["name"], citeAbbr: row["citeAbbr"], chapterCount: row["chapterCount"])
            if row["isVolume"] as Bool {
                if let volume { volumes.append(VolumeCitations(volume: volume.book, citationCount: volume.count, books: books)) }
                volume = (book, row["citationCount"])
                books = []
            } else {
                books.append(BookCount(book: book, citationCount: row["citationCount"]))
            }
        }
        if let volume { volumes.append(VolumeCitations(volume: volume.book, citationCount: volume.count, books: books)) }
        return volumes
    }

    /// A book's cited chapters with their counts.
    static func chapters(_ db: Database, digest: Int64, bookID: Int) throws -> [ChapterCount]? {
        guard try exists(db, digest) else { return nil }
        return try Row.fetchAll(cached: db, sql: """
            SELECT chapter, citationCount FROM digest_chapter WHERE digestID = ? AND bookKey = ? ORDER BY position
            """, arguments: [digest, bookID]).map { row in
            ChapterCount(chapter: row["chapter"], citationCount: row["citationCount"])
        }
    }
}

// MARK: - Private

private extension CoreDigest {
    static let conferenceColumns = "SELECT conferenceID, abbr, description, year, issueDate, publication, talkCount FROM digest_conference"

    static let placeColumns = "SELECT position, sessionID, talkID, talkKey FROM digest_talk"

    static func exists(_ db: Database, _ digest: Int64) throws -> Bool {
        try Bool.fetchOne(cached: db, sql: "SELECT EXISTS(SELECT 1 FROM digest WHERE id = ?)", arguments: [digest]) ?? false
    }

    static func conference(_ row: Row) -> ConferenceSummary {
        ConferenceSummary(id: row["conferenceID"], abbr: row["abbr"], description: row["description"], year: row["year"],
                          issueDate: row["issueDate"], publication: row["publication"], talkCount: row["talkCount"])
    }

    static func place(_ row: Row) -> TalkPlace {
        TalkPlace(sessionID: row["sessionID"], talkID: row["talkID"], talkKey: row["talkKey"])
    }
}
