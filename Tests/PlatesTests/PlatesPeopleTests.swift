import Foundation
import GRDB
import PocketCore
import Testing
@testable import Plates

/// Two people on one game database: each has their own trips, spots and settings, and nothing
/// of one can be read or changed through the other's game.
@Suite("Game store per person")
struct PlatesPeopleTests {
    private static let owner = PersonID.firstOwner
    private static let other = PersonID(rawValue: 2)

    private let catalog: StateCatalog
    private let database: PlatesDatabase

    init() throws {
        catalog = try StateCatalog.bundled()
        database = try PlatesDatabase.inMemory(catalog: catalog)
    }

    @Test func eachPersonHasTheirOwnCurrentTrip() async throws {
        let first = try await database.game(for: Self.owner).snapshot()
        let second = try await database.game(for: Self.other).snapshot()
        #expect(first.trip.isCurrent && second.trip.isCurrent)
        #expect(first.trip.id != second.trip.id)
        // Starting a new trip for one person leaves the other's current trip playing.
        _ = try await database.game(for: Self.owner).spot("AL", at: Date(), location: nil)
        let next = try await database.game(for: Self.owner).startNewTrip(at: Date())
        #expect(next.trip.id != first.trip.id)
        #expect(try await database.game(for: Self.other).snapshot().trip == second.trip)
        #expect(try await database.game(for: Self.other).trips().map(\.trip.id) == [second.trip.id])
    }

    @Test func spotsAreOnlyTheirOwn() async throws {
        let owner = database.game(for: Self.owner), other = database.game(for: Self.other)
        let early = Date(timeIntervalSince1970: 1_000)
        _ = try await owner.spot("AL", at: early, location: nil)
        _ = try await owner.spot("TX", at: early, location: nil)
        #expect(try await other.snapshot().score == 0)
        // The other person spotting, clearing and resetting changes nothing of the owner's.
        _ = try await other.spot("AL", at: Date(timeIntervalSince1970: 2_000), location: nil)
        _ = try await other.unspot("TX")
        _ = try await other.resetGame()
        let game = try await owner.snapshot()
        #expect(game.score == 2)
        #expect(game.spots["AL"]?.spottedAt == early)
        #expect(try await other.snapshot().score == 0)
    }

    @Test func settingsAreOnlyTheirOwn() async throws {
        let owner = database.game(for: Self.owner), other = database.game(for: Self.other)
        _ = try await owner.setMuted(true)
        _ = try await owner.setRecordsLocation(true)
        let theirs = try await other.snapshot()
        #expect(!theirs.isMuted && !theirs.recordsLocation)
        _ = try await other.setMuted(false)
        let mine = try await owner.snapshot()
        #expect(mine.isMuted && mine.recordsLocation)
    }

    @Test func aTripOfOnePersonIsUnknownToAnother() async throws {
        let owner = database.game(for: Self.owner), other = database.game(for: Self.other)
        _ = try await owner.spot("CO", at: Date(), location: nil)
        let finished = try await owner.snapshot().trip.id
        _ = try await owner.startNewTrip(at: Date())
        #expect(try await owner.trip(id: finished).spots.map(\.stateCode) == ["CO"])
        // Asked by id, as `/plates/trips/:id` does: the same answer as for an id that never existed.
        await #expect(throws: PlatesError.unknownTrip(finished)) { try await other.trip(id: finished) }
        let current = try await owner.snapshot().trip.id
        await #expect(throws: PlatesError.unknownTrip(current)) { try await other.trip(id: current) }
        #expect(try await other.trips().allSatisfy { $0.trip.id != finished && $0.trip.id != current })
    }

    @Test func someoneAddedLaterGetsATripOnFirstUse() async throws {
        // People are added while Pocket runs, long after the database was opened and migrated.
        let newcomer = database.game(for: PersonID(rawValue: 7))
        let game = try await newcomer.spot("WY", at: Date(), location: nil)
        #expect(game.trip.isCurrent && game.score == 1)
        #expect(try await newcomer.trips().count == 1)
        // Several first visits at once still start exactly one trip.
        let latecomer = database.game(for: PersonID(rawValue: 8))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { _ = try await latecomer.snapshot() } }
            try await group.waitForAll()
        }
        #expect(try await latecomer.trips().count == 1)
    }
}

