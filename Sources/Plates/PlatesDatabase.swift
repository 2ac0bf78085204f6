import Foundation
import GRDB
import PocketCore

/// The game's SQLite store, shared by everyone: trips, spots and settings, migrated when opened.
///
/// Every trip and setting belongs to one person, so nothing here reads or changes the game
/// directly: ask for a person's `PlatesGame` with `game(for:)`, whose every query is filtered by
/// that person. Every change is one transaction and the score is always counted, never stored,
/// so taps from two phones at once can neither lose a spot nor count one twice.
public struct PlatesDatabase: HealthChecked {
    private let writer: any DatabaseWriter
    private let catalog: StateCatalog
    /// Each person's game and trip list, kept until the file's next commit (on disk only).
    private let memo: PlatesMemo

    /// Opens (and migrates) the game at `url` in the data directory; `caches` is for the page
    /// benchmark, which can pass the memo through.
    public static func onDisk(at url: URL, catalog: StateCatalog, caches: Caches = .all) throws -> PlatesDatabase {
        let writer = try DatabaseFactory.onDisk(at: url, label: "plates")
        return try PlatesDatabase(writer: writer, catalog: catalog,
                                  watch: caches.watch(CommitWatch(path: url.path, label: "plates.watch"), for: .platesMemo))
    }

    /// Deletes everything `person` keeps here (trips, spots, settings and the phone changes seen), once they are removed from Pocket.
    public func forget(_ person: PersonID) async throws {
        try await writer.write { db in _ = try PersonRows.delete(person, db) }
    }

    /// A fresh game in memory, for tests.
    public static func inMemory(catalog: StateCatalog) throws -> PlatesDatabase {
        try PlatesDatabase(writer: DatabaseFactory.inMemory(label: "plates"), catalog: catalog)
    }

    /// Wraps a database, migrating it first so an unmigrated store cannot exist.
    ///
    /// No current trip is created here: people are added while Pocket runs, so each person's
    /// first trip is started lazily by their `PlatesGame` on first use.
    public init(writer: any DatabaseWriter, catalog: StateCatalog) throws {
        try self.init(writer: writer, catalog: catalog, watch: nil)
    }

    /// Wraps a database and keeps each person's game until `watch` sees a commit.
    init(writer: any DatabaseWriter, catalog: StateCatalog, watch: CommitWatch?) throws {
        self.writer = writer
        self.catalog = catalog
        memo = PlatesMemo(watch: watch)
        try Self.migrator.migrate(writer)
    }

    /// Migrates `writer` only as far as the migration named `last`: tests use it to write a
    /// database as an older Pocket did, then open it with today's.
    static func migrate(_ writer: any DatabaseWriter, upTo last: String) throws {
        try migrator.migrate(writer, upTo: last)
    }

    /// Every migration this Pocket knows for `plates.sqlite`, oldest first: a restore refuses a backup
    /// whose database ran one that is not here (it comes from a newer Pocket).
    public static var migrationIdentifiers: [String] {
        migrator.migrations
    }

    /// Whether `plates.sqlite` can be read.
    public func checkHealth() async throws {
        try await writer.checkSchemaReadable()
    }

    /// The game of one person: their trips, spots and settings, and nobody else's.
    public func game(for person: PersonID) -> PlatesGame {
        PlatesGame(person: person, writer: writer, catalog: catalog, memo: memo)
    }
}

// MARK: - Migrations

