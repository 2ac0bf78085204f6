import Foundation
import GRDB
import PocketCore

/// The murals' SQLite store: the service's murals and pictures and the sync state (shared by
/// everyone), and each person's favourites and visits, migrated when opened.
///
/// Favourites and visits live in their own tables without foreign keys to `murals`, so no sync,
/// not even one that hides or rewrites a mural, can ever lose one. Every query of them names the
/// person, so one person's favourites and visits are never read or changed for another. Tests use
/// the same type on an in-memory database.
///
/// Murals, pictures and the sync state are shared by everyone; favourites and visits belong to
/// one person, so every method about them takes the `PersonID` whose they are.
public final class MuralsDatabase: HealthChecked {
    /// Internal so the outbox changes (`MuralsDatabase+Changes.swift`) share it.
    let writer: any DatabaseWriter
    /// What every Murals screen reads, kept until the file's next commit (on disk only).
    private let memo: MuralsMemo

    /// Opens (and migrates) the store at `url` in the data directory; `caches` is for the page
    /// benchmark, which can pass the memo through.
    public static func onDisk(at url: URL, caches: Caches = .all) throws -> MuralsDatabase {
        let writer = try DatabaseFactory.onDisk(at: url, label: "murals")
        return try MuralsDatabase(writer: writer, watch: caches.watch(CommitWatch(path: url.path, label: "murals.watch"), for: .muralsMemo))
    }

    /// A fresh, empty store in memory, for tests.
    public static func inMemory() throws -> MuralsDatabase {
        try MuralsDatabase(writer: DatabaseFactory.inMemory(label: "murals"))
    }

    /// Wraps a database, migrating it first so an unmigrated store cannot exist.
    public convenience init(writer: any DatabaseWriter) throws {
        try self.init(writer: writer, watch: nil)
    }

    /// Wraps a database and keeps what the screens read until `watch` sees a commit.
    init(writer: any DatabaseWriter, watch: CommitWatch?) throws {
        self.writer = writer
        memo = MuralsMemo(watch: watch)
        try Self.migrator.migrate(writer)
    }

    /// The last migration of the release before offline changes (issue #13); tests write a
    /// database of that schema and check that opening it upgrades it without loss.
    static let previousSchema = "v2: favourites and visits belong to a person"

    /// Migrates only up to `identifier`, leaving a database as an older release wrote it (tests).
    static func migrate(_ writer: any DatabaseWriter, upTo identifier: String) throws {
        try migrator.migrate(writer, upTo: identifier)
    }

    /// Deletes everything `person` keeps here (stars, visits and the phone changes seen), once they are removed from Pocket.
    public func forget(_ person: PersonID) async throws {
        try await writer.write { db in _ = try PersonRows.delete(person, db) }
    }

    /// Every migration this Pocket knows for `murals.sqlite`, oldest first: a restore refuses a backup
    /// whose database ran one that is not here (it comes from a newer Pocket).
    public static var migrationIdentifiers: [String] {
        migrator.migrations
    }

    /// Whether the murals database can be read.
    public func checkHealth() async throws {
        try await writer.checkSchemaReadable()
    }

    // MARK: Murals, favourites, visits and sync state

    /// Every shown (enabled) mural, by title.
    public func murals() async throws -> [Mural] {
        try await memo.murals.value(for: 0) { try await readMurals() }
    }

    private func readMurals() async throws -> [Mural] {
        try await writer.read { db in
            let rows = try Row.fetchAll(cached: db, sql: "SELECT * FROM murals WHERE isEnabled ORDER BY title COLLATE NOCASE, title, id")
            let images = try Self.images(db, sql: """
                SELECT mural_images.* FROM mural_images JOIN murals ON murals.id = mural_images.muralID
                WHERE murals.isEnabled ORDER BY mural_images.muralID, mural_images.position
                """)
            return try rows.map { row in try Mural(row: row, images: images[try row.decode(forColumn: Mural.Columns.id)] ?? []) }
        }
    }

    /// One shown mural, or nil when it is unknown or hidden.
    public func mural(id: Int) async throws -> Mural? {
        try await writer.read { db in
            guard let mural = try Self.storedMural(db, id: id), mural.isEnabled else { return nil }
            return mural
        }
    }

