import Foundation
import GRDB
import PocketCore

/// One person's Plates data as it leaves or enters Pocket (the `plates` part of a personal
/// export): their settings, every change they made (which the game is worked out from) and, for
/// a reader, the trips and spots those changes give.
public struct PlatesExport: Codable, Sendable, Equatable {
    /// One logged change, as the outbox sends it.
    public struct Change: Codable, Sendable, Equatable {
        /// The change's id (chosen by the phone).
        public var id: String
        /// When it was made, milliseconds since 1970.
        public var at: Int64
        /// `spot`, `unspot`, `reset` or `newTrip`.
        public var kind: String
        /// The state's postal code, for a spot or an un-spot.
        public var state: String?
        /// Where, for a spot recorded with its place.
        public var latitude: Double?
        /// Where, for a spot recorded with its place.
        public var longitude: Double?
    }

    /// A trip with its spots, worked out from the changes. An import takes where each trip starts
    /// and refuses a file whose trips are not what its changes make (`importData`).
    public struct TripRecord: Codable, Sendable, Equatable {
        /// A state spotted on the trip.
        public struct SpotRecord: Codable, Sendable, Equatable {
            /// The state's postal code.
            public var state: String
            /// When it was spotted, milliseconds since 1970.
            public var spottedAt: Int64
            /// Where, if recorded.
            public var latitude: Double?
            /// Where, if recorded.
            public var longitude: Double?
        }

        /// When the trip started, milliseconds since 1970.
        public var startedAt: Int64
        /// When it ended; nil for the trip being played.
        public var endedAt: Int64?
        /// Its spots, by state.
        public var spots: [SpotRecord]
    }

    /// Whether sounds are muted.
    public var muted: Bool
    /// Whether spots record where they were made.
    public var recordsLocation: Bool
    /// When the person's first trip started, so an import into someone new starts it there too.
    public var firstTripStartedAt: Int64?
    /// Every change, oldest first (ties by id).
    public var changes: [Change]
    /// The trips, oldest first.
    public var trips: [TripRecord]
}

extension PlatesGame {
    /// The person's Plates data, read in one transaction.
    public func exported() async throws -> PlatesExport {
        let person = self.person
        return try await writer.read { db in
            let settings = Dictionary(try Row.fetchAll(db, sql: "SELECT key, value FROM setting WHERE personID = ?", arguments: [person.rawValue])
                .map { row -> (String, String) in (try row.decode(forColumn: "key"), try row.decode(forColumn: "value")) }) { first, _ in first }
            let changes = try Row.fetchAll(db, sql: "SELECT * FROM plateChange WHERE personID = ? ORDER BY at, id", arguments: [person.rawValue])
                .map { row in
                    PlatesExport.Change(id: try row.decode(forColumn: "id"), at: try row.decode(forColumn: "at"), kind: try row.decode(forColumn: "kind"),
                                        state: try row.decode(forColumn: "stateCode"), latitude: try row.decode(forColumn: "latitude"),
                                        longitude: try row.decode(forColumn: "longitude"))
                }
            let trips = try Row.fetchAll(db, sql: "SELECT id, startedAt, endedAt FROM trip WHERE personID = ? ORDER BY startedAt, id", arguments: [person.rawValue])
                .map { row in
                    let spots = try Row.fetchAll(db, sql: "SELECT * FROM spot WHERE tripID = ? ORDER BY stateCode", arguments: [try row.decode(Int64.self, forColumn: "id")])
                        .map { spot in
                            PlatesExport.TripRecord.SpotRecord(state: try spot.decode(forColumn: "stateCode"), spottedAt: try spot.decode(forColumn: "spottedAt"),
                                                               latitude: try spot.decode(forColumn: "latitude"), longitude: try spot.decode(forColumn: "longitude"))
                        }
                    return PlatesExport.TripRecord(startedAt: try row.decode(forColumn: "startedAt"), endedAt: try row.decode(forColumn: "endedAt"), spots: spots)
                }
            return PlatesExport(muted: settings["muted"] == "1", recordsLocation: settings["recordsLocation"] == "1",
                                firstTripStartedAt: trips.first?.startedAt, changes: changes, trips: trips)
        }
    }

    /// Brings an export into this person's game in one transaction: the settings, then every
    /// change through the same merge as a phone's (each id at most once, so importing twice
    /// changes nothing). Someone with no trip yet starts their first where the export's did.
    ///
    /// The trips are worked out from the changes, as on the Pocket that wrote them, with one
    /// thing taken from `trips` itself: where each trip starts. A game from before the change log
    /// has trips no New Trip change marks, and the import starts them as one would, so they stay
    /// trips of their own. What the file's changes make, worked out first in a store in memory,
    /// must then be what `trips` lists (times, spots, places); an edited `trips` is refused with
    /// its first difference rather than quietly ignored. An empty `trips` lists nothing to check.
    /// Everything is checked before anything is written, so a refusal changes nothing.
    ///
    /// The checked changes are then written `importBatch` at a time, each batch its own
    /// transaction, so other people's taps go in between however large the file (a file of
    /// 120,000 changes once held every other write for over 30 s). `progress` hears how many are
    /// written after each batch; should writing stop part-way (a full disk), the error says how
    /// far it got, and importing the file again finishes it, since each change is applied once.
    public func importData(_ data: PlatesExport, progress: (@Sendable (_ written: Int, _ total: Int) -> Void)? = nil) async throws {
        var changes = try data.changes.map { change -> PlateChange in
            guard let kind = PlateChange.Kind(rawValue: change.kind) else { throw PlatesError.invalidChange("'\(change.kind)' is not a kind of change") }
            var location: Location?
            switch (change.latitude, change.longitude) {
            case let (latitude?, longitude?): location = try Location(latitude: latitude, longitude: longitude)
            case (nil, nil): location = nil
            default: throw PlatesError.invalidLocation
            }
            let made = try PlateChange(id: change.id, at: change.at, kind: kind, stateCode: change.state, location: location)
            if let code = made.stateCode { _ = try validated(code) }
            return made
        }
        if let start = data.firstTripStartedAt, !(0...PlateChange.latestTime).contains(start) {
            throw PlatesError.invalidChange("the first trip's start must be milliseconds since 1970, before the year 10000")
        }
        changes += try Self.tripStarts(data, besides: changes)
        if !data.trips.isEmpty {
            let scratch = try scratchGame()
            try await scratch.write(data, changes: changes)
            if let difference = Self.firstDifference(listed: data.trips, made: try await scratch.exported().trips) {
                throw PlatesError.tripsDisagree(difference)
            }
        }
        try await write(data, changes: changes, progress: progress)
    }

