import Foundation
import GRDB
import PocketCore

/// One person's license plate game: their current trip, history and settings.
///
/// Made by `PlatesDatabase.game(for:)`. Every query and write is filtered by `person`, so one
/// person's trips, spots and settings can never be read or changed through another's game; a
/// trip id of someone else's is answered exactly like an id that does not exist.
public struct PlatesGame: Sendable {
    /// Whose game this is.
    public let person: PersonID
    let writer: any DatabaseWriter
    let catalog: StateCatalog
    private let memo: PlatesMemo

    init(person: PersonID, writer: any DatabaseWriter, catalog: StateCatalog, memo: PlatesMemo) {
        self.person = person
        self.writer = writer
        self.catalog = catalog
        self.memo = memo
    }

    // MARK: The game

    /// The current game, its spots and the person's settings (starting a first trip if needed).
    public func snapshot() async throws -> GameSnapshot {
        try await memo.snapshots.value(for: person) { try await readStartingTrip { db in try snapshot(db) } }
    }

    /// Marks a state spotted on the current trip; spotting it again changes nothing.
    public func spot(_ code: String, at date: Date, location: Location?) async throws -> GameSnapshot {
        try await apply(PlateChange(id: UUID().uuidString, at: ChangeTime.milliseconds(date), kind: .spot, stateCode: code, location: location)).game
    }

    /// Clears one state on the current trip.
    public func unspot(_ code: String) async throws -> GameSnapshot {
        try await apply(PlateChange(id: UUID().uuidString, at: ChangeTime.milliseconds(Date()), kind: .unspot, stateCode: code)).game
    }

    /// Clears every state on the current trip.
    public func resetGame() async throws -> GameSnapshot {
        try await apply(PlateChange(id: UUID().uuidString, at: ChangeTime.milliseconds(Date()), kind: .reset)).game
    }

    /// Finishes the current trip (kept in history) and starts a new, empty one.
    public func startNewTrip(at date: Date) async throws -> GameSnapshot {
        try await apply(PlateChange(id: UUID().uuidString, at: ChangeTime.milliseconds(date), kind: .newTrip)).game
    }

    /// Every trip of this person with its score, the current one first, then newest first;
    /// finished trips without a plate are left out.
    public func trips() async throws -> [TripSummary] {
        try await memo.trips.value(for: person) { try await readTrips() }
    }

    private func readTrips() async throws -> [TripSummary] {
        // Starting the trip first keeps the history's promise that the current trip is listed.
        try await readStartingTrip { db in
            // A finished trip without a single plate is not worth a line in the history.
            try Row.fetchAll(cached: db, sql: """
                SELECT trip.*, (SELECT COUNT(*) FROM spot WHERE spot.tripID = trip.id) AS score
                FROM trip WHERE personID = ? AND (endedAt IS NULL OR EXISTS (SELECT 1 FROM spot WHERE spot.tripID = trip.id))
                ORDER BY (endedAt IS NULL) DESC, startedAt DESC, id DESC
                """, arguments: [person.rawValue]).map { row in TripSummary(trip: try Trip(row: row), score: try row.decode(forColumn: "score")) }
        }
    }

    /// One of this person's trips and its spots, oldest spot first; `PlatesError.unknownTrip`
    /// for an id that does not exist or is someone else's.
    public func trip(id: Int64) async throws -> (summary: TripSummary, spots: [Spot]) {
        try await writer.read { db in
            // Filtered by person: another person's trip is "unknown", never shown.
            guard let row = try Row.fetchOne(cached: db, sql: "SELECT * FROM trip WHERE id = ? AND personID = ?", arguments: [id, person.rawValue]) else {
                throw PlatesError.unknownTrip(id)
            }
            let spots = try Spot.fetchAll(cached: db, sql: "SELECT * FROM spot WHERE tripID = ? ORDER BY spottedAt, stateCode", arguments: [id])
            return (TripSummary(trip: try Trip(row: row), score: spots.count), spots)
        }
    }

