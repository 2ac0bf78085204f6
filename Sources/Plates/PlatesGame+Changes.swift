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
    /// The change is kept in the person's change log, then the spots it can affect are worked
    /// out again. Most changes are the latest of their trip (a tap made now), and then the rule
    /// reduces to doing the change: insert a spot (a second keeps the first sighting), delete it,
    /// clear the trip. A change that arrives after later ones (an outbox sent late) is merged by
    /// reading only what the rule needs: the trip's last Reset Game, then per state (that one
    /// state, or all fifty for a Reset) its last un-spot and the first spot after. So a change
    /// costs the same after ten thousand changes, in any pattern, as after ten, and the result is
    /// the same whatever order changes arrive in.
    ///
    /// A spot's location is kept only when the person chose to record where (their setting, read
    /// in the same transaction).
    public func apply(_ change: PlateChange) async throws -> ChangeOutcome {
        if let code = change.stateCode { _ = try validated(code) }
        return try await writer.write { db in
            _ = try currentTrip(db)
            let applied = try apply(change, in: db, keepingLocation: try recordsLocation(db))
            return ChangeOutcome(applied: applied, game: try snapshot(db))
        }
    }

    /// Applies one change inside the caller's transaction (the person's current trip already
    /// started), at most once per id; false for a resend. The location is kept only if
    /// `keepingLocation` (the person records where, or an import of what they recorded then).
    func apply(_ change: PlateChange, in db: Database, keepingLocation: Bool) throws -> Bool {
        let seen = try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM plateChange WHERE personID = ? AND id = ?)",
            arguments: [person.rawValue, change.id]) ?? false
        if seen { return false }
        let change = keepingLocation ? change : change.withoutLocation
        try db.execute(
            sql: "INSERT INTO plateChange(personID, id, at, kind, stateCode, latitude, longitude) VALUES (?, ?, ?, ?, ?, ?, ?)",
            arguments: [person.rawValue, change.id, change.at, change.kind.rawValue, change.stateCode,
                        change.location?.latitude, change.location?.longitude])
        let log = ChangeLog(db: db, person: person)
        if change.kind == .newTrip {
            try startTrip(at: change, log: log)
        } else {
            try merge(change, span: try log.span(containing: change.at))
        }
        return true
    }
}

// MARK: - Private

extension PlatesGame {
    /// Whether the person records where they spot.
    func recordsLocation(_ db: Database) throws -> Bool {
        try String.fetchOne(db, sql: "SELECT value FROM setting WHERE personID = ? AND key = 'recordsLocation'", arguments: [person.rawValue]) == "1"
    }

}

private extension PlatesGame {
    /// Merges a spot, un-spot or Reset Game into the trip of `span`.
    func merge(_ change: PlateChange, span: ChangeLog.Span) throws {
        let log = span.log
        if try !log.hasChange(after: change, in: span) {
            // The latest change of its trip: the rule says to do it.
            switch change.kind {
            case .spot:
                guard let code = change.stateCode else { return }
                try log.db.execute(
                    sql: "INSERT OR IGNORE INTO spot(tripID, stateCode, spottedAt, latitude, longitude) VALUES (?, ?, ?, ?, ?)",
                    arguments: [span.trip.id, code, change.at, change.location?.latitude, change.location?.longitude])
            case .unspot:
                try log.db.execute(sql: "DELETE FROM spot WHERE tripID = ? AND stateCode = ?", arguments: [span.trip.id, change.stateCode])
            case .reset:
                try log.db.execute(sql: "DELETE FROM spot WHERE tripID = ?", arguments: [span.trip.id])
            case .newTrip:
                return
            }
            return
        }
        switch change.kind {
        case .spot, .unspot:
            guard let code = change.stateCode else { return }
            try rebuild(span, only: code)
        case .reset:
            // Only the last Reset of a trip decides anything: everything before it is cleared.
            if let last = try log.lastReset(in: span), last.id == change.id { try rebuild(span, only: nil) }
        case .newTrip:
            return
        }
    }