    /// How many changes an import writes per transaction: a few hundred milliseconds of writing
    /// at most, so another person's tap waits no longer than that.
    static let importBatch = 500
}

private extension PlatesGame {
    /// Writes the settings (and the first trip), then the checked changes in batches of
    /// `importBatch`, oldest first, each batch one transaction.
    func write(_ data: PlatesExport, changes: [PlateChange], progress: (@Sendable (Int, Int) -> Void)? = nil) async throws {
        let person = self.person
        try await writer.write { db in
            let hasTrip = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM trip WHERE personID = ?)", arguments: [person.rawValue]) ?? false
            if !hasTrip, let start = data.firstTripStartedAt {
                try db.execute(sql: "INSERT INTO trip(personID, startedAt) VALUES (?, ?)", arguments: [person.rawValue, start])
            }
            _ = try currentTrip(db)
            for (key, value) in [("muted", data.muted), ("recordsLocation", data.recordsLocation)] {
                try db.execute(
                    sql: "INSERT INTO setting(personID, key, value) VALUES (?, ?, ?) ON CONFLICT(personID, key) DO UPDATE SET value = excluded.value",
                    arguments: [person.rawValue, key, value ? "1" : "0"])
            }
        }
        let ordered = changes.sorted(by: PlateChange.precedes)
        var written = 0
        while written < ordered.count {
            let batch = ordered[written..<min(written + Self.importBatch, ordered.count)]
            do {
                try await writer.write { db in
                    _ = try currentTrip(db)
                    // The places were recorded with the person's consent when they were made: keep them.
                    for change in batch { _ = try apply(change, in: db, keepingLocation: true) }
                }
            } catch {
                throw PlatesError.importStopped(written: written, total: ordered.count, reason: "\(error)")
            }
            written += batch.count
            progress?(written, ordered.count)
        }
    }

    /// A New Trip change for each trip in `trips` (but the first) that no New Trip among
    /// `changes` starts. Its id comes from its time, so importing the file twice adds it once.
    static func tripStarts(_ data: PlatesExport, besides changes: [PlateChange]) throws -> [PlateChange] {
        let marked = Set(changes.filter { $0.kind == .newTrip }.map(\.at))
        let starts = Set(data.trips.map(\.startedAt).sorted().dropFirst()).subtracting(marked)
        // A start no change could have is left to the comparison, which names it.
        return try starts.filter { (0...PlateChange.latestTime).contains($0) }.sorted()
            .map { try PlateChange(id: "import-trip-\($0)", at: $0, kind: .newTrip) }
    }

    /// The first way `listed` (a file's trips) differs from `made` (what its changes make), in words; nil when they agree.
    static func firstDifference(listed: [PlatesExport.TripRecord], made: [PlatesExport.TripRecord]) -> String? {
        let order = { (a: PlatesExport.TripRecord, b: PlatesExport.TripRecord) in
            (a.startedAt, a.endedAt ?? Int64.max) < (b.startedAt, b.endedAt ?? Int64.max)
        }
        let listed = listed.sorted(by: order), made = made.sorted(by: order)
        guard listed.count == made.count else { return "trips lists \(listed.count) trips where its changes make \(made.count)" }
        for (index, (file, worked)) in zip(listed, made).enumerated() {
            let trip = "trip \(index + 1) of \(listed.count)"
            if file.startedAt != worked.startedAt {
                return "\(trip) starts at \(text(file.startedAt)) where its changes start it at \(text(worked.startedAt))"
            }
            if file.endedAt != worked.endedAt {
                return "\(trip) \(ending(file.endedAt)) where by its changes it \(ending(worked.endedAt))"
            }
            let fileSpots = Dictionary(grouping: file.spots, by: \.state), workedSpots = Dictionary(grouping: worked.spots, by: \.state)
            for state in Set(fileSpots.keys).union(workedSpots.keys).sorted() where fileSpots[state] != workedSpots[state] {
                let name = "“\(state.prefix(12))”"
                switch (fileSpots[state]?.count ?? 0, workedSpots[state]?.count ?? 0) {
                case (0, _): return "\(trip) leaves out the spot of \(name) its changes make"
                case (_, 0): return "\(trip) lists a spot of \(name) its changes do not make"
                case (1, 1): return "\(trip) lists the spot of \(name) at another time or place than its changes make it"
                default: return "\(trip) lists \(name) more than once"
                }
            }
        }
        return nil
    }

    /// A time in words: ISO 8601, UTC.
    static func text(_ milliseconds: Int64) -> String {
        ISO8601DateFormatter().string(from: ChangeTime.date(milliseconds))
    }

    static func ending(_ endedAt: Int64?) -> String {
        endedAt.map { "ends at \(text($0))" } ?? "is being played"
    }
}