/// The folder the previous (single-user) release wrote: upgrading gives all of it to the owner.
@Suite("Game store upgrade")
struct PlatesUpgradeTests {
    @Test func thePreviousReleasesGameBecomesTheOwners() async throws {
        let url = try copyOfPreviousRelease("plates.sqlite")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let database = try PlatesDatabase.onDisk(at: url, catalog: try StateCatalog.bundled())

        let owner = database.game(for: .firstOwner)
        let game = try await owner.snapshot()
        #expect(Set(game.spots.keys) == ["NY", "OR"])
        #expect(game.isMuted && game.recordsLocation)
        let trips = try await owner.trips()
        #expect(trips.count == 2)
        #expect(trips.first?.trip.id == game.trip.id)
        let finished = try #require(trips.last)
        #expect(!finished.trip.isCurrent && finished.score == 3)
        #expect(Set(try await owner.trip(id: finished.trip.id).spots.map(\.stateCode)) == ["AL", "CA", "TX"])

        let other = database.game(for: PersonID(rawValue: 2))
        let theirs = try await other.snapshot()
        #expect(theirs.score == 0 && !theirs.isMuted && !theirs.recordsLocation)
        #expect(try await other.trips().map(\.trip.id) == [theirs.trip.id])
        await #expect(throws: PlatesError.unknownTrip(finished.trip.id)) { try await other.trip(id: finished.trip.id) }
        // New trips never reuse an upgraded trip's id.
        #expect(theirs.trip.id > game.trip.id)
        // The owner still plays on: one current trip each, side by side.
        _ = try await owner.startNewTrip(at: Date())
        #expect(try await owner.trips().count == 3)
        #expect(try await other.snapshot().trip == theirs.trip)
    }

    /// The release with people and the outbox kept times as text: every game reads the same in
    /// milliseconds, the change log still merges (a resend changes nothing, a late change counts).
    @Test func theOutboxReleasesGamesReadTheSameWithTimesInMilliseconds() async throws {
        let url = try copyOfPreviousRelease("plates.sqlite", from: "release-outbox-data")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        // What that release stored, read as it read it (GRDB's text dates), in milliseconds.
        let written = try DatabaseQueue(path: url.path)
        let before = try await written.read { db in
            try Row.fetchAll(db, sql: "SELECT tripID, stateCode, spottedAt FROM spot")
                .map { row -> String in "\(row["tripID"] as Int64) \(row["stateCode"] as String) \(ChangeTime.milliseconds(row["spottedAt"] as Date))" }
        }
        try written.close()
        let database = try PlatesDatabase.onDisk(at: url, catalog: try StateCatalog.bundled())
        let owner = database.game(for: .firstOwner)
        let game = try await owner.snapshot()
        #expect(Set(game.spots.keys) == ["NY", "UT"])
        #expect(game.spots["UT"]?.location == (try Location(latitude: 39.3, longitude: -111.1)))
        #expect(game.recordsLocation && game.isMuted)
        let trips = try await owner.trips()
        #expect(trips.map(\.score) == [2, 3])
        let bea = try await database.game(for: PersonID(rawValue: 2)).snapshot()
        #expect(Set(bea.spots.keys) == ["WA"])
        // Every spot's time is the same instant as the text it was, to the millisecond.
        var after = bea.spots.values.map { "\($0.tripID) \($0.stateCode) \(ChangeTime.milliseconds($0.spottedAt))" }
        for summary in trips {
            after += try await owner.trip(id: summary.trip.id).spots.map { "\($0.tripID) \($0.stateCode) \(ChangeTime.milliseconds($0.spottedAt))" }
        }
        #expect(after.sorted() == before.sorted())
        // The log goes on: a resend of an outbox change from that release changes nothing, and a
        // late un-spot made before UT's spot leaves it spotted.
        let resend = try PlateChange(id: "release-ut", at: ChangeTime.milliseconds(Date()), kind: .spot, stateCode: "UT")
        #expect(try await owner.apply(resend).applied == false)
        let utAt = try #require(game.spots["UT"]).spottedAt
        let late = try PlateChange(id: "late-ut", at: ChangeTime.milliseconds(utAt) - 1, kind: .unspot, stateCode: "UT")
        #expect(try await owner.apply(late).game.isSpotted("UT"))
    }

    @Test func theUpgradeKeepsOneCurrentTripPerPerson() async throws {
        let url = try copyOfPreviousRelease("plates.sqlite")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        _ = try PlatesDatabase.onDisk(at: url, catalog: try StateCatalog.bundled())
        // The rebuilt index still refuses a second current trip for the same person.
        let queue = try DatabaseQueue(path: url.path)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO trip(personID, startedAt) VALUES (2, ?)", arguments: [Date()])
        }
        await #expect(throws: DatabaseError.self) {
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO trip(personID, startedAt) VALUES (1, ?)", arguments: [Date()])
            }
        }
        let problems = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pragma_foreign_key_check") }
        #expect(problems == 0)
    }
}

/// A copy of one database from `Tests/Fixtures/previous-release-data` (or another fixture folder),
/// in a fresh temporary folder (the fixture itself is never opened, since opening migrates).
func copyOfPreviousRelease(_ name: String, from release: String = "previous-release-data") throws -> URL {
    let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/\(release)/\(name)")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plates-upgrade-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let copy = folder.appendingPathComponent(name)
    try FileManager.default.copyItem(at: fixture, to: copy)
    return copy
}