    /// New Trip at the change's time: the trip that time falls in ends there and a new trip
    /// starts (finished already when a later trip exists). Changes made before stay on the old
    /// trip, changes made after count on the new one.
    func startTrip(at change: PlateChange, log: ChangeLog) throws {
        let span = try log.span(containing: change.at)
        let time = change.at
        // A trip already starts at this time: nothing to split.
        if span.trip.start == time, !span.isFirst { return }
        // The first trip also holds everything before it: keep its start before the new one's.
        let start = span.isFirst ? min(span.trip.start, time - 1) : span.trip.start
        try log.db.execute(
            sql: "UPDATE trip SET startedAt = ?, endedAt = ? WHERE id = ? AND personID = ?",
            arguments: [start, time, span.trip.id, person.rawValue])
        try log.db.execute(
            sql: "INSERT INTO trip(personID, startedAt, endedAt) VALUES (?, ?, ?)",
            arguments: [person.rawValue, time, span.trip.endedAt])
        // Pressed now, the usual case: no change of the old trip is made at this time or later, so
        // the old trip keeps its spots and the new one starts empty.
        guard try log.hasChange(madeFrom: time, in: span, besides: change.id) else { return }
        try rebuild(try log.span(containing: time), only: nil)
        try rebuild(try log.span(containing: time - 1), only: nil)
    }

    /// Works the trip's spots out again from its last Reset Game on: every state, or only `code`.
    ///
    /// By the rule a state's sighting is the first spot after its last clearing (its last un-spot
    /// or the trip's last Reset, whichever came later), so each state is two index look-ups
    /// however many changes the trip holds: a late change costs the same after 10,000 toggles of
    /// one state as after ten (bench/plates-changes.sh, "toggles of one state").
    func rebuild(_ span: ChangeLog.Span, only code: String?) throws {
        let log = span.log
        let reset = try log.lastReset(in: span)
        let codes = code.map { [$0] } ?? catalog.states.map(\.code)
        if let code {
            try log.db.execute(sql: "DELETE FROM spot WHERE tripID = ? AND stateCode = ?", arguments: [span.trip.id, code])
        } else {
            try log.db.execute(sql: "DELETE FROM spot WHERE tripID = ?", arguments: [span.trip.id])
        }
        for state in codes {
            guard let sighting = try log.sighting(of: state, in: span, after: reset) else { continue }
            try log.db.execute(
                sql: "INSERT INTO spot(tripID, stateCode, spottedAt, latitude, longitude) VALUES (?, ?, ?, ?, ?)",
                arguments: [span.trip.id, state, sighting.at, sighting.location?.latitude, sighting.location?.longitude])
        }
    }
}

/// One person's logged changes and trips, read by index inside the caller's transaction: a trip
/// holds the changes from its start to the next trip's start; the first also holds everything
/// before it, the last everything after.
struct ChangeLog {
    /// A trip and the times of changes it holds.
    struct Span {
        /// The trip's bounds as stored.
        struct Trip {
            let id: Int64
            let start: Int64
            let endedAt: Int64?
        }

        let log: ChangeLog
        let trip: Trip
        /// Whether no trip starts before this one.
        let isFirst: Bool
        /// The times of changes the trip holds.
        let times: Range<Int64>
    }

    let db: Database
    let person: PersonID

