import Foundation
import GRDB
import PocketCore

/// Pocket's own database for the Conference app: which sci-core file is installed, the search
/// index and the digest (`CoreDigest`) of it, and each person's recently viewed and bookmarked
/// talks. The downloaded file itself is never written.
struct ConferenceStateDatabase: Sendable {
    /// Its file in the library's folder.
    static let fileName = "state.sqlite"
    /// Its pool; reads go to the pool's readers, writes to its one writer.
    let writer: any DatabaseWriter
    /// The install record as last read, with the file's commit version then: every query asks
    /// which file is installed (another process may have installed one), and the answer changes
    /// only with a commit.
    /// On disk only: an in-memory database has no second connection to watch it.
    private let installedRecord: CommitCache<Int, InstalledDatabase?>
    /// Each person's recent and bookmarked talk ids, which the conference list shows on every
    /// visit, kept the same way.
    private let personTalks: CommitCache<PersonTalks, [Int]>

    private enum PersonTalks: Hashable {
        case recent(PersonID)
        case bookmarked(PersonID)
    }

    /// How many recently opened talks are remembered per person.
    static let keptRecentTalks = 50

    /// Opens (and migrates) the state database at `url`, its memo passed through if `caches` says so.
    static func onDisk(at url: URL, caches: Caches = .all) throws -> ConferenceStateDatabase {
        let writer = try DatabaseFactory.onDisk(at: url, label: "conference-state")
        return try ConferenceStateDatabase(writer: writer,
                                           watch: caches.watch(CommitWatch(path: url.path, label: "conference-state.watch"), for: .conferenceStateMemo))
    }

    init(writer: any DatabaseWriter, watch: CommitWatch? = nil) throws {
        self.writer = writer
        installedRecord = CommitCache(watch: watch, capacity: 1)
        personTalks = CommitCache(watch: watch, capacity: 256)
        try Self.migrator.migrate(writer)
    }

    /// Migrates only up to `identifier`, leaving a database as an older release wrote it (tests).
    static func migrate(_ writer: any DatabaseWriter, upTo identifier: String) throws {
        try migrator.migrate(writer, upTo: identifier)
    }

    /// The installed database's record; nil while the sample is in use.
    func installed() async throws -> InstalledDatabase? {
        try await installedRecord.value(for: 1) { try await readInstalled() }
    }

    private func readInstalled() async throws -> InstalledDatabase? {
        try await writer.read { db in
            try Row.fetchOne(cached: db, sql: "SELECT * FROM installed_database WHERE id = 1").map(InstalledDatabase.init(row:))
        }
    }

    /// The install record in the state file at `url`, read without migrating or writing it; nil when it has none.
    static func installedRecord(readingOnly url: URL) async throws -> InstalledDatabase? {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "conference-state-read"
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try await queue.read { db in
            guard try db.tableExists("installed_database") else { return nil }
            return try Row.fetchOne(db, sql: "SELECT * FROM installed_database WHERE id = 1").map(InstalledDatabase.init(row:))
        }
    }

    /// Makes `record` the install record, with no digest but one of its file (the next open
    /// builds it): for a restored folder taking the database installed in the folder it replaces.
    func adoptInstalled(_ record: InstalledDatabase) async throws {
        try await writer.write { db in
            try Self.record(record, in: db)
            try CoreDigest.delete(db, where: "fileName IS NULL OR fileName != ?", arguments: [record.fileName])
        }
    }