private extension PlatesDatabase {
    /// Only ever appended to: a migration that has run on someone's data folder is never edited.
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
        // GRDB runs this with foreign keys off and checks them before committing, so dropping
        // the old `trip` table cannot cascade into `spot`.
        migrator.registerMigration("v2: trips and settings belong to a person") { db in
            try migrateToPeople(db)
        }
        migrator.registerMigration("v3: the change log") { db in
            try addChangeLog(db)
        }
        migrator.registerMigration("v4: times as milliseconds; change log indexes by state and kind") { db in
            try storeTimesAsMilliseconds(db)
        }
        migrator.registerMigration("v5: change log index by state, kind and time") { db in
            // A late change finds its state's last un-spot and the first spot after it by this
            // index alone, so it costs the same after 10,000 changes of that state as after 10.
            try db.execute(sql: "CREATE INDEX plateChange_stateKind ON plateChange(personID, stateCode, kind, at, id)")
        }
        // An import once took times up to the year 10000, and such a change won against every tap
        // after it (a state that could not be un-spotted, New Trip stuck); see `ChangeTime.repairTimesAhead`.
        migrator.registerMigration("v6: times ahead of the clock brought back") { db in
            let now = Date()
            try ChangeTime.repairTimesAhead(db, table: "plateChange", columns: ["at"], now: now)
            try ChangeTime.repairTimesAhead(db, table: "trip", columns: ["startedAt", "endedAt"], now: now)
            try ChangeTime.repairTimesAhead(db, table: "spot", columns: ["spottedAt"], now: now)
        }
        return migrator
    }

    /// Gives every existing trip and setting to the owner, which is how a single-user Pocket
    /// keeps its game when it gains people.
    ///
    /// Both tables are rebuilt rather than altered: `personID` must be NOT NULL without a
    /// default (a forgotten person must fail, not silently write the owner's data), and a
    /// setting's key becomes (person, key). `personID` has no foreign key because people live
    /// in another database (`people.sqlite`). Spots need no person: they belong to a trip.
    static func migrateToPeople(_ db: Database) throws {
        let owner = PersonID.firstOwner.rawValue
        let lastTripID = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'trip'") ?? 0
        try db.execute(sql: """
            CREATE TABLE trip_v2(
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                personID INTEGER NOT NULL,
                startedAt DATETIME NOT NULL,
                endedAt DATETIME
            );
            INSERT INTO trip_v2(id, personID, startedAt, endedAt) SELECT id, ?, startedAt, endedAt FROM trip;
            DROP TABLE trip;
            ALTER TABLE trip_v2 RENAME TO trip;
            -- At most one trip is being played per person.
            CREATE UNIQUE INDEX trip_current ON trip(personID) WHERE endedAt IS NULL;
            -- The history lists one person's trips.
            CREATE INDEX trip_person ON trip(personID, startedAt);

            CREATE TABLE setting_v2(
                personID INTEGER NOT NULL,
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY(personID, key)
            );
            INSERT INTO setting_v2(personID, key, value) SELECT ?, key, value FROM setting;
            DROP TABLE setting;
            ALTER TABLE setting_v2 RENAME TO setting;
            """, arguments: [owner, owner])
        // Trip ids are never reused (AUTOINCREMENT), so carry the counter over the rebuild: the
        // copy only raised it to the highest surviving id, not past trips removed since.
        try db.execute(sql: "UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = 'trip'", arguments: [lastTripID])
        if db.changesCount == 0, lastTripID > 0 {
            try db.execute(sql: "INSERT INTO sqlite_sequence(name, seq) VALUES ('trip', ?)", arguments: [lastTripID])
        }
    }

    /// Adds the log of every change applied (`PlatesMerge`'s rule works a trip out from it) and
    /// writes each existing spot into it as a spot change, so a trip worked out again after the
    /// upgrade keeps the spots it had. A spot's time is kept inside its trip's span, so it stays
    /// on its own trip. Reads the v2 tables with its own SQL (times were text then), so later
    /// changes to the store's readers never change what this migration does.
    static func addChangeLog(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE plateChange(
                personID INTEGER NOT NULL,
                id TEXT NOT NULL,
                at INTEGER NOT NULL,
                kind TEXT NOT NULL,
                stateCode TEXT,
                latitude DOUBLE,
                longitude DOUBLE,
                PRIMARY KEY(personID, id)
            );
            -- A trip is worked out from the changes in its time span.
            CREATE INDEX plateChange_time ON plateChange(personID, at);
            """)
        let people = try Int64.fetchAll(db, sql: "SELECT DISTINCT personID FROM trip")
        for person in people {
            let trips = try Row.fetchAll(
                db, sql: "SELECT id, \(milliseconds("startedAt")) AS start FROM trip WHERE personID = ? ORDER BY startedAt, id",
                arguments: [person])
            for (index, trip) in trips.enumerated() {
                let tripID: Int64 = try trip.decode(forColumn: "id")
                let lower: Int64 = index == 0 ? Int64.min : try trip.decode(forColumn: "start")
                let upper: Int64 = index + 1 < trips.count ? try trips[index + 1].decode(forColumn: "start") : Int64.max
                let spots = try Row.fetchAll(db, sql: """
                    SELECT stateCode, \(milliseconds("spottedAt")) AS at,
                        CASE WHEN latitude BETWEEN -90 AND 90 AND longitude BETWEEN -180 AND 180 THEN latitude END AS latitude,
                        CASE WHEN latitude BETWEEN -90 AND 90 AND longitude BETWEEN -180 AND 180 THEN longitude END AS longitude
                    FROM spot WHERE tripID = ?
                    """, arguments: [tripID])
                for spot in spots {
                    let code: String = try spot.decode(forColumn: "stateCode")
                    let at = min(max(try spot.decode(Int64.self, forColumn: "at"), lower), upper - 1)
                    try db.execute(
                        sql: "INSERT INTO plateChange(personID, id, at, kind, stateCode, latitude, longitude) VALUES (?, ?, ?, 'spot', ?, ?, ?)",
                        arguments: [person, "upgrade-\(tripID)-\(code)", at, code,
                                    try spot.decode(Double?.self, forColumn: "latitude"), try spot.decode(Double?.self, forColumn: "longitude")])
                }
            }
        }
    }

    /// Stores trips' and spots' times as whole milliseconds since 1970 (INTEGER) instead of text,
    /// which a change dated in the year 10000 made unreadable; such text is read as that year's
    /// first millisecond, so every row stays readable. Adds the indexes the merge reads by.
    static func storeTimesAsMilliseconds(_ db: Database) throws {
        let lastTripID = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'trip'") ?? 0
        try db.execute(sql: """
            CREATE TABLE trip_v4(
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                personID INTEGER NOT NULL,
                startedAt INTEGER NOT NULL,
                endedAt INTEGER
            );
            INSERT INTO trip_v4(id, personID, startedAt, endedAt)
                SELECT id, personID, \(milliseconds("startedAt")), CASE WHEN endedAt IS NULL THEN NULL ELSE \(milliseconds("endedAt")) END FROM trip;
            CREATE TABLE spot_v4(
                tripID INTEGER NOT NULL REFERENCES trip(id) ON DELETE CASCADE,
                stateCode TEXT NOT NULL,
                spottedAt INTEGER NOT NULL,
                latitude DOUBLE,
                longitude DOUBLE,
                PRIMARY KEY(tripID, stateCode)
            );
            INSERT INTO spot_v4(tripID, stateCode, spottedAt, latitude, longitude)
                SELECT tripID, stateCode, \(milliseconds("spottedAt")), latitude, longitude FROM spot;
            DROP TABLE spot;
            DROP TABLE trip;
            ALTER TABLE trip_v4 RENAME TO trip;
            ALTER TABLE spot_v4 RENAME TO spot;
            -- At most one trip is being played per person.
            CREATE UNIQUE INDEX trip_current ON trip(personID) WHERE endedAt IS NULL;
            -- Trips are found by the times they start.
            CREATE INDEX trip_person ON trip(personID, startedAt);
            -- A late change is merged from the changes of its state and the trip's last Reset.
            CREATE INDEX plateChange_state ON plateChange(personID, stateCode, at);
            CREATE INDEX plateChange_kind ON plateChange(personID, kind, at);
            """)
        try db.execute(sql: "UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = 'trip'", arguments: [lastTripID])
        if db.changesCount == 0, lastTripID > 0 {
            try db.execute(sql: "INSERT INTO sqlite_sequence(name, seq) VALUES ('trip', ?)", arguments: [lastTripID])
        }
    }

    /// SQL for a text date column (GRDB's `YYYY-MM-DD HH:MM:SS.SSS`, UTC) as milliseconds since
    /// 1970; text SQLite cannot read (a year past 9999) becomes 1 January 10000.
    static func milliseconds(_ column: String) -> String {
        "COALESCE(CAST(ROUND((julianday(\(column)) - 2440587.5) * 86400000.0) AS INTEGER), 253402300800000)"
    }
}