    /// The ids `person` marked favourite (kept even while a mural is hidden).
    public func favouriteIDs(of person: PersonID) async throws -> Set<Int> {
        try await memo.favourites.value(for: person) { try await writer.read { db in
            try Set(Self.stars.items(of: person, db).map(\.itemID))
        } }
    }

    /// Marks or unmarks a favourite of `person`; marking needs a shown mural (`MuralsError.unknownMural`).
    /// A form post is a change made now: offline changes older than it no longer win.
    public func setFavourite(_ isFavourite: Bool, muralID: Int, for person: PersonID) async throws {
        try await writer.write { db in
            if isFavourite { try Self.checkShown(muralID, db) }
            try Self.stars.write(isFavourite, itemID: muralID, for: person, at: ChangeTime.milliseconds(Date()), changeID: "", db)
        }
    }

    /// The ids of murals `person` passed on a walk.
    public func visitedIDs(of person: PersonID) async throws -> Set<Int> {
        try await memo.visited.value(for: person) { try await writer.read { db in
            try Set(Int.fetchAll(cached: db, sql: "SELECT muralID FROM visited WHERE personID = ?", arguments: [person.rawValue]))
        } }
    }

    /// Adds murals to the ones `person` visited.
    public func markVisited(_ ids: Set<Int>, for person: PersonID) async throws {
        guard !ids.isEmpty else { return }
        try await writer.write { db in
            let now = Date()
            let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO visited(personID, muralID, visitedAt) VALUES (?, ?, ?)")
            for id in ids.sorted() {
                try insert.execute(arguments: [person.rawValue, id, now])
            }
        }
    }

    /// Forgets every visit of `person` (nobody else's).
    public func clearVisited(for person: PersonID) async throws {
        try await writer.write { db in try db.execute(sql: "DELETE FROM visited WHERE personID = ?", arguments: [person.rawValue]) }
    }

    /// When the last sync succeeded or failed, and how many murals are shown.
    public func syncState() async throws -> MuralsSyncState {
        try await memo.syncState.value(for: 0) { try await writer.read { db in try Self.syncState(db) } }
    }

    /// Saves one response in one transaction: upserts by id, replaces each mural's images,
    /// hides murals no longer enabled and records the success.
    public func apply(_ murals: [Mural], fetchedAt: Date, wasIncremental: Bool) async throws -> MuralsSyncSummary {
        // Later copies of an id win, as in the feed itself.
        var latest: [Int: Mural] = [:]
        var order: [Int] = []
        for mural in murals {
            if latest.updateValue(mural, forKey: mural.id) == nil { order.append(mural.id) }
        }
        let (ids, byID) = (order, latest)
        return try await writer.write { db in
            var inserted = 0, updated = 0, hidden = 0
            for id in ids {
                guard let mural = byID[id] else { continue }
                let existing = try Self.storedMural(db, id: id)
                switch existing {
                case nil: inserted += 1
                case let old? where old.isEnabled && !mural.isEnabled: hidden += 1
                case let old? where old != mural: updated += 1
                default: break
                }
                if existing == mural { continue }
                try db.cachedStatement(sql: """
                    INSERT INTO murals(id, title, artist, info, thumbnail, latitude, longitude, isEnabled, lastModified)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET title = excluded.title, artist = excluded.artist, info = excluded.info,
                        thumbnail = excluded.thumbnail, latitude = excluded.latitude, longitude = excluded.longitude,
                        isEnabled = excluded.isEnabled, lastModified = excluded.lastModified
                    """).execute(arguments: mural.rowArguments)
                try db.cachedStatement(sql: "DELETE FROM mural_images WHERE muralID = ?").execute(arguments: [id])
                let insertImage = try db.cachedStatement(sql: "INSERT INTO mural_images(muralID, position, imageID, filename) VALUES (?, ?, ?, ?)")
                for (position, image) in mural.images.enumerated() {
                    try insertImage.execute(arguments: [id, position, image.id, image.filename])
                }
            }
            try db.execute(sql: """
                INSERT INTO sync_state(id, lastSuccess, lastAttempt, lastError) VALUES (1, ?, ?, NULL)
                ON CONFLICT(id) DO UPDATE SET lastSuccess = excluded.lastSuccess, lastAttempt = excluded.lastAttempt, lastError = NULL
                """, arguments: [fetchedAt, fetchedAt])
            return MuralsSyncSummary(received: ids.count, inserted: inserted, updated: updated, hidden: hidden, skipped: 0, wasIncremental: wasIncremental)
        }
    }