    /// Forgets the install record if it still names `fileName`, a file that cannot be opened, so
    /// the sample is current (the search index follows it, as it follows any file made current:
    /// `buildSearch`). A record naming another file was committed by an install since, and stays.
    func forgetInstalled(fileName: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM installed_database WHERE fileName = ?", arguments: [fileName])
        }
    }

    /// Fills a staged digest from `file`, a database that is still being checked; the current one
    /// keeps answering until `install` swaps the staged one in.
    ///
    /// The digest's lists are read on a connection of their own while this database's one writer
    /// fills the talk order, so an install keeps both cores busy (the third job, `quick_check`,
    /// runs beside them). The search index is not part of it: it is built for the file once the
    /// file is current (`buildSearch`), off the install's path.
    func stage(from file: URL, schema: CoreSchema) async throws {
        async let lists = CoreDigest.readLists(of: file, schema: schema)
        let digest = try await writer.writeWithoutTransaction { db in
            try SearchIndexBuilder.attaching(file, schema: schema, to: db) { core in
                var digest: Int64 = 0
                try db.inTransaction {
                    // An install by an earlier release, stopped while checking, may have left its staged index.
                    try db.execute(sql: "DROP TABLE IF EXISTS \(Self.earlierStagedSearchTable)")
                    try CoreDigest.delete(db, where: "fileName IS NULL")
                    digest = try CoreDigest.begin(db, from: core, fileName: nil)
                    return .commit
                }
                return digest
            }
        }
        let read = try await lists
        try await writer.write { db in try CoreDigest.complete(db, digest: digest, lists: read) }
    }

    /// Makes `record` current with the digest `stage` built for it, in one transaction: the staged
    /// digest takes the file's name, so the swap costs no rebuild. The search index still describes
    /// the previous file until `buildSearch` replaces it, and searches know it by its source.
    /// Returns the digest's id.
    func install(_ record: InstalledDatabase) async throws -> Int64 {
        try await writer.write { db in
            guard let digest = try Int64.fetchOne(cached: db, sql: "SELECT id FROM digest WHERE fileName IS NULL") else {
                throw ConferenceError.fileSystem("the digest of version \(record.version) was not built")
            }
            try Self.record(record, in: db)
            // A process still answering from the previous file finds its digest gone and reads the file itself.
            try CoreDigest.delete(db, where: "id != ?", arguments: [digest])
            try db.execute(sql: "UPDATE digest SET fileName = ? WHERE id = ?", arguments: [record.fileName, digest])
            return digest
        }
    }

    /// Drops a staged digest that will not be installed (and a staged search index an install by
    /// an earlier release may have left).
    func discardStaged() async throws {
        try await writer.write { db in
            try db.execute(sql: "DROP TABLE IF EXISTS \(Self.earlierStagedSearchTable)")
            try CoreDigest.delete(db, where: "fileName IS NULL")
        }
    }

    /// Builds the search index of `generation`'s file, unless it describes that file already
    /// (another process may have built it meanwhile).
    func buildSearch(for generation: CoreGeneration) async throws {
        let fileName = generation.file.lastPathComponent
        try await writer.writeWithoutTransaction { db in
            guard try Self.searchSource(db) != fileName else { return }
            try SearchIndexBuilder.attaching(generation.file, schema: generation.schema, to: db) { core in
                try db.inTransaction {
                    // Looked at again inside the transaction: another process commits its build whole or not at all.
                    if try Self.searchSource(db) != fileName { try Self.rebuildSearch(db, from: core, sourceFile: fileName) }
                    return .commit
                }
            }
        }
    }

    /// Talks whose title or speaker have words starting with each typed word, best first; nil
    /// when the index describes another file than `fileName` (it is built after an install).
    func search(_ text: String, limit: Int, in fileName: String) async throws -> [SearchHit]? {
        guard let match = Self.matchExpression(text), limit > 0 else { return [] }
        return try await writer.read { db in
            guard try Self.searchSource(db) == fileName else { return nil }
            return try Row.fetchAll(cached: db, sql: """
                SELECT talkID, title, speaker, conference, date FROM talk_search
                WHERE talk_search MATCH ?
                ORDER BY bm25(talk_search, 10.0, 4.0), date DESC, talkID DESC
                LIMIT ?
                """, arguments: [match, limit]).compactMap { row in
                guard let id = row.integer("talkID") else { return nil }
                return SearchHit(id: id, title: row.text("title") ?? "", speaker: row.text("speaker") ?? "",
                                 conference: row.text("conference"), date: row.text("date"))
            }
        }
    }

    /// Remembers that `person` opened a talk (keeping their newest `keptRecentTalks`).
    func recordView(talkID: Int, by person: PersonID, at date: Date) async throws {
        // Opening the talk already viewed last (a reload, a return from its text) changes no
        // order: no write, which would wait for the writer and make every kept answer of this
        // file's `CommitWatch` stale. The kept list the conference screen shows says which it is.
        if try await recentTalkIDs(of: person).first == talkID { return }
        try await writer.write { db in
            // Times are stored to the millisecond: two views within one must still come out in
            // the order they happened, so a view is never older than the latest one.
            let latest = try Date.fetchOne(cached: db, sql: "SELECT MAX(viewedAt) FROM recent_talk WHERE personID = ?", arguments: [person.rawValue])
            let stamp = latest.map { max(date, $0.addingTimeInterval(0.001)) } ?? date
            try db.execute(sql: """
                INSERT INTO recent_talk(personID, talkID, viewedAt) VALUES (?, ?, ?)
                ON CONFLICT(personID, talkID) DO UPDATE SET viewedAt = excluded.viewedAt
                """, arguments: [person.rawValue, talkID, stamp])
            try db.execute(sql: """
                DELETE FROM recent_talk WHERE personID = ?1 AND talkID NOT IN
                    (SELECT talkID FROM recent_talk WHERE personID = ?1 ORDER BY viewedAt DESC, talkID DESC LIMIT ?2)
                """, arguments: [person.rawValue, Self.keptRecentTalks])
        }
    }

    /// The talks `person` opened recently (all that are remembered), newest first.
    func recentTalkIDs(of person: PersonID) async throws -> [Int] {
        try await personTalks.value(for: .recent(person)) { try await readRecentTalkIDs(of: person) }
    }

    private func readRecentTalkIDs(of person: PersonID) async throws -> [Int] {
        try await writer.read { db in
            try Int.fetchAll(cached: db, sql: "SELECT talkID FROM recent_talk WHERE personID = ? ORDER BY viewedAt DESC, talkID DESC LIMIT ?",
                             arguments: [person.rawValue, Self.keptRecentTalks])
        }
    }

    /// Whether `person` has bookmarked the talk, from the kept list of their bookmarks (every talk
    /// page asks).
    func isBookmarked(talkID: Int, by person: PersonID) async throws -> Bool {
        try await bookmarkedTalkIDs(of: person).contains(talkID)
    }

    /// The talks `person` bookmarked, newest first.
    func bookmarkedTalkIDs(of person: PersonID) async throws -> [Int] {
        try await personTalks.value(for: .bookmarked(person)) { try await readBookmarkedTalkIDs(of: person) }
    }

    /// `"word"*` for each word typed (letters and digits), all required: "holl chi" finds
    /// "As a Little Child" by Holland. Nil when nothing searchable was typed.
    static func matchExpression(_ text: String) -> String? {
        let words = text.split { !($0.isLetter || $0.isNumber) }.prefix(8)
        guard !words.isEmpty else { return nil }
        return words.map { "\"\($0)\"*" }.joined(separator: " ")
    }
}

