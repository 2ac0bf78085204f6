import Foundation
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
/// The small lists are made by the screens' own queries (`CoreQueries`), run once over the whole
/// file, so each screen reads the same answer it would compute directly. Each conference's talk
/// order, ten thousand rows, is kept as ids only, in one SQL statement: the screens read the
/// talks themselves from the file by primary key.
enum CoreDigest {
    /// The digest's lists other than the talk order, computed from a sci-core file; small (a few
    /// thousand rows), so an install computes them on a connection of its own, beside the search
    /// index and `quick_check`.
    struct Lists: Sendable {
        let counts: DatabaseCounts
        let conferences: [ConferenceSummary]
        let speakers: [SpeakerSection]
        /// Nil when the file has no citation index.
        let volumes: [VolumeCitations]?
        /// Each book's chapters with their counts, by `citation.BookID` as stored.
        let chapters: [(book: DatabaseValue, chapters: [ChapterCount])]

        /// Reads the lists from `db`, a sci-core file (opened alone, or attached without a clash of table names).
        static func read(_ db: Database, schema: CoreSchema) throws -> Lists {
            var chapters: [(book: DatabaseValue, chapters: [ChapterCount])] = []
            if schema.capabilities.citations {
                // The same grouping `CoreQueries.book` counts one book with, for every book in one pass.
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT BookID, Chapter, COUNT(*) AS citationCount FROM citation WHERE BookID IS NOT NULL GROUP BY BookID, Chapter
                    ORDER BY BookID, Chapter
                    """)
                while let row = try rows.next() {
                    let book: DatabaseValue = row["BookID"]
                    let count = ChapterCount(chapter: row.integer("Chapter") ?? 0, citationCount: row.integer("citationCount") ?? 0)
                    if chapters.last?.book == book {
                        chapters[chapters.count - 1].chapters.append(count)
                    } else {
                        chapters.append((book, [count]))
                    }
                }
            }
            var volumes: [VolumeCitations]?
            if schema.capabilities.citations {
                // Each book's count is the sum of its chapters' (grouped by the same BookID values).
                let sums = chapters.map { ($0.book, $0.chapters.reduce(0) { $0 + $1.citationCount }) }
                let values = sums.isEmpty ? "SELECT NULL AS BookID, 0 AS citationCount WHERE 0"
                    : "SELECT column1 AS BookID, column2 AS citationCount FROM (VALUES "
                        + Array(repeating: "(?, ?)", count: sums.count).joined(separator: ", ") + ")"
                volumes = try CoreQueries.volumes(db, schema: schema, counts: values,
                                                  arguments: StatementArguments(sums.flatMap { [$0.0, $0.1.databaseValue] }))
            }
            return Lists(counts: try CoreQueries.counts(db, schema: schema),
                         conferences: try CoreQueries.conferences(db, schema: schema),
                         speakers: try CoreQueries.speakers(db, schema: schema),
                         volumes: volumes,
                         chapters: chapters)
        }
    }

    /// Starts the digest of `core` (attached to `db`) with its talk order and returns its id;
    /// nil `fileName` marks it as staged for an install that is still being checked. `complete`
    /// adds the lists. Runs inside the caller's transaction.
    static func begin(_ db: Database, from core: SearchIndexBuilder.AttachedCore, fileName: String?) throws -> Int64 {
        try db.execute(sql: """
            INSERT INTO digest(fileName, conferences, sessions, talks, speakers, citations) VALUES (?, 0, 0, 0, 0, 0)
            """, arguments: [fileName])
        let id = db.lastInsertedRowID
        try addTalkOrder(db, digest: id, core: core)
        return id
    }

    /// Adds `lists` to the digest `begin` started.
    static func complete(_ db: Database, digest: Int64, lists: Lists) throws {
        let counts = lists.counts
        try db.execute(sql: "UPDATE digest SET conferences = ?, sessions = ?, talks = ?, speakers = ?, citations = ? WHERE id = ?",
                       arguments: [counts.conferences, counts.sessions, counts.talks, counts.speakers, counts.citations, digest])
        try add(lists, to: db, digest: digest)
    }

    /// Reads the lists of `file` through a connection of its own, with a small page cache: one pass
    /// over the tables, during an install.
    static func readLists(of file: URL, schema: CoreSchema) async throws -> Lists {
        var configuration = Configuration()
        configuration.label = "conference-digest"
        configuration.readonly = true
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -512") }
        let queue = try DatabaseQueue(path: file.path, configuration: configuration)
        defer { try? queue.close() }
        return try await queue.read { db in try Lists.read(db, schema: schema) }
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
                talkID INTEGER NOT NULL,
                talkKey NOT NULL,
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
    static func add(_ lists: Lists, to db: Database, digest: Int64) throws {
        let conference = try db.makeStatement(sql: """
            INSERT INTO digest_conference(digestID, position, conferenceID, abbr, description, year, issueDate, publication, talkCount)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (position, row) in lists.conferences.enumerated() {
            try conference.execute(arguments: [digest, position, row.id, row.abbr, row.description, row.year, row.issueDate,
                                               row.publication, row.talkCount])
        }
        let speaker = try db.makeStatement(sql: """
            INSERT INTO digest_speaker(digestID, position, section, letter, speakerID, name, info, talkCount) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        var position = 0
        for (section, letter) in lists.speakers.enumerated() {
            for row in letter.speakers {
                try speaker.execute(arguments: [digest, position, section, letter.letter, row.id, row.name, row.info, row.talkCount])
                position += 1
            }
        }
        let book = try db.makeStatement(sql: """
            INSERT INTO digest_book(digestID, position, isVolume, bookID, name, citeAbbr, chapterCount, citationCount) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        position = 0
        for volume in lists.volumes ?? [] {
            for (reference, count, isVolume) in [(volume.volume, volume.citationCount, true)] + volume.books.map({ ($0.book, $0.citationCount, false) }) {
                try book.execute(arguments: [digest, position, isVolume, reference.id, reference.name, reference.citeAbbr,
                                             reference.chapterCount, count])
                position += 1
            }
        }
        let chapter = try db.makeStatement(sql: """
            INSERT INTO digest_chapter(digestID, bookKey, position, chapter, citationCount) VALUES (?, ?, ?, ?, ?)
            """)
        for (key, chapters) in lists.chapters {
            for (position, row) in chapters.enumerated() {
                try chapter.execute(arguments: [digest, key, position, row.chapter, row.citationCount])
            }
        }
    }

    /// Every conference's talks in the order `CoreQueries.sessions` lists them (by session, then
    /// talk sequence; each talk once; only talks and sessions with ids), as ids: the session's,
    /// and the talk's, read leniently and as stored.
    static func addTalkOrder(_ db: Database, digest: Int64, core: SearchIndexBuilder.AttachedCore) throws {
        let name = core.name
        let order = "s.Sequence, s.ID, ct.Sequence, t.ID"
        let rows = """
            FROM \(name).conf_session s
            JOIN \(name).conference_talk ct ON ct.SessionID = s.ID
            JOIN \(name).talk t ON t.ID = ct.TalkID
            WHERE s.ConferenceID IS NOT NULL
            """
        // With talk and conference_talk keyed by the talk, each talk joins once: one sort. Otherwise
        // a second numbering keeps each talk's first row, as the screens' query does.
        let unique = try hasUniqueKey(db, core: core, table: "talk", column: "ID")
            && hasUniqueKey(db, core: core, table: "conference_talk", column: "TalkID")
        let sql = unique ? """
            INSERT INTO digest_talk(digestID, conferenceKey, position, sessionID, talkID, talkKey)
            SELECT ?, s.ConferenceID, row_number() OVER (PARTITION BY s.ConferenceID ORDER BY \(order)) - 1,
                   \(core.integer("s.ID")), \(core.integer("t.ID")), t.ID
            \(rows) AND \(core.integer("s.ID")) IS NOT NULL AND \(core.integer("t.ID")) IS NOT NULL
            """ : """
            INSERT INTO digest_talk(digestID, conferenceKey, position, sessionID, talkID, talkKey)
            SELECT ?, conferenceKey, row_number() OVER (PARTITION BY conferenceKey ORDER BY rank) - 1, sessionID, talkID, talkKey
            FROM (
                SELECT s.ConferenceID AS conferenceKey, \(core.integer("s.ID")) AS sessionID, \(core.integer("t.ID")) AS talkID,
                       t.ID AS talkKey, row_number() OVER (PARTITION BY s.ConferenceID ORDER BY \(order)) AS rank,
                       row_number() OVER (PARTITION BY s.ConferenceID, \(core.integer("t.ID")) ORDER BY \(order)) AS copy
                \(rows)
            )
            WHERE copy = 1 AND talkID IS NOT NULL AND sessionID IS NOT NULL
            """
        try db.execute(sql: sql, arguments: [digest])
    }

    /// Whether the attached file's `table` has a unique index on `column` alone.
    static func hasUniqueKey(_ db: Database, core: SearchIndexBuilder.AttachedCore, table: String, column: String) throws -> Bool {
        for index in try Row.fetchAll(db, sql: "PRAGMA \(core.name).index_list(\(table.quotedDatabaseIdentifier))") {
            guard (index["unique"] as Int?) == 1, let indexName = index["name"] as String? else { continue }
            let columns = try Row.fetchAll(db, sql: "PRAGMA \(core.name).index_info(\(indexName.quotedDatabaseIdentifier))")
                .compactMap { $0["name"] as String? }
            if columns.count == 1, columns[0].lowercased() == column.lowercased() { return true }
        }
        return false
    }
}
