import Foundation
import GRDB
import PocketCore
import Testing
@testable import Plates

/// The merge rule (`PlatesMerge`) on the real SQLite store: changes from two phones of one
/// person, arriving in any order and more than once, make one game.
@Suite("Game store merge rule")
struct PlatesMergeTests {
    private let catalog: StateCatalog
    /// A time after every trip the tests start (trips start at the real clock's now).
    private let base = Date().milliseconds + 60_000

    init() throws {
        catalog = try StateCatalog.bundled()
    }

    private func change(_ id: String, _ offset: Int64, _ kind: PlateChange.Kind, _ state: String? = nil) throws -> PlateChange {
        try PlateChange(id: id, at: base + offset, kind: kind, stateCode: state)
    }

    /// What a game looks like from outside: the current trip's spots with their times, and each
    /// finished trip's states, newest first.
    private struct Outcome: Equatable {
        let current: [String: Int64]
        let finished: [[String]]
    }

    private func outcome(_ game: PlatesGame) async throws -> Outcome {
        let snapshot = try await game.snapshot()
        var finished: [[String]] = []
        for summary in try await game.trips() where !summary.trip.isCurrent {
            finished.append(try await game.trip(id: summary.trip.id).spots.map(\.stateCode).sorted())
        }
        return Outcome(current: snapshot.spots.mapValues { $0.spottedAt.milliseconds }, finished: finished)
    }

    private func play(_ changes: [PlateChange]) async throws -> Outcome {
        let game = try PlatesDatabase.inMemory(catalog: catalog).game(for: .firstOwner)
        for change in changes { _ = try await game.apply(change) }
        return try await outcome(game)
    }

    @Test func twoPhonesMergeToOneGameWhateverOrderTheirOutboxesArrive() async throws {
        // Phone A and phone B, both offline, spot different and the same states; A resets, B
        // spots after that reset; A starts a new trip, B spots before and after it.
        let phoneA = [
            try change("a1", 100, .spot, "AL"), try change("a2", 200, .spot, "TX"), try change("a3", 450, .reset),
            try change("a4", 500, .spot, "NV"), try change("a5", 700, .unspot, "NV"), try change("a6", 1000, .newTrip),
            try change("a7", 1100, .spot, "WA"),
        ]
        let phoneB = [
            try change("b1", 150, .spot, "AL"), try change("b2", 300, .spot, "CA"), try change("b3", 600, .spot, "OR"),
            try change("b4", 650, .spot, "NV"), try change("b5", 900, .spot, "ID"), try change("b6", 1200, .spot, "WA"),
            try change("b7", 1300, .spot, "MT"),
        ]
        // By the rule: the reset at 450 clears AL, TX and CA; NV's latest change (700) is A's
        // un-spot; OR (600) and ID (900) come before the new trip at 1000, so they stay on the
        // finished trip; WA (first at 1100) and MT are on the new trip.
        let expected = Outcome(current: ["WA": base + 1100, "MT": base + 1300], finished: [["ID", "OR"]])
        #expect(try await play(phoneA + phoneB) == expected)
        #expect(try await play(phoneB + phoneA) == expected)
        #expect(try await play((phoneA + phoneB).reversed()) == expected)
        var generator = SplitMix64(seed: 13)
        for _ in 0..<8 {
            #expect(try await play((phoneA + phoneB).shuffled(using: &generator)) == expected)
        }
    }

    @Test func aResetCoversOnlyTheChangesMadeBeforeIt() async throws {
        // A spot made offline after the reset reaches the server before the reset does.
        let game = try PlatesDatabase.inMemory(catalog: catalog).game(for: .firstOwner)
        _ = try await game.apply(try change("1", 100, .spot, "AL"))
        _ = try await game.apply(try change("3", 300, .spot, "TX"))
        let after = try await game.apply(try change("2", 200, .reset))
        #expect(Set(after.game.spots.keys) == ["TX"])
    }

    @Test func theLatestChangeOfAStateWins() async throws {
        let game = try PlatesDatabase.inMemory(catalog: catalog).game(for: .firstOwner)
        // An un-spot made after a spot wins even when it arrives first ...
        _ = try await game.apply(try change("u", 200, .unspot, "AL"))
        #expect(try await game.apply(try change("s", 100, .spot, "AL")).game.isSpotted("AL") == false)
        // ... and a spot made after the un-spot wins, sighted at its own time.
        let game3 = try await game.apply(try change("s2", 300, .spot, "AL")).game
        #expect(game3.spots["AL"]?.spottedAt.milliseconds == base + 300)
        // Equal times are ordered by id, so both orders of arrival agree.
        let tieA = try await play([try change("x", 400, .spot, "CO"), try change("y", 400, .unspot, "CO")])
        let tieB = try await play([try change("y", 400, .unspot, "CO"), try change("x", 400, .spot, "CO")])
        #expect(tieA == tieB && tieA.current.isEmpty)
    }