    /// Records a failed sync (the murals stay as they were).
    public func recordSyncFailure(_ message: String, at date: Date) async throws {
        try await writer.write { db in
            try db.execute(sql: """
                INSERT INTO sync_state(id, lastSuccess, lastAttempt, lastError) VALUES (1, NULL, ?, ?)
                ON CONFLICT(id) DO UPDATE SET lastAttempt = excluded.lastAttempt, lastError = excluded.lastError
                """, arguments: [date, message])
        }
    }
}

// MARK: - Private

private extension MuralsDatabase {
    /// Only ever appended to: a migration that has run on someone's data folder is never edited.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: murals, images, favourites, visited, sync state") { db in
            try db.execute(sql: """
                CREATE TABLE murals(
                    id INTEGER PRIMARY KEY NOT NULL,
                    title TEXT NOT NULL,
                    artist TEXT,
                    info TEXT,
                    thumbnail TEXT,
                    latitude DOUBLE NOT NULL,
                    longitude DOUBLE NOT NULL,
                    isEnabled BOOLEAN NOT NULL,
                    lastModified TEXT NOT NULL
                );
                CREATE TABLE mural_images(
                    muralID INTEGER NOT NULL REFERENCES murals(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    imageID TEXT NOT NULL,
                    filename TEXT NOT NULL,
                    PRIMARY KEY(muralID, position)
                );
                -- No foreign keys: a favourite or a visit outlives anything a sync does to its mural.
                CREATE TABLE favourites(muralID INTEGER PRIMARY KEY NOT NULL, addedAt DATETIME NOT NULL);
                CREATE TABLE visited(muralID INTEGER PRIMARY KEY NOT NULL, visitedAt DATETIME NOT NULL);
                CREATE TABLE sync_state(
                    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
                    lastSuccess DATETIME,
                    lastAttempt DATETIME,
                    lastError TEXT
                );
                """)
        }
        // Rebuilt because each table's key becomes (person, mural). GRDB runs migrations with
        // foreign keys off, checking them before the commit.
        migrator.registerMigration("v2: favourites and visits belong to a person") { db in
            // The single-user rows become the owner's: that is how an upgrade keeps them. No
            // foreign key to the person: people live in another database (`people.sqlite`).
            try db.execute(
                sql: """
                    CREATE TABLE favourites_v2(
                        personID INTEGER NOT NULL,
                        muralID INTEGER NOT NULL,
                        addedAt DATETIME NOT NULL,
                        PRIMARY KEY(personID, muralID)
                    );
                    INSERT INTO favourites_v2(personID, muralID, addedAt) SELECT ?, muralID, addedAt FROM favourites;
                    DROP TABLE favourites;
                    ALTER TABLE favourites_v2 RENAME TO favourites;
                    CREATE TABLE visited_v2(
                        personID INTEGER NOT NULL,
                        muralID INTEGER NOT NULL,
                        visitedAt DATETIME NOT NULL,
                        PRIMARY KEY(personID, muralID)
                    );
                    INSERT INTO visited_v2(personID, muralID, visitedAt) SELECT ?, muralID, visitedAt FROM visited;
                    DROP TABLE visited;
                    ALTER TABLE visited_v2 RENAME TO visited;
                    """,
                arguments: [PersonID.firstOwner.rawValue, PersonID.firstOwner.rawValue])
        }
        // Offline stars (issue #13): which change last decided each star, and the change ids seen.
        // Existing favourites get no row, which counts as decided at time 0 (any change wins).
        migrator.registerMigration("v3: favourite changes from the outbox") { db in
            try db.execute(sql: """
                CREATE TABLE favourite_decisions(
                    personID INTEGER NOT NULL,
                    muralID INTEGER NOT NULL,
                    at INTEGER NOT NULL,
                    changeID TEXT NOT NULL,
                    PRIMARY KEY(personID, muralID)
                );
                CREATE TABLE applied_changes(
                    personID INTEGER NOT NULL,
                    changeID TEXT NOT NULL,
                    appliedAt DATETIME NOT NULL,
                    PRIMARY KEY(personID, changeID)
                );
                """)
        }
        // A star's time came from the phone as text; kept now as the milliseconds the outbox
        // counts in, so no time a phone sends can leave an unreadable row.
        migrator.registerMigration("v4: favourites' times as milliseconds") { db in
            try db.execute(sql: """
                CREATE TABLE favourites_v4(
                    personID INTEGER NOT NULL,
                    muralID INTEGER NOT NULL,
                    addedAt INTEGER NOT NULL,
                    PRIMARY KEY(personID, muralID)
                );
                INSERT INTO favourites_v4(personID, muralID, addedAt)
                    SELECT personID, muralID, COALESCE(CAST(ROUND((julianday(addedAt) - 2440587.5) * 86400000.0) AS INTEGER), 253402300800000)
                    FROM favourites;
                DROP TABLE favourites;
                ALTER TABLE favourites_v4 RENAME TO favourites;
                """)
        }
        // An import (and v4, for an unreadable time) could leave a star's time up to the year 10000,
        // and every un-star after it was "superseded"; see `ChangeTime.repairTimesAhead`.
        migrator.registerMigration("v5: star and visit times ahead of the clock brought back") { db in
            let now = Date()
            try ChangeTime.repairTimesAhead(db, table: "favourites", columns: ["addedAt"], now: now)
            try ChangeTime.repairTimesAhead(db, table: "favourite_decisions", columns: ["at"], now: now)
            try ChangeTime.repairDatesAhead(db, table: "visited", columns: ["visitedAt"], now: now)
        }
        // Stars become the toggle Conference's bookmarks also are (`ToggleTables`): one shape,
        // `favourite`, `favourite_decision` and `favourite_change_seen`, keyed by `itemID`. Every
        // row moves as it is (times were already milliseconds); when a change id was seen is not
        // kept, as nothing read it. Written out here rather than by `ToggleTables`, so this
        // migration stays as it ran.
        migrator.registerMigration("v6: stars as the shared toggle's tables") { db in
            try db.execute(sql: """
                ALTER TABLE favourites RENAME TO favourite;
                ALTER TABLE favourite RENAME COLUMN muralID TO itemID;
                ALTER TABLE favourite_decisions RENAME TO favourite_decision;
                ALTER TABLE favourite_decision RENAME COLUMN muralID TO itemID;
                CREATE TABLE favourite_change_seen(
                    personID INTEGER NOT NULL,
                    changeID TEXT NOT NULL,
                    PRIMARY KEY(personID, changeID)
                );
                INSERT INTO favourite_change_seen(personID, changeID) SELECT personID, changeID FROM applied_changes;
                DROP TABLE applied_changes;
                """)
        }
        return migrator
    }

    /// One stored mural; a full sync asks this for every id in the feed, hence the cached statements.
    static func storedMural(_ db: Database, id: Int) throws -> Mural? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM murals WHERE id = ?"), arguments: [id]) else { return nil }
        var images: [MuralImage] = []
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT imageID, filename FROM mural_images WHERE muralID = ? ORDER BY position"), arguments: [id])
        while let image = try rows.next() {
            images.append(MuralImage(id: try image.decode(forColumn: "imageID"), filename: try image.decode(forColumn: "filename")))
        }
        return try Mural(row: row, images: images)
    }

    static func images(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Int: [MuralImage]] {
        var images: [Int: [MuralImage]] = [:]
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        while let row = try rows.next() {
            images[try row.decode(forColumn: "muralID"), default: []]
                .append(MuralImage(id: try row.decode(forColumn: "imageID"), filename: try row.decode(forColumn: "filename")))
        }
        return images
    }

    static func syncState(_ db: Database) throws -> MuralsSyncState {
        let count = try Int.fetchOne(cached: db, sql: "SELECT COUNT(*) FROM murals WHERE isEnabled") ?? 0
        let row = try Row.fetchOne(cached: db, sql: "SELECT * FROM sync_state WHERE id = 1")
        return MuralsSyncState(
            lastSuccess: try row.flatMap { try $0.decode(Date?.self, forColumn: "lastSuccess") },
            lastAttempt: try row.flatMap { try $0.decode(Date?.self, forColumn: "lastAttempt") },
            lastError: try row.flatMap { try $0.decode(String?.self, forColumn: "lastError") },
            muralCount: count
        )
    }
}
