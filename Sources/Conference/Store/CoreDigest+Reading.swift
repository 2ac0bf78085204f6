import GRDB

// Reading a digest back into the screens' models. Each read first checks that the digest still
// exists: another Pocket process may have installed a newer database and deleted this one's
// digest, and then the caller answers from the file itself (nil here) rather than with nothing.

extension CoreDigest {
    /// The id of the digest of the file named `fileName`, if one has been built.
    static func id(_ db: Database, fileName: String) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM digest WHERE fileName = ?", arguments: [fileName])
    }

    /// The table sizes.
    static func counts(_ db: Database, digest: Int64) throws -> DatabaseCounts? {
        try Row.fetchOne(db, sql: "SELECT conferences, sessions, talks, speakers, citations FROM digest WHERE id = ?", arguments: [digest])
            .map { row in
                DatabaseCounts(conferences: row["conferences"], sessions: row["sessions"], talks: row["talks"],
                               speakers: row["speakers"], citations: row["citations"])
            }
    }

    /// The conference list, newest first.
    static func conferences(_ db: Database, digest: Int64) throws -> [ConferenceSummary]? {
        guard try exists(db, digest) else { return nil }
        return try Row.fetchAll(db, sql: "\(conferenceColumns) WHERE digestID = ? ORDER BY position", arguments: [digest]).map(conference)
    }

    /// One conference and its talks by session: `.some(nil)` when the file has no such conference.
    static func conference(_ db: Database, digest: Int64, id: Int) throws -> ConferenceDetail?? {
        guard try exists(db, digest) else { return nil }
        guard let row = try Row.fetchOne(db, sql: "\(conferenceColumns) WHERE digestID = ? AND conferenceID = ? ORDER BY position LIMIT 1",
                                         arguments: [digest, id]) else { return .some(nil) }
        return ConferenceDetail(conference: conference(row), sessions: try sessions(db, digest: digest, conferenceID: id))
    }

    /// The talks before and after `talkID` in its conference (across sessions).
    static func neighbours(_ db: Database, digest: Int64, conferenceID: Int, talkID: Int) throws -> (previous: TalkSummary?, next: TalkSummary?)? {
        guard try exists(db, digest) else { return nil }
        guard let position = try Int.fetchOne(db, sql: """
            SELECT position FROM digest_talk WHERE digestID = ? AND conferenceKey = ? AND talkID = ? ORDER BY position LIMIT 1
            """, arguments: [digest, conferenceID, talkID]) else { return (nil, nil) }
        var previous: TalkSummary?
        var next: TalkSummary?
        for row in try Row.fetchAll(db, sql: "\(talkColumns) WHERE digestID = ? AND conferenceKey = ? AND position IN (?, ?)",
                                    arguments: [digest, conferenceID, position - 1, position + 1]) {
            if row["position"] as Int == position - 1 { previous = talk(row) } else { next = talk(row) }
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
        for row in try Row.fetchAll(db, sql: """
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
        for row in try Row.fetchAll(db, sql: """
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
        return try Row.fetchAll(db, sql: """
            SELECT chapter, citationCount FROM digest_chapter WHERE digestID = ? AND bookKey = ? ORDER BY position
            """, arguments: [digest, bookID]).map { row in
            ChapterCount(chapter: row["chapter"], citationCount: row["citationCount"])
        }
    }
}

// MARK: - Private

private extension CoreDigest {
    static let conferenceColumns = "SELECT conferenceID, abbr, description, year, issueDate, publication, talkCount FROM digest_conference"

    static let talkColumns = """
        SELECT position, sessionID, sessionDescription, sessionDate, sessionSequence, talkID, title, speaker, speakerID, startPage, endPage
        FROM digest_talk
        """

    static func exists(_ db: Database, _ digest: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM digest WHERE id = ?)", arguments: [digest]) ?? false
    }

    static func conference(_ row: Row) -> ConferenceSummary {
        ConferenceSummary(id: row["conferenceID"], abbr: row["abbr"], description: row["description"], year: row["year"],
                          issueDate: row["issueDate"], publication: row["publication"], talkCount: row["talkCount"])
    }

    static func talk(_ row: Row) -> TalkSummary {
        let start: Int? = row["startPage"]
        return TalkSummary(id: row["talkID"], title: row["title"], speaker: row["speaker"], speakerID: row["speakerID"],
                           pages: start.map { PageRange(start: $0, end: row["endPage"]) })
    }

    /// The conference's talks grouped by session, as `CoreQueries.sessions` groups them.
    static func sessions(_ db: Database, digest: Int64, conferenceID: Int) throws -> [SessionSection] {
        var sections: [SessionSection] = []
        var session: Row?
        var talks: [TalkSummary] = []
        func close() {
            if let session, !talks.isEmpty {
                sections.append(SessionSection(id: session["sessionID"], description: session["sessionDescription"],
                                               date: session["sessionDate"], sequence: session["sessionSequence"], talks: talks))
            }
            talks = []
        }
        for row in try Row.fetchAll(db, sql: "\(talkColumns) WHERE digestID = ? AND conferenceKey = ? ORDER BY position",
                                    arguments: [digest, conferenceID]) {
            let sessionID: Int = row["sessionID"]
            if session.map({ $0["sessionID"] as Int }) != sessionID {
                close()
                session = row
            }
            talks.append(talk(row))
        }
        close()
        return sections
    }
}