    /// The trip whose span holds `time` (trips ordered by start, then id). There is always one:
    /// the caller started the current trip in the same transaction.
    func span(containing time: Int64) throws -> Span {
        let columns = "id, startedAt, endedAt"
        let containing = try Row.fetchOne(
            db, sql: "SELECT \(columns) FROM trip WHERE personID = ? AND startedAt <= ? ORDER BY startedAt DESC, id DESC LIMIT 1",
            arguments: [person.rawValue, time])
        let row: Row
        if let containing {
            row = containing
        } else if let first = try Row.fetchOne(db, sql: "SELECT \(columns) FROM trip WHERE personID = ? ORDER BY startedAt, id LIMIT 1",
                                               arguments: [person.rawValue]) {
            row = first
        } else {
            throw PlatesError.unknownTrip(0)
        }
        let trip = Span.Trip(id: try row.decode(forColumn: "id"), start: try row.decode(forColumn: "startedAt"),
                             endedAt: try row.decode(forColumn: "endedAt"))
        let isFirst = try !(Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM trip WHERE personID = ? AND (startedAt < ? OR (startedAt = ? AND id < ?)))",
            arguments: [person.rawValue, trip.start, trip.start, trip.id]) ?? false)
        let next = try Int64.fetchOne(
            db, sql: "SELECT startedAt FROM trip WHERE personID = ? AND (startedAt > ? OR (startedAt = ? AND id > ?)) ORDER BY startedAt, id LIMIT 1",
            arguments: [person.rawValue, trip.start, trip.start, trip.id])
        return Span(log: self, trip: trip, isFirst: isFirst, times: (isFirst ? Int64.min : trip.start)..<(next ?? Int64.max))
    }

    /// Whether the span holds a change that comes after `change` in the rule's order.
    func hasChange(after change: PlateChange, in span: Span) throws -> Bool {
        try Bool.fetchOne(
            db, sql: """
                SELECT EXISTS (SELECT 1 FROM plateChange WHERE personID = ? AND at >= ? AND at < ? AND kind != 'newTrip'
                    AND (at > ? OR id > ?))
                """,
            // `at >= ?` bounds the index range from below: SQLite does not use the OR for it, and
            // without it every earlier change of the person was read, so a tap cost more each month.
            arguments: [person.rawValue, change.at, span.times.upperBound, change.at, change.id]) ?? false
    }

    /// Whether the span holds a change other than `id` made at `time` or later (which a New Trip
    /// at `time` moves to the trip it starts, whatever their ids).
    func hasChange(madeFrom time: Int64, in span: Span, besides id: String) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM plateChange WHERE personID = ? AND at >= ? AND at < ? AND kind != 'newTrip' AND id != ?)",
            arguments: [person.rawValue, time, span.times.upperBound, id]) ?? false
    }

    /// The span's last Reset Game in the rule's order, if it has one.
    func lastReset(in span: Span) throws -> PlateChange? {
        // SQLite's BINARY collation orders ids byte by byte, as `PlateChange.precedes` does.
        let row = try Row.fetchOne(
            db, sql: "SELECT * FROM plateChange WHERE personID = ? AND kind = 'reset' AND at >= ? AND at < ? ORDER BY at DESC, id DESC LIMIT 1",
            arguments: [person.rawValue, span.times.lowerBound, span.times.upperBound])
        return try row.flatMap { try PlateChange(row: $0) }
    }

    /// Where `state` stands in the span by the merge rule: the first spot after its last clearing
    /// (its last un-spot, or `reset` when that came later), nil when none follows.
    func sighting(of state: String, in span: Span, after reset: PlateChange?) throws -> PlatesMerge.Sighting? {
        // Cached statements: a Reset asks this of all fifty states, and parsing the SQL each time
        // cost more than the look-ups themselves.
        let lastUnspot = try db.cachedStatement(sql: """
            SELECT at, id FROM plateChange INDEXED BY plateChange_stateKind
            WHERE personID = ? AND stateCode = ? AND kind = 'unspot' AND at >= ? AND at < ?
            ORDER BY at DESC, id DESC LIMIT 1
            """)
        let unspot = try Row.fetchOne(lastUnspot, arguments: [person.rawValue, state, span.times.lowerBound, span.times.upperBound])
        var clearing: (at: Int64, id: String)? = reset.map { ($0.at, $0.id) }
        if let unspot {
            let at: Int64 = try unspot.decode(forColumn: "at"), id: String = try unspot.decode(forColumn: "id")
            // SQLite's BINARY collation orders ids byte by byte, as `PlateChange.precedes` does.
            if clearing.map({ $0.at < at || ($0.at == at && $0.id.utf8.lexicographicallyPrecedes(id.utf8)) }) ?? true {
                clearing = (at, id)
            }
        }
        let after = clearing.map { _ in " AND (at > ? OR (at = ? AND id > ?))" } ?? ""
        var arguments: StatementArguments = [person.rawValue, state, max(span.times.lowerBound, clearing?.at ?? Int64.min), span.times.upperBound]
        if let clearing { arguments += [clearing.at, clearing.at, clearing.id] }
        let firstSpot = try db.cachedStatement(sql: """
            SELECT * FROM plateChange INDEXED BY plateChange_stateKind
            WHERE personID = ? AND stateCode = ? AND kind = 'spot' AND at >= ? AND at < ?\(after)
            ORDER BY at, id LIMIT 1
            """)
        let row = try Row.fetchOne(firstSpot, arguments: arguments)
        guard let spot = try row.flatMap({ try PlateChange(row: $0) }) else { return nil }
        return PlatesMerge.Sighting(at: spot.at, location: spot.location)
    }
}

extension PlateChange {
    /// The same change without its location.
    var withoutLocation: PlateChange {
        guard location != nil, let copy = try? PlateChange(id: id, at: at, kind: kind, stateCode: stateCode) else { return self }
        return copy
    }
}
