import Foundation
import GRDB
import PocketCore

/// The converter's SQLite store (`converter.sqlite` in the data directory), shared by everyone:
/// one row per person holding their `ConverterState` as JSON, migrated when opened.
///
/// Nothing here reads or saves a state directly: ask for a person's `PersonalConverterStore`
/// with `store(for:)`, whose every query is filtered by that person.
///
/// JSON rather than columns because the state is one value the domain already knows how to
/// encode, and its decoder repairs units a newer catalog no longer offers; a row that cannot be
/// read at all (hand-edited, or from a future version) falls back to the first-launch screen
/// instead of breaking the page, and is replaced by the next change.
public struct ConverterDatabase: HealthChecked {
    private let writer: any DatabaseWriter
    /// Each person's state as last read, kept until the file's next commit: the screen is drawn
    /// on every visit and changes only with a key (on disk only).
    private let states: CommitCache<PersonID, ConverterState>

    /// Opens (and migrates) the store at `url`, normally `converter.sqlite` in the data directory;
    /// `caches` is for the page benchmark, which can pass the memo through.
    public static func onDisk(at url: URL, caches: Caches = .all) throws -> ConverterDatabase {
        let writer = try DatabaseFactory.onDisk(at: url, label: "converter")
        return try ConverterDatabase(writer: writer, watch: caches.watch(CommitWatch(path: url.path, label: "converter.watch"), for: .converterMemo))
    }

    /// A fresh store in memory, for tests.
    public static func inMemory() throws -> ConverterDatabase {
        try ConverterDatabase(writer: DatabaseFactory.inMemory(label: "converter"))
    }

    /// Wraps a database, migrating it first so an unmigrated store cannot exist.
    public init(writer: any DatabaseWriter) throws {
        try self.init(writer: writer, watch: nil)
    }

    /// Wraps a database and keeps each person's state until `watch` sees a commit.
    init(writer: any DatabaseWriter, watch: CommitWatch?) throws {
        self.writer = writer
        states = CommitCache(watch: watch, capacity: Self.peopleKept)
        try Self.migrator.migrate(writer)
    }

    /// Deletes everything `person` keeps here (the converter's remembered screen), once they are removed from Pocket.
    public func forget(_ person: PersonID) async throws {
        try await writer.write { db in _ = try PersonRows.delete(person, db) }
    }

    /// Every migration this Pocket knows for `converter.sqlite`, oldest first: a restore refuses a backup
    /// whose database ran one that is not here (it comes from a newer Pocket).
    public static var migrationIdentifiers: [String] {
        migrator.migrations
    }

    /// Whether `converter.sqlite` can be read.
    public func checkHealth() async throws {
        try await writer.checkSchemaReadable()
    }

    /// Beyond this many people's states all are forgotten and read again as asked.
    static let peopleKept = 256

    /// The converter of one person: their remembered screen, and nobody else's.
    public func store(for person: PersonID) -> PersonalConverterStore {
        PersonalConverterStore(person: person, writer: writer, states: states)
    }
}

/// One person's remembered converter screen, made by `ConverterDatabase.store(for:)`.
///
/// Every read and write names `person`, so one person's screen can never be read or changed
/// through another's store. Someone who never used the converter sees the first-launch screen.
/// Each person has their own remembered state, shared by every browser they sign in on.
public struct PersonalConverterStore: Sendable {
    /// Whose screen this is.
    public let person: PersonID
    private let writer: any DatabaseWriter
    private let states: CommitCache<PersonID, ConverterState>

    init(person: PersonID, writer: any DatabaseWriter, states: CommitCache<PersonID, ConverterState>) {
        self.person = person
        self.writer = writer
        self.states = states
    }

    /// The remembered state, or `ConverterState.firstLaunch` if none was saved or it is unreadable.
    public func state() async throws -> ConverterState {
        let person = self.person
        return try await states.value(for: person) { try await writer.read { db in try ConverterDatabase.load(db, person: person) } }
    }

    /// Applies `change` to the remembered state and saves the result, all in one transaction, so
    /// two phones changing the converter at once never lose each other's change. If `change`
    /// throws, nothing is saved and the error is rethrown.
    /// - Returns: the state after the change and whatever `change` returned (e.g. a key's outcome).
    public func update<Result: Sendable>(
        _ change: @escaping @Sendable (inout ConverterState) throws -> Result
    ) async throws -> (state: ConverterState, result: Result) {
        let person = self.person
        return try await writer.write { db in
            let before = try ConverterDatabase.load(db, person: person)
            var state = before
            let result = try change(&state)
            // A refused key press changes nothing: no need to rewrite the row.
            if state != before { try ConverterDatabase.save(state, person: person, db) }
            return (state, result)
        }
    }
}

