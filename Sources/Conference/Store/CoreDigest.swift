import GRDB

/// The counts and orderings of one sci-core file that cannot change once it is installed, kept in
/// Pocket's own database under one digest id per file: the table sizes, the conference list with
/// its talk counts, every conference's talks in session order, the speakers A–Z with their talk
/// counts, the citation index's volumes and books, and each book's chapters with citation counts.
///
/// The downloaded file lacks indexes on `conference_talk(SessionID)` and `speaker(ID)`, and Pocket
/// never writes into it, so computed on every visit these cost time that follows the size of the
/// whole file: a conference's talks scan every `conference_talk` row, the speakers screen counts
/// every talk, the citation index counts every citation. Computed once when the file is installed
/// (or first opened, for a file installed before digests existed), they are read back through the
/// digest tables' primary keys in time that follows what the screen shows.
///
/// The digest is made by the screens' own queries (`CoreQueries`), run once over the whole file,
/// so each screen reads the same answer it would compute directly. The exception is each
/// conference's talk list, ten thousand rows that are built in one SQL statement, with text tidied
/// in SQL exactly as the search index tidies it.
enum CoreDigest {
    /// Builds the digest of `core` (attached to `db`) and returns its id; nil `fileName` marks it
    /// as staged for an install that is still being checked. Runs inside the caller's transaction.
    static func build(_ db: Database, from core: SearchIndexBuilder.AttachedCore, fileName: String?) throws -> Int64 {
        let schema = core.schema
        let counts = try CoreQueries.counts(db, schema: schema)
        try db.execute(sql: """
            INSERT INTO digest(fileName, conferences, sessions, talks, speakers, citations) VALUES (?, ?, ?, ?, ?, ?)
            """, arguments: [fileName, counts.conferences, counts.sessions, counts.talks, counts.speakers, counts.citations])
        let id = db.lastInsertedRowID
        try addConferences(db, digest: id, schema: schema)
        try addTalks(db, digest: id, core: core)
        try addSpeakers(db, digest: id, schema: schema)
        if schema.capabilities.citations {
            try addCitations(db, digest: id, core: core)
        }
        return id
    }

    /// Deletes the digests `condition` selects (an SQL expression on `digest`), with their rows.
    static func delete(_ db: Database, where condition: String, arguments: StatementArguments = []) throws {
        let ids = try Int64.fetchAll(db, sql: "SELECT id FROM digest WHERE \(condition)", arguments: arguments)
        for id in ids {
            for table in tables {
                try db.execute(sql: "DELETE FROM \(table) WHERE digestID = ?", arguments: [id])
            }
            try db.execute(sql: "DELETE FROM digest WHERE id = ?", arguments: [id])
        }
    }

    /// The tables holding a digest's rows.
    static let tables = ["digest_conference", "digest_talk", "digest_speaker", "digest_book", "digest_chapter"]

    /// Creates the digest tables (the state database's third migration).
    static func createTables(_ db: Database) throws {
        // Ids that the direct queries compare with a screen's integer (`conferenceKey`, `bookKey`)
        // are kept as the file stores them, in columns without a type, so they compare exactly as
        // the file's own columns do.
        try db.execute(sql: """
            CREATE TABLE digest(
                id INTEGER PRIMARY KEY,
                fileName TEXT UNIQUE,
                conferences INTEGER NOT NULL,
                sessions INTEGER NOT NULL,
                talks INTEGER NOT NULL,
                speakers INTEGER NOT NULL,
                citations INTEGER NOT NULL
            );
            CREATE TABLE digest_conference(
                digestID INTEGER NOT NULL,
                position INTEGER NOT NULL,
                conferenceID INTEGER NOT NULL,
                abbr TEXT NOT NULL,
                description TEXT NOT NULL,
                year INTEGER,
                issueDate TEXT,
                publication TEXT,
                talkCount INTEGER NOT NULL,
                PRIMARY KEY(digestID, position)
            ) WITHOUT ROWID;
            CREATE INDEX digest_conference_by_id ON digest_conference(digestID, conferenceID);
            CREATE TABLE digest_talk(
                digestID INTEGER NOT NULL,
                conferenceKey NOT NULL,
                position INTEGER NOT NULL,
                sessionID INTEGER NOT NULL,
                sessionDescription TEXT NOT NULL,
                sessionDate TEXT,
                sessionSequence INTEGER NOT NULL,
                talkID INTEGER NOT NULL,
                title TEXT NOT NULL,
                speaker TEXT NOT NULL,
                speakerID INTEGER,
                startPage INTEGER,
                endPage INTEGER,
                PRIMARY KEY(digestID, conferenceKey, position)
            ) WITHOUT ROWID;
            CREATE TABLE digest_speaker(
                digestID INTEGER NOT NULL,
                position INTEGER NOT NULL,
                section INTEGER NOT NULL,
                letter TEXT NOT NULL,
                speakerID INTEGER NOT NULL,
                name TEXT NOT NULL,
                info TEXT,
                talkCount INTEGER NOT NULL,
                PRIMARY KEY(digestID, position)
            ) WITHOUT ROWID;
            CREATE TABLE digest_book(
                digestID INTEGER NOT NULL,
                position INTEGER NOT NULL,
                isVolume INTEGER NOT NULL,
                bookID INTEGER NOT NULL,
                name TEXT NOT NULL,
                citeAbbr TEXT NOT NULL,
                chapterCount INTEGER NOT NULL,
                citationCount INTEGER NOT NULL,
                PRIMARY KEY(digestID, position)
            ) WITHOUT ROWID;
            CREATE TABLE digest_chapter(
                digestID INTEGER NOT NULL,
                bookKey NOT NULL,
                position INTEGER NOT NULL,
                chapter INTEGER NOT NULL,
                citationCount INTEGER NOT NULL,
                PRIMARY KEY(digestID, bookKey, position)
            ) WITHOUT ROWID;
            """)
    }
}

