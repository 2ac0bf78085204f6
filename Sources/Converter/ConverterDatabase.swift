import Foundation
import GRDB
import PocketCore

/// The converter's SQLite store (`converter.sqlite` in the data directory): one row holding the
/// `ConverterState` as JSON, migrated when opened.
///
/// JSON rather than columns because the state is one value the domain already knows how to
/// encode, and its decoder repairs units a newer catalog no longer offers; a row that cannot be
/// read at all (hand-edited, or from a future version) falls back to the first-launch screen
/// instead of breaking the page, and is replaced by the next change.
public struct ConverterDatabase: ConverterStore {
    private let writer: any DatabaseWriter

    /// Opens (and migrates) the store at `url`, normally `converter.sqlite` in the data directory.
    public static func onDisk(at url: URL) throws -> ConverterDatabase {
        try ConverterDatabase(writer: DatabaseFactory.onDisk(at: url, label: "converter"))
    }

    /// A fresh store in memory, for tests.
    public static func inMemory() throws -> ConverterDatabase {
        try ConverterDatabase(writer: DatabaseFactory.inMemory(label: "converter"))
    }

    /// Wraps a database, migrating it first so an unmigrated store cannot exist.
    public init(writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    // MARK: ConverterStore

    /// The remembered state, or `ConverterState.firstLaunch` if none was saved or it is unreadable.
    public func state() async throws -> ConverterState {
        try await writer.read { db in try Self.load(db) }
    }

    /// Reads, changes and saves the state in one write transaction; a change that throws saves nothing.
    public func update<Result: Sendable>(
        _ change: @escaping @Sendable (inout ConverterState) throws -> Result
    ) async throws -> (state: ConverterState, result: Result) {
        try await writer.write { db in
            let before = try Self.load(db)
            var state = before
            let result = try change(&state)
            // A refused key press changes nothing: no need to rewrite the row.
            if state != before { try Self.save(state, db) }
            return (state, result)
        }
    }
}

// MARK: - Private

private extension ConverterDatabase {
    /// The single row's key: one household, one converter.
    static let rowID = 1

    static var migrator: DatabaseMigrator {
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
        return migrator
    }

    static func load(_ db: Database) throws -> ConverterState {
        guard let json = try String.fetchOne(db, sql: "SELECT json FROM converterState WHERE id = ?", arguments: [rowID]),
              let state = try? JSONDecoder().decode(ConverterState.self, from: Data(json.utf8))
        else { return .firstLaunch }
        return state
    }

    static func save(_ state: ConverterState, _ db: Database) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(state), as: UTF8.self)
        try db.execute(
            sql: """
                INSERT INTO converterState(id, json, savedAt) VALUES (?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET json = excluded.json, savedAt = excluded.savedAt
                """,
            arguments: [rowID, json, Date()])
    }
}