extension PersonalConverterStore {
    /// When the remembered state was last changed (by a form post, or the phone's time of a synced
    /// change), in milliseconds since 1970, or nil if nothing was saved yet; the phone compares
    /// its waiting changes with it.
    public func savedAt() async throws -> Int64? {
        let person = self.person
        return try await writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT savedAt FROM converterState WHERE personID = ?", arguments: [person.rawValue])
        }
    }

    /// Sets the whole state as a phone had it at `changedAt` (milliseconds since 1970), unless
    /// the remembered state was changed later than that (another device's newer change wins); a
    /// resend sets the same again.
    /// - Returns: the remembered state afterwards and whether `state` was applied.
    public func replace(with state: ConverterState, changedAt: Int64) async throws -> (state: ConverterState, applied: Bool) {
        let person = self.person
        return try await writer.write { db in
            let saved = try Int64.fetchOne(db, sql: "SELECT savedAt FROM converterState WHERE personID = ?", arguments: [person.rawValue])
            if let saved, saved > changedAt { return (try ConverterDatabase.load(db, person: person), false) }
            try ConverterDatabase.save(state, person: person, db, at: changedAt)
            return (state, true)
        }
    }
}

// MARK: - Private

extension ConverterDatabase {
    /// Only ever appended to: a migration that has run on someone's data folder is never edited.
    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: converter state") { db in
            try db.execute(sql: """
                CREATE TABLE converterState(
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    json TEXT NOT NULL,
                    savedAt DATETIME NOT NULL
                );
                """)
        }
        // Rebuilt because the key changes from the single row (id 1) to the person. GRDB runs
        // migrations with foreign keys off, checking them before the commit.
        migrator.registerMigration("v2: one converter state per person") { db in
            // The single-user row becomes the owner's: that is how an upgrade keeps the screen.
            // No foreign key: people live in another database (`people.sqlite`).
            try db.execute(
                sql: """
                    CREATE TABLE converterState_v2(
                        personID INTEGER PRIMARY KEY NOT NULL,
                        json TEXT NOT NULL,
                        savedAt DATETIME NOT NULL
                    );
                    INSERT INTO converterState_v2(personID, json, savedAt) SELECT ?, json, savedAt FROM converterState;
                    DROP TABLE converterState;
                    ALTER TABLE converterState_v2 RENAME TO converterState;
                    """,
                arguments: [PersonID.firstOwner.rawValue])
        }
        // The time a phone sent was kept as text, and one far enough ahead was unreadable, which
        // broke the converter for that person; whole milliseconds store any time. Unreadable text
        // becomes 0, so the person's next change wins.
        migrator.registerMigration("v3: the saved time as milliseconds") { db in
            try db.execute(sql: """
                CREATE TABLE converterState_v3(
                    personID INTEGER PRIMARY KEY NOT NULL,
                    json TEXT NOT NULL,
                    savedAt INTEGER NOT NULL
                );
                INSERT INTO converterState_v3(personID, json, savedAt)
                    SELECT personID, json, COALESCE(CAST(ROUND((julianday(savedAt) - 2440587.5) * 86400000.0) AS INTEGER), 0) FROM converterState;
                DROP TABLE converterState;
                ALTER TABLE converterState_v3 RENAME TO converterState;
                """)
        }
        // An import once took a saved time up to the year 10000, after which no change of the
        // person's applied (each was older); see `ChangeTime.repairTimesAhead`.
        migrator.registerMigration("v4: saved times ahead of the clock brought back") { db in
            try ChangeTime.repairTimesAhead(db, table: "converterState", columns: ["savedAt"], now: Date())
        }
        return migrator
    }

    fileprivate static func load(_ db: Database, person: PersonID) throws -> ConverterState {
        guard let json = try String.fetchOne(db, sql: "SELECT json FROM converterState WHERE personID = ?", arguments: [person.rawValue]),
              let state = try? JSONDecoder().decode(ConverterState.self, from: Data(json.utf8))
        else { return .firstLaunch }
        return state
    }

    fileprivate static func save(_ state: ConverterState, person: PersonID, _ db: Database, at time: Int64 = ChangeTime.milliseconds(Date())) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(state), as: UTF8.self)
        try db.execute(
            sql: """
                INSERT INTO converterState(personID, json, savedAt) VALUES (?, ?, ?)
                ON CONFLICT(personID) DO UPDATE SET json = excluded.json, savedAt = excluded.savedAt
                """,
            arguments: [person.rawValue, json, time])
    }
}
