import Foundation
import GRDB
import PocketCore

/// What applying a change did.
public struct ChangeOutcome: Sendable, Equatable {
    /// False when the change's id had already been applied (a resend): nothing changed.
    public let applied: Bool
    /// The current game afterwards.
    public let game: GameSnapshot
}

extension PlatesGame {
    /// Applies one change by `PlatesMerge`'s rule, at most once per id, in one transaction.
    ///
    /// The change is kept in the person's change log, then the trip its time falls in (and, for
    /// a New Trip, the trip it starts) is worked out again from every change logged for that
    /// trip's span, so the result is the same whatever order changes arrive in.
    public func apply(_ change: PlateChange) async throws -> ChangeOutcome {
        if let code = change.stateCode { _ = try validated(code) }
        return try await writer.write { db in
            _ = try currentTrip(db)
            let seen = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM plateChange WHERE personID = ? AND id = ?)",
                arguments: [person.rawValue, change.id]) ?? false
            if seen { return ChangeOutcome(applied: false, game: try snapshot(db)) }
            try db.execute(
                sql: "INSERT INTO plateChange(personID, id, at, kind, stateCode, latitude, longitude) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [person.rawValue, change.id, change.at, change.kind.rawValue, change.stateCode,
                            change.location?.latitude, change.location?.longitude])
            var spans = try TripSpans(db, person: person)
            let index = spans.index(containing: change.at)
            if change.kind == .newTrip {
                if let started = try split(db, spans: spans, at: index, time: change.at) {
                    spans = try TripSpans(db, person: person)
                    try rebuild(db, spans: spans, index: spans.index(of: started))
                }
                try rebuild(db, spans: spans, index: spans.index(containing: change.at - 1))
            } else {
                try rebuild(db, spans: spans, index: index)
            }
            return ChangeOutcome(applied: true, game: try snapshot(db))
        }
    }
}

// MARK: - Private

private extension PlatesGame {
    /// Ends the trip at `index` at `time` and starts a new one there (finished, if a later trip
    /// already exists). Returns the new trip's id, or nil when a trip already starts at `time`.
    func split(_ db: Database, spans: TripSpans, at index: Int, time: Int64) throws -> Int64? {
        let trip = spans.trips[index]
        if trip.start == time, index > 0 { return nil }
        // The first trip also holds everything before it: keep its start before the new one's.
        let start = index == 0 ? min(trip.start, time - 1) : trip.start
        try db.execute(
            sql: "UPDATE trip SET startedAt = ?, endedAt = ? WHERE id = ? AND personID = ?",
            arguments: [Date(milliseconds: start), Date(milliseconds: time), trip.id, person.rawValue])
        try db.execute(
            sql: "INSERT INTO trip(personID, startedAt, endedAt) VALUES (?, ?, ?)",
            arguments: [person.rawValue, Date(milliseconds: time), trip.endedAt])
        return db.lastInsertedRowID
    }

    /// Works the spots of the trip at `index` out again from the changes made in its span.
    func rebuild(_ db: Database, spans: TripSpans, index: Int) throws {
        let trip = spans.trips[index]
        let range = spans.range(of: index)
        let changes = try Row.fetchAll(
            db, sql: "SELECT * FROM plateChange WHERE personID = ? AND at >= ? AND at < ?",
            arguments: [person.rawValue, range.lowerBound, range.upperBound]
        ).compactMap(PlateChange.init(row:))
        try db.execute(sql: "DELETE FROM spot WHERE tripID = ?", arguments: [trip.id])
        for (code, sighting) in PlatesMerge.spots(changes) {
            try db.execute(
                sql: "INSERT INTO spot(tripID, stateCode, spottedAt, latitude, longitude) VALUES (?, ?, ?, ?, ?)",
                arguments: [trip.id, code, Date(milliseconds: sighting.at), sighting.location?.latitude, sighting.location?.longitude])
        }
    }
}

/// A person's trips in order of their starts, which cut time into spans: each trip holds the
/// changes from its start to the next trip's start; the first also holds everything before it,
/// the last everything after.
struct TripSpans {
    /// One trip's bounds.
    struct Entry {
        let id: Int64
        let start: Int64
        let endedAt: Date?
    }

    /// Oldest start first (ties by id).
    let trips: [Entry]

    /// Reads the person's trips; there is always at least one (the caller started it).
    init(_ db: Database, person: PersonID) throws {
        trips = try Row.fetchAll(
            db, sql: "SELECT id, startedAt, endedAt FROM trip WHERE personID = ? ORDER BY startedAt, id",
            arguments: [person.rawValue]
        ).map { row in
            let started: Date = row["startedAt"]
            return Entry(id: row["id"], start: started.milliseconds, endedAt: row["endedAt"])
        }
        guard !trips.isEmpty else { throw PlatesError.unknownTrip(0) }
    }

    /// The trip whose span holds `time`.
    func index(containing time: Int64) -> Int {
        trips.lastIndex { $0.start <= time } ?? 0
    }

    /// The position of trip `id` (the first when it is not found, which cannot happen inside
    /// the write that made it).
    func index(of id: Int64) -> Int {
        trips.firstIndex { $0.id == id } ?? 0
    }

    /// The times of changes the trip at `index` holds.
    func range(of index: Int) -> Range<Int64> {
        let lower = index == 0 ? Int64.min : trips[index].start
        let upper = index + 1 < trips.count ? trips[index + 1].start : Int64.max
        return lower..<upper
    }
}

extension PlateChange {
    /// Reads a logged change; nil for a row no longer valid (never written so), which is skipped.
    init?(row: Row) {
        guard let kind = Kind(rawValue: row["kind"]) else { return nil }
        let latitude: Double? = row["latitude"], longitude: Double? = row["longitude"]
        let location = latitude.flatMap { latitude in longitude.flatMap { try? Location(latitude: latitude, longitude: $0) } }
        guard let change = try? PlateChange(id: row["id"], at: row["at"], kind: kind, stateCode: row["stateCode"], location: location) else {
            return nil
        }
        self = change
    }
}