extension ConferenceStateDatabase {
    /// A date as GRDB stores one ("yyyy-MM-dd HH:mm:ss.SSS", UTC), written without the
    /// `DateFormatter` GRDB uses, which maps in megabytes of ICU for one timestamp per install.
    static func storedDate(_ date: Date) -> DatabaseDateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        var components = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        // Whole milliseconds, so GRDB's rounding can never write ".1000".
        components.nanosecond = (components.nanosecond ?? 0) / 1_000_000 * 1_000_000
        return DatabaseDateComponents(components, format: .YMD_HMSS)
    }
}

// MARK: - Private

private extension ConferenceStateDatabase {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: installed database, search index, recent talks") { db in
            try db.execute(sql: """
                CREATE TABLE installed_database(
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    version TEXT NOT NULL,
                    contentName TEXT NOT NULL,
                    contentSize INTEGER NOT NULL,
                    contentMD5 TEXT NOT NULL,
                    origin TEXT NOT NULL,
                    installedAt DATETIME NOT NULL,
                    fileName TEXT NOT NULL
                );
                CREATE TABLE search_source(id INTEGER PRIMARY KEY CHECK (id = 1), fileName TEXT NOT NULL);
                CREATE VIRTUAL TABLE talk_search USING fts5(
                    title, speaker, conference UNINDEXED, date UNINDEXED, talkID UNINDEXED,
                    tokenize = 'unicode61 remove_diacritics 2'
                );
                CREATE TABLE recent_talk(talkID INTEGER PRIMARY KEY, viewedAt DATETIME NOT NULL);
                """)
        }
        // Recent talks become a person's: the single user before people were added is the first owner.
        migrator.registerMigration("v2: recent talks per person, bookmarks") { db in
            try db.execute(sql: """
                CREATE TABLE recent_talk_new(
                    personID INTEGER NOT NULL,
                    talkID INTEGER NOT NULL,
                    viewedAt DATETIME NOT NULL,
                    PRIMARY KEY(personID, talkID)
                );
                INSERT INTO recent_talk_new(personID, talkID, viewedAt) SELECT ?, talkID, viewedAt FROM recent_talk;
                DROP TABLE recent_talk;
                ALTER TABLE recent_talk_new RENAME TO recent_talk;
                CREATE INDEX recent_talk_by_person ON recent_talk(personID, viewedAt);
                CREATE TABLE bookmark(
                    personID INTEGER NOT NULL,
                    talkID INTEGER NOT NULL,
                    addedAt DATETIME NOT NULL,
                    PRIMARY KEY(personID, talkID)
                );
                """, arguments: [PersonID.firstOwner.rawValue])
        }
        // Empty at first: a data folder from before is given the digest of its database when it is next opened.
        migrator.registerMigration("v3: digests of sci-core files") { db in
            try CoreDigest.createTables(db)
        }
        // Talk texts fetched from their source, kept so a talk reads offline and is fetched only once.
        migrator.registerMigration("v4: stored talk texts") { db in
            try db.execute(sql: """
                CREATE TABLE talk_text(
                    talkID INTEGER PRIMARY KEY,
                    html TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    source TEXT NOT NULL,
                    fetchedAt DATETIME NOT NULL
                );
                """)
        }
        // Bookmarks changed on phones, possibly offline: which change last decided each talk's
        // bookmark (its time in milliseconds), and the change ids seen. Existing bookmarks get no
        // decision, which counts as decided at time 0: any change wins.
        migrator.registerMigration("v5: bookmark changes from the outbox") { db in
            try db.execute(sql: """
                CREATE TABLE bookmark_decision(
                    personID INTEGER NOT NULL,
                    talkID INTEGER NOT NULL,
                    at INTEGER NOT NULL,
                    changeID TEXT NOT NULL,
                    PRIMARY KEY(personID, talkID)
                );
                CREATE TABLE bookmark_change_seen(
                    personID INTEGER NOT NULL,
                    changeID TEXT NOT NULL,
                    PRIMARY KEY(personID, changeID)
                );
                """)
        }
        // An import once took times up to the year 10000, and every un-bookmark after such a
        // bookmark was "superseded" (and such a view stayed first among recent talks); see
        // `ChangeTime.repairTimesAhead`.
        migrator.registerMigration("v6: bookmark and view times ahead of the clock brought back") { db in
            let now = Date()
            try ChangeTime.repairTimesAhead(db, table: "bookmark_decision", columns: ["at"], now: now)
            try ChangeTime.repairDatesAhead(db, table: "bookmark", columns: ["addedAt"], now: now)
            try ChangeTime.repairDatesAhead(db, table: "recent_talk", columns: ["viewedAt"], now: now)
        }
        // Bookmarks become the toggle Murals' stars also are (`ToggleTables`): one shape, keyed by
        // `itemID`, a bookmark's time in milliseconds since 1970 like the stars' (it was a date;
        // one unreadable counts as 1970, the oldest). Written out here rather than by
        // `ToggleTables`, so this migration stays as it ran.
        migrator.registerMigration("v7: bookmarks as the shared toggle's tables") { db in
            try db.execute(sql: """
                CREATE TABLE bookmark_v7(
                    personID INTEGER NOT NULL,
                    itemID INTEGER NOT NULL,
                    addedAt INTEGER NOT NULL,
                    PRIMARY KEY(personID, itemID)
                );
                INSERT INTO bookmark_v7(personID, itemID, addedAt)
                    SELECT personID, talkID, COALESCE(CAST(ROUND((julianday(addedAt) - 2440587.5) * 86400000.0) AS INTEGER), 0)
                    FROM bookmark;
                DROP TABLE bookmark;
                ALTER TABLE bookmark_v7 RENAME TO bookmark;
                ALTER TABLE bookmark_decision RENAME COLUMN talkID TO itemID;
                """)
        }
        return migrator
    }

    /// Refills the index from the attached sci-core file in one statement, inside SQLite: no row
    /// of it passes through Swift unless its text has an entity to decode. The table is made anew
    /// rather than emptied: FTS5 deletes row by row, reading each one's words back.
    static func rebuildSearch(_ db: Database, from core: SearchIndexBuilder.AttachedCore, sourceFile: String) throws {
        try db.execute(sql: "DROP TABLE IF EXISTS talk_search")
        try db.execute(sql: "CREATE VIRTUAL TABLE talk_search USING fts5(\(searchTableColumns))")
        try db.execute(sql: "INSERT INTO talk_search(title, speaker, conference, date, talkID) " + core.selectSearchRows)
        try recordSearchSource(sourceFile, in: db)
    }

    /// The file the search index was built from.
    static func searchSource(_ db: Database) throws -> String? {
        try String.fetchOne(cached: db, sql: "SELECT fileName FROM search_source WHERE id = 1")
    }

    /// The search index's columns and tokenizer, as the first migration created `talk_search`.
    static let searchTableColumns = "title, speaker, conference UNINDEXED, date UNINDEXED, talkID UNINDEXED, tokenize = 'unicode61 remove_diacritics 2'"

    /// Where installs before the search index was built after them staged the next index.
    static let earlierStagedSearchTable = "talk_search_staged"

    /// Replaces the install record (nil: the sample is in use).
    static func record(_ record: InstalledDatabase?, in db: Database) throws {
        try db.execute(sql: "DELETE FROM installed_database")
        guard let record else { return }
        try db.execute(sql: """
            INSERT INTO installed_database(id, version, contentName, contentSize, contentMD5, origin, installedAt, fileName)
            VALUES (1, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [record.version, record.contentName, record.contentSize, record.contentMD5,
                             record.origin.rawValue, storedDate(record.installedAt), record.fileName])
    }

    static func recordSearchSource(_ fileName: String, in db: Database) throws {
        try db.execute(sql: "INSERT INTO search_source(id, fileName) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET fileName = excluded.fileName",
                       arguments: [fileName])
    }
}

private extension InstalledDatabase {
    init(row: Row) {
        let origin: String = row["origin"]
        self.init(
            version: row["version"],
            contentName: row["contentName"],
            contentSize: row["contentSize"],
            contentMD5: row["contentMD5"],
            origin: InstallOrigin(rawValue: origin) ?? .download,
            installedAt: row["installedAt"],
            fileName: row["fileName"]
        )
    }
}