    @Test func aResentChangeChangesNothing() async throws {
        let game = try PlatesDatabase.inMemory(catalog: catalog).game(for: .firstOwner)
        let spot = try change("same-id", 100, .spot, "AL")
        #expect(try await game.apply(spot).applied)
        let newTrip = try change("trip-id", 200, .newTrip)
        #expect(try await game.apply(newTrip).applied)
        let before = try await outcome(game)
        #expect(try await game.apply(spot).applied == false)
        #expect(try await game.apply(newTrip).applied == false)
        // Even a different change under a used id is the same change: never applied twice.
        #expect(try await game.apply(try change("same-id", 300, .spot, "TX")).applied == false)
        #expect(try await outcome(game) == before)
        #expect(try await game.trips().count == 2)
    }

    @Test func anotherPersonsChangesNeverTouchThisGame() async throws {
        let database = try PlatesDatabase.inMemory(catalog: catalog)
        let owner = database.game(for: .firstOwner), other = database.game(for: PersonID(rawValue: 2))
        _ = try await owner.apply(try change("1", 100, .spot, "AL"))
        // The same id is someone else's own change: applied to their game, not refused.
        #expect(try await other.apply(try change("1", 100, .spot, "TX")).applied)
        _ = try await other.apply(try change("2", 200, .reset))
        _ = try await other.apply(try change("3", 300, .newTrip))
        let mine = try await outcome(owner)
        #expect(mine == Outcome(current: ["AL": base + 100], finished: []))
        #expect(try await owner.trips().count == 1)
    }

    @Test func aNewTripArrivingLateMovesTheLaterSpotsToTheNewTrip() async throws {
        let game = try PlatesDatabase.inMemory(catalog: catalog).game(for: .firstOwner)
        for (id, offset, code) in [("1", Int64(100), "AL"), ("2", 300, "TX"), ("3", 400, "CA")] {
            _ = try await game.apply(try change(id, offset, .spot, code))
        }
        let after = try await game.apply(try change("n", 200, .newTrip)).game
        #expect(Set(after.spots.keys) == ["TX", "CA"])
        #expect(after.trip.startedAt.milliseconds == base + 200)
        #expect(try await outcome(game).finished == [["AL"]])
    }

    /// The store works most changes in incrementally and reads only what a late change needs; in
    /// any arrival order, every trip must hold exactly what the rule gives from the whole set:
    /// spans cut at each New Trip's time, and in each span `PlatesMerge.spots` of its changes.
    @Test(arguments: 0..<12)
    func everyArrivalOrderGivesWhatTheRuleGivesFromTheWholeSet(seed: Int) async throws {
        var random = SplitMix64(seed: UInt64(seed) &* 7919 &+ 1)
        let codes = ["AL", "AK", "AZ", "TX", "UT", "OR"]
        var changes: [PlateChange] = []
        for index in 0..<70 {
            // Few distinct times, so equal times (settled by id) happen often.
            let at = base - 100_000 + Int64(random.next(below: 40)) * 1_000
            let roll = random.next(below: 20)
            let kind: PlateChange.Kind = roll < 11 ? .spot : roll < 16 ? .unspot : roll < 18 ? .reset : .newTrip
            let state = kind == .spot || kind == .unspot ? codes[random.next(below: codes.count)] : nil
            let location = kind == .spot && random.next(below: 3) == 0 ? try Location(latitude: Double(index), longitude: 1) : nil
            changes.append(try PlateChange(id: "c\(random.next(below: 1000))-\(index)", at: at, kind: kind, stateCode: state, location: location))
        }
        let expected = Self.reference(changes)
        for round in 0..<3 {
            var order = changes
            order.shuffle(using: &random)
            // Some changes arrive twice.
            order += order.prefix(5)
            let database = try PlatesDatabase.inMemory(catalog: catalog)
            let game = database.game(for: .firstOwner)
            _ = try await game.setRecordsLocation(true)
            for change in order { _ = try await game.apply(change) }
            let stored = try await Self.stored(game)
            #expect(stored == expected, "seed \(seed), round \(round)")
        }
    }

    /// Each trip's spots, oldest trip first, as "code@time" (with "+" when a place was kept).
    private static func reference(_ changes: [PlateChange]) -> [[String]] {
        let bounds = Set(changes.filter { $0.kind == .newTrip }.map(\.at)).sorted()
        var spans: [[PlateChange]] = Array(repeating: [], count: bounds.count + 1)
        for change in changes {
            spans[bounds.lastIndex { $0 <= change.at }.map { $0 + 1 } ?? 0].append(change)
        }
        return spans.map { span in
            PlatesMerge.spots(span).map { "\($0.key)@\($0.value.at)\($0.value.location == nil ? "" : "+")" }.sorted()
        }
    }

