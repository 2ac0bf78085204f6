import Foundation
import GRDB
import PocketCore

/// The game's SQLite store: trips, spots and settings, migrated when opened.
///
/// Every change is one transaction and the score is always counted, never stored, so taps from
/// two phones at once can neither lose a spot nor count one twice.
public struct PlatesDatabase: PlatesStore {
    private let writer: any DatabaseWriter
    private let catalog: StateCatalog

    /// Opens (and migrates) the game at `url` in the data directory.
    public static func onDisk(at url: URL, catalog: StateCatalog) throws -> PlatesDatabase {
        try PlatesDatabase(writer: DatabaseFactory.onDisk(at: url, label: "plates"), catalog: catalog)
    }

    /// A fresh game in memory, for tests.
    public static func inMemory(catalog: StateCatalog) throws -> PlatesDatabase {
        try PlatesDatabase(writer: DatabaseFactory.inMemory(label: "plates"), catalog: catalog)
    }

    /// Wraps a database, migrating it and making sure a current trip exists.
    public init(writer: any DatabaseWriter, catalog: StateCatalog) throws {
        self.writer = writer
        self.catalog = catalog
        try Self.migrator.migrate(writer)
        try writer.write { db in try Self.ensureCurrentTrip(db, at: Date()) }
    }

    // MARK: PlatesStore

    public func snapshot() async throws -> GameSnapshot {
        try await writer.read { db in try Self.snapshot(db) }
    }

    public func spot(_ code: String, at date: Date, location: Location?) async throws -> GameSnapshot {
        let code = try validated(code)
        return try await writer.write { db in
            let trip = try Self.currentTrip(db)
            // INSERT OR IGNORE: a second tap (from any phone) keeps the first sighting.
            try db.execute(
                sql: "INSERT OR IGNORE INTO spot(tripID, stateCode, spottedAt, latitude, longitude) VALUES (?, ?, ?, ?, ?)",
                arguments: [trip.id, code, date, location?.latitude, location?.longitude]
            )
            return try Self.snapshot(db)
        }
    }

    public func unspot(_ code: String) async throws -> GameSnapshot {
        let code = try validated(code)
        return try await writer.write { db in
            let trip = try Self.currentTrip(db)
            try db.execute(sql: "DELETE FROM spot WHERE tripID = ? AND stateCode = ?", arguments: [trip.id, code])
            return try Self.snapshot(db)
        }
    }

    public func resetGame() async throws -> GameSnapshot {
        try await writer.write { db in
            let trip = try Self.currentTrip(db)
            try db.execute(sql: "DELETE FROM spot WHERE tripID = ?", arguments: [trip.id])
            return try Self.snapshot(db)
        }
    }

    public func startNewTrip(at date: Date) async throws -> GameSnapshot {
        try await writer.write { db in
            let trip = try Self.currentTrip(db)
            let spotted = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM spot WHERE tripID = ?", arguments: [trip.id]) ?? 0
            if spotted == 0 {
                // An empty trip is not worth a line in the history: just restart its clock.
                try db.execute(sql: "UPDATE trip SET startedAt = ? WHERE id = ?", arguments: [date, trip.id])
            } else {
                try db.execute(sql: "UPDATE trip SET endedAt = ? WHERE id = ?", arguments: [date, trip.id])
                try db.execute(sql: "INSERT INTO trip(startedAt) VALUES (?)", arguments: [date])
            }
            return try Self.snapshot(db)
        }
    }

    public func trips() async throws -> [TripSummary] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT trip.*, (SELECT COUNT(*) FROM spot WHERE spot.tripID = trip.id) AS score
                FROM trip ORDER BY (endedAt IS NULL) DESC, startedAt DESC, id DESC
                """).map { row in TripSummary(trip: Trip(row: row), score: row["score"]) }
        }
    }

    public func trip(id: Int64) async throws -> (summary: TripSummary, spots: [Spot]) {
        try await writer.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM trip WHERE id = ?", arguments: [id]) else {
                throw PlatesError.unknownTrip(id)
            }
            let spots = try Spot.fetchAll(db, sql: "SELECT * FROM spot WHERE tripID = ? ORDER BY spottedAt, stateCode", arguments: [id])
            return (TripSummary(trip: Trip(row: row), score: spots.count), spots)
        }
    }

    public func setMuted(_ muted: Bool) async throws -> GameSnapshot {
        try await setFlag("muted", muted)
    }

    public func setRecordsLocation(_ records: Bool) async throws -> GameSnapshot {
        try await setFlag("recordsLocation", records)
    }
}

// MARK: - Private

private extension PlatesDatabase {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: trips, spots, settings") { db in
            try db.execute(sql: """
                CREATE TABLE trip(
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    startedAt DATETIME NOT NULL,
                    endedAt DATETIME
                );
                -- At most one trip is being played.
                CREATE UNIQUE INDEX trip_current ON trip((endedAt IS NULL)) WHERE endedAt IS NULL;
                CREATE TABLE spot(
                    tripID INTEGER NOT NULL REFERENCES trip(id) ON DELETE CASCADE,
                    stateCode TEXT NOT NULL,
                    spottedAt DATETIME NOT NULL,
                    latitude DOUBLE,
                    longitude DOUBLE,
                    PRIMARY KEY(tripID, stateCode)
                );
                CREATE TABLE setting(key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                """)
        }
        return migrator
    }

    static func ensureCurrentTrip(_ db: Database, at date: Date) throws {
        let exists = try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM trip WHERE endedAt IS NULL)") ?? false
        if !exists {
            try db.execute(sql: "INSERT INTO trip(startedAt) VALUES (?)", arguments: [date])
        }
    }

    static func currentTrip(_ db: Database) throws -> Trip {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM trip WHERE endedAt IS NULL") else {
            // The migration-time invariant was broken by hand; recreate rather than fail the tap.
            try db.execute(sql: "INSERT INTO trip(startedAt) VALUES (?)", arguments: [Date()])
            return Trip(id: db.lastInsertedRowID, startedAt: Date(), endedAt: nil)
        }
        return Trip(row: row)
    }

    static func snapshot(_ db: Database) throws -> GameSnapshot {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM trip WHERE endedAt IS NULL") else {
            throw PlatesError.unknownTrip(0)
        }
        let trip = Trip(row: row)
        let spots = try Spot.fetchAll(db, sql: "SELECT * FROM spot WHERE tripID = ?", arguments: [trip.id])
        let settings = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT key, value FROM setting").map { row -> (String, String) in
            (row["key"], row["value"])
        })
        return GameSnapshot(
            trip: trip,
            spots: Dictionary(spots.map { ($0.stateCode, $0) }) { first, _ in first },
            isMuted: settings["muted"] == "1",
            recordsLocation: settings["recordsLocation"] == "1"
        )
    }

    func validated(_ code: String) throws -> String {
        guard let state = catalog.state(code: code) else { throw PlatesError.unknownState(code) }
        return state.code
    }

    func setFlag(_ key: String, _ value: Bool) async throws -> GameSnapshot {
        try await writer.write { db in
            try db.execute(sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", arguments: [key, value ? "1" : "0"])
            return try Self.snapshot(db)
        }
    }
}