    /// Remembers whether sounds play.
    public func setMuted(_ muted: Bool) async throws -> GameSnapshot {
        try await setFlag("muted", muted)
    }

    /// Remembers whether spots record the browser's location.
    public func setRecordsLocation(_ records: Bool) async throws -> GameSnapshot {
        try await setFlag("recordsLocation", records)
    }
}

// MARK: - Helpers (shared with PlatesGame+Changes.swift)

extension PlatesGame {
    /// Runs `body` in a read, unless this person has no current trip yet (someone new, or a
    /// trip removed by hand): then starts one and runs `body` in that same write, so reads
    /// stay concurrent in the common case and a first visit still sees a playable game.
    func readStartingTrip<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let person = self.person
        let existing: T? = try await writer.read { db in
            try Self.currentTripRow(db, person: person) == nil ? nil : body(db)
        }
        if let existing { return existing }
        return try await writer.write { db in
            _ = try currentTrip(db)
            return try body(db)
        }
    }

    /// The person's trip being played, if any.
    static func currentTripRow(_ db: Database, person: PersonID) throws -> Row? {
        try Row.fetchOne(cached: db, sql: "SELECT * FROM trip WHERE personID = ? AND endedAt IS NULL", arguments: [person.rawValue])
    }

    /// The person's current trip, started now if they have none (inside the caller's write, so
    /// two first taps at once still make one trip: the unique index would refuse a second).
    func currentTrip(_ db: Database) throws -> Trip {
        if let row = try Self.currentTripRow(db, person: person) { return try Trip(row: row) }
        let now = ChangeTime.milliseconds(Date())
        try db.execute(sql: "INSERT INTO trip(personID, startedAt) VALUES (?, ?)", arguments: [person.rawValue, now])
        return Trip(id: db.lastInsertedRowID, startedAt: ChangeTime.date(now), endedAt: nil)
    }

    /// The current game inside the caller's transaction, so what a change answers is what it wrote.
    func snapshot(_ db: Database) throws -> GameSnapshot {
        guard let row = try Self.currentTripRow(db, person: person) else {
            throw PlatesError.unknownTrip(0)
        }
        let trip = try Trip(row: row)
        let spots = try Spot.fetchAll(cached: db, sql: "SELECT * FROM spot WHERE tripID = ?", arguments: [trip.id])
        let rows = try Row.fetchAll(cached: db, sql: "SELECT key, value FROM setting WHERE personID = ?", arguments: [person.rawValue])
        let settings = Dictionary(try rows.map { row -> (String, String) in (try row.decode(forColumn: "key"), try row.decode(forColumn: "value")) }) { first, _ in first }
        return GameSnapshot(
            trip: trip,
            spots: Dictionary(spots.map { ($0.stateCode, $0) }) { first, _ in first },
            isMuted: settings["muted"] == "1",
            recordsLocation: settings["recordsLocation"] == "1"
        )
    }

    /// The same person's game in a fresh store in memory: an import works out there what it
    /// would make, without touching this one.
    func scratchGame() throws -> PlatesGame {
        try PlatesDatabase.inMemory(catalog: catalog).game(for: person)
    }

    /// The catalog's spelling of a state code, or `PlatesError.unknownState`.
    func validated(_ code: String) throws -> String {
        guard let state = catalog.state(code: code) else { throw PlatesError.unknownState(code) }
        return state.code
    }

    /// Stores one of the person's on/off settings.
    func setFlag(_ key: String, _ value: Bool) async throws -> GameSnapshot {
        try await writer.write { db in
            _ = try currentTrip(db)
            try db.execute(
                sql: """
                    INSERT INTO setting(personID, key, value) VALUES (?, ?, ?)
                    ON CONFLICT(personID, key) DO UPDATE SET value = excluded.value
                    """,
                arguments: [person.rawValue, key, value ? "1" : "0"])
            return try snapshot(db)
        }
    }
}