    private static func stored(_ game: PlatesGame) async throws -> [[String]] {
        let ids = try await game.writer.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM trip WHERE personID = ? ORDER BY startedAt, id", arguments: [game.person.rawValue])
        }
        var trips: [[String]] = []
        for id in ids {
            let spots = try await game.trip(id: id).spots
            trips.append(spots.map { "\($0.stateCode)@\(ChangeTime.milliseconds($0.spottedAt))\($0.location == nil ? "" : "+")" }.sorted())
        }
        return trips
    }

    @Test func changesThatCannotBeAppliedSayWhy() async throws {
        #expect(throws: PlatesError.invalidChange("its id must be 1 to 100 printable ASCII characters")) {
            try PlateChange(id: "", at: 1, kind: .reset)
        }
        #expect(throws: PlatesError.invalidChange("its time must be milliseconds since 1970, before the year 10000")) {
            try PlateChange(id: "x", at: -1, kind: .reset)
        }
        #expect(throws: PlatesError.invalidChange("a spot needs a state")) { try PlateChange(id: "x", at: 1, kind: .spot) }
        #expect(throws: PlatesError.invalidChange("a reset is for every state, so it takes no state")) {
            try PlateChange(id: "x", at: 1, kind: .reset, stateCode: "AL")
        }
        let game = try PlatesDatabase.inMemory(catalog: catalog).game(for: .firstOwner)
        await #expect(throws: PlatesError.unknownState("ZZ")) { try await game.apply(try change("z", 1, .spot, "ZZ")) }
    }

    @Test func anUpgradedGameKeepsItsSpotsAndMergesLaterChanges() async throws {
        // A database as the previous schema (v2) wrote it: a finished trip and a current one.
        let queue = try DatabaseQueue()
        try PlatesDatabase.migrate(queue, upTo: "v2: trips and settings belong to a person")
        let t0 = Date(milliseconds: base - 50_000), t1 = Date(milliseconds: base - 40_000), t2 = Date(milliseconds: base - 30_000)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO trip(id, personID, startedAt, endedAt) VALUES (1, 1, ?, ?), (2, 1, ?, NULL)", arguments: [t0, t1, t1])
            try db.execute(sql: """
                INSERT INTO spot(tripID, stateCode, spottedAt, latitude, longitude)
                VALUES (1, 'AL', ?, NULL, NULL), (1, 'CA', ?, NULL, NULL), (2, 'NY', ?, 40.7, -74.0), (2, 'OR', ?, NULL, NULL)
                """, arguments: [t0, t0.addingTimeInterval(1), t2, t2])
        }
        let game = try PlatesDatabase(writer: queue, catalog: catalog).game(for: .firstOwner)
        let upgraded = try await game.snapshot()
        #expect(Set(upgraded.spots.keys) == ["NY", "OR"] && upgraded.spots["NY"]?.location != nil)
        // Later changes are merged with the upgraded spots, which are kept as changes of their own.
        let after = try await game.apply(try change("u", 100, .unspot, "OR")).game
        #expect(Set(after.spots.keys) == ["NY"])
        #expect(after.spots["NY"]?.spottedAt.milliseconds == t2.milliseconds)
        // A late spot on the finished trip's span re-works that trip out: its own spots stay.
        _ = try await game.apply(PlateChange(id: "late", at: t0.milliseconds + 5_000, kind: .spot, stateCode: "TX"))
        #expect(try await outcome(game).finished == [["AL", "CA", "TX"]])
    }

    @Test func anUpgradedGameKeepsItsTripsThroughAnExportAndAnImport() async throws {
        // A game from before the change log: no New Trip change marks where its second trip starts.
        let queue = try DatabaseQueue()
        try PlatesDatabase.migrate(queue, upTo: "v2: trips and settings belong to a person")
        let t0 = Date(milliseconds: base - 50_000), t1 = Date(milliseconds: base - 40_000), t2 = Date(milliseconds: base - 30_000)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO trip(id, personID, startedAt, endedAt) VALUES (1, 1, ?, ?), (2, 1, ?, NULL)", arguments: [t0, t1, t1])
            try db.execute(sql: """
                INSERT INTO spot(tripID, stateCode, spottedAt, latitude, longitude)
                VALUES (1, 'AL', ?, NULL, NULL), (1, 'NY', ?, NULL, NULL), (2, 'NY', ?, 40.7, -74.0), (2, 'OR', ?, NULL, NULL)
                """, arguments: [t0, t0.addingTimeInterval(1), t2, t2])
        }
        let exported = try await PlatesDatabase(writer: queue, catalog: catalog).game(for: .firstOwner).exported()
        #expect(exported.trips.count == 2 && !exported.changes.contains { $0.kind == "newTrip" })

        // Imported into someone on another Pocket, the two trips stay two, with their own spots;
        let moved = try PlatesDatabase.inMemory(catalog: catalog).game(for: PersonID(rawValue: 2))
        try await moved.importData(exported)
        #expect(try await moved.exported().trips == exported.trips)
        // and importing the file again changes nothing.
        let once = try await moved.exported()
        try await moved.importData(exported)
        #expect(try await moved.exported() == once)
    }
}

private extension Date {
    /// Milliseconds since 1970, as changes count time.
    var milliseconds: Int64 { ChangeTime.milliseconds(self) }

    init(milliseconds: Int64) {
        self = ChangeTime.date(milliseconds)
    }
}