// MARK: - Private

private extension CoreDigest {
    static func addConferences(_ db: Database, digest: Int64, schema: CoreSchema) throws {
        let insert = try db.makeStatement(sql: """
            INSERT INTO digest_conference(digestID, position, conferenceID, abbr, description, year, issueDate, publication, talkCount)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (position, conference) in try CoreQueries.conferences(db, schema: schema).enumerated() {
            try insert.execute(arguments: [digest, position, conference.id, conference.abbr, conference.description, conference.year,
                                           conference.issueDate, conference.publication, conference.talkCount])
        }
    }

    /// Every conference's talks in the order `CoreQueries.sessions` lists them: by session, then
    /// talk sequence, each talk once, only talks that exist in sessions with an id.
    static func addTalks(_ db: Database, digest: Int64, core: SearchIndexBuilder.AttachedCore) throws {
        let schema = core.schema, name = core.name
        let order = "s.Sequence, s.ID, ct.Sequence, t.ID"
        try db.execute(sql: """
            INSERT INTO digest_talk(digestID, conferenceKey, position, sessionID, sessionDescription, sessionDate, sessionSequence,
                                    talkID, title, speaker, speakerID, startPage, endPage)
            SELECT ?, conferenceKey, row_number() OVER (PARTITION BY conferenceKey ORDER BY rank) - 1,
                   sessionID, sessionDescription, sessionDate, sessionSequence, talkID, title, speaker, speakerID, startPage, endPage
            FROM (
                SELECT s.ConferenceID AS conferenceKey,
                       \(core.integer("s.ID")) AS sessionID,
                       \(core.clean("s.Description")) AS sessionDescription,
                       nullif(\(core.clean(schema.column("conf_session", "Date", as: "s"))), '') AS sessionDate,
                       coalesce(\(core.integer("s.Sequence")), 0) AS sessionSequence,
                       \(core.integer("t.ID")) AS talkID,
                       \(core.clean("t.Title")) AS title,
                       \(core.personName(given: "sp.GivenNames", last: "sp.LastNames")) AS speaker,
                       \(core.integer("sp.ID")) AS speakerID,
                       \(core.integer(schema.column("conference_talk", "StartPageNum", as: "ct"))) AS startPage,
                       \(core.integer(schema.column("conference_talk", "EndPageNum", as: "ct"))) AS endPage,
                       row_number() OVER (PARTITION BY s.ConferenceID ORDER BY \(order)) AS rank,
                       row_number() OVER (PARTITION BY s.ConferenceID, \(core.integer("t.ID")) ORDER BY \(order)) AS copy
                FROM \(name).conf_session s
                JOIN \(name).conference_talk ct ON ct.SessionID = s.ID
                JOIN \(name).talk t ON t.ID = ct.TalkID
                LEFT JOIN \(name).speaker sp ON sp.ID = t.SpeakerID
                WHERE s.ConferenceID IS NOT NULL
            )
            -- The first row of each talk (a speaker listed twice joins twice), then only talks and sessions with ids.
            WHERE copy = 1 AND talkID IS NOT NULL AND sessionID IS NOT NULL
            """, arguments: [digest])
    }

    static func addSpeakers(_ db: Database, digest: Int64, schema: CoreSchema) throws {
        let insert = try db.makeStatement(sql: """
            INSERT INTO digest_speaker(digestID, position, section, letter, speakerID, name, info, talkCount) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        var position = 0
        for (section, letter) in try CoreQueries.speakers(db, schema: schema).enumerated() {
            for speaker in letter.speakers {
                try insert.execute(arguments: [digest, position, section, letter.letter, speaker.id, speaker.name, speaker.info, speaker.talkCount])
                position += 1
            }
        }
    }

    /// Each book's chapters with their citation counts, then the volumes screen from those counts
    /// (one pass over `citation` for both).
    static func addCitations(_ db: Database, digest: Int64, core: SearchIndexBuilder.AttachedCore) throws {
        try db.execute(sql: """
            INSERT INTO digest_chapter(digestID, bookKey, position, chapter, citationCount)
            SELECT ?, BookID, row_number() OVER (PARTITION BY BookID ORDER BY Chapter) - 1, coalesce(\(core.integer("Chapter")), 0), COUNT(*)
            FROM \(core.name).citation
            WHERE BookID IS NOT NULL
            GROUP BY BookID, Chapter
            """, arguments: [digest])
        let counts = "SELECT bookKey AS BookID, SUM(citationCount) AS citationCount FROM main.digest_chapter WHERE digestID = \(digest) GROUP BY bookKey"
        let insert = try db.makeStatement(sql: """
            INSERT INTO digest_book(digestID, position, isVolume, bookID, name, citeAbbr, chapterCount, citationCount) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        var position = 0
        for volume in try CoreQueries.volumes(db, schema: core.schema, counts: counts) {
            for (book, count, isVolume) in [(volume.volume, volume.citationCount, true)] + volume.books.map({ ($0.book, $0.citationCount, false) }) {
                try insert.execute(arguments: [digest, position, isVolume, book.id, book.name, book.citeAbbr, book.chapterCount, count])
                position += 1
            }
        }
    }
}
