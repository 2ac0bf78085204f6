import Foundation
import GRDB
import PocketCore
import Testing
@testable import Murals

/// Stars changed offline and sent from a phone's outbox: each id once, the latest per mural wins,
/// one person's changes never touch another's.
@Suite("Murals outbox changes")
struct MuralsChangesTests {
    private static let owner = PersonID.firstOwner
    private static let other = PersonID(rawValue: 2)

    private func store() async throws -> MuralsDatabase {
        let store = try MuralsDatabase.inMemory()
        let murals = (1...3).map { MuralsDatabaseTests.mural($0, "Mural \($0)") } + [MuralsDatabaseTests.mural(4, "Gone", enabled: false)]
        _ = try await store.apply(murals, fetchedAt: MuralsDatabaseTests.when, wasIncremental: false)
        return store
    }

    private func change(_ id: String, at: Int64, _ kind: String, mural: Int) throws -> ToggleChange {
        try ToggleChange.star(id: id, at: at, kind: kind, muralID: mural)
    }

    @Test func aResentChangeChangesNothingTheSecondTime() async throws {
        let store = try await store()
        let star = try change("A", at: 1_000, "favourite", mural: 1)
        #expect(try await store.apply(star, for: Self.owner) == ToggleOutcome(result: .applied, isOn: true))
        // Cleared since, by a later change; the resend of the old one must not set it again.
        _ = try await store.apply(try change("B", at: 2_000, "unfavourite", mural: 1), for: Self.owner)
        #expect(try await store.apply(star, for: Self.owner) == ToggleOutcome(result: .duplicate, isOn: false))
        #expect(try await store.favouriteIDs(of: Self.owner).isEmpty)
    }

    @Test func theLatestChangePerMuralWinsWhateverOrderTheyArriveIn() async throws {
        // Two phones: one starred mural 2 at t=5000, the other cleared it earlier at t=3000 but
        // reconnected later. Mural 3: the other way round.
        let store = try await store()
        #expect(try await store.apply(try change("p1-a", at: 5_000, "favourite", mural: 2), for: Self.owner).result == .applied)
        #expect(try await store.apply(try change("p1-b", at: 3_000, "favourite", mural: 3), for: Self.owner).result == .applied)
        #expect(try await store.apply(try change("p2-a", at: 3_000, "unfavourite", mural: 2), for: Self.owner)
            == ToggleOutcome(result: .superseded, isOn: true))
        #expect(try await store.apply(try change("p2-b", at: 6_000, "unfavourite", mural: 3), for: Self.owner).result == .applied)
        #expect(try await store.favouriteIDs(of: Self.owner) == [2])
    }

    @Test func equalTimesGoToTheLargerIDSoBothOrdersAgree() async throws {
        for order in [["aaa", "bbb"], ["bbb", "aaa"]] {
            let store = try await store()
            for id in order {
                _ = try await store.apply(try change(id, at: 7_000, id == "aaa" ? "favourite" : "unfavourite", mural: 1), for: Self.owner)
            }
            #expect(try await store.favouriteIDs(of: Self.owner).isEmpty, "order \(order)")
        }
    }

    @Test func aFormPostIsAChangeMadeNow() async throws {
        let store = try await store()
        try await store.setFavourite(true, muralID: 1, for: Self.owner)
        // A change the phone made an hour ago, sent after the form post: the form post is newer.
        let hourAgo = Int64(Date().timeIntervalSince1970 * 1000) - 3_600_000
        #expect(try await store.apply(try change("late", at: hourAgo, "unfavourite", mural: 1), for: Self.owner).result == .superseded)
        #expect(try await store.favouriteIDs(of: Self.owner) == [1])
        // A change made after the form post wins.
        let later = Int64(Date().timeIntervalSince1970 * 1000) + 60_000
        #expect(try await store.apply(try change("next", at: later, "unfavourite", mural: 1), for: Self.owner).result == .applied)
        #expect(try await store.favouriteIDs(of: Self.owner).isEmpty)
    }

    @Test func onePersonsChangesNeverTouchAnothers() async throws {
        let store = try await store()
        _ = try await store.apply(try change("same-id", at: 1_000, "favourite", mural: 1), for: Self.owner)
        // The same id from someone else is their own change, not a resend of the owner's.
        #expect(try await store.apply(try change("same-id", at: 1_000, "favourite", mural: 2), for: Self.other).result == .applied)
        // A later clear by the other person leaves the owner's star alone.
        _ = try await store.apply(try change("x", at: 9_000, "unfavourite", mural: 1), for: Self.other)
        #expect(try await store.favouriteIDs(of: Self.owner) == [1])
        #expect(try await store.favouriteIDs(of: Self.other) == [2])
    }

    @Test func starringAnUnknownOrHiddenMuralIsRefusedAndNotRemembered() async throws {
        let store = try await store()
        await #expect(throws: MuralsError.unknownMural(99)) { try await store.apply(try change("u", at: 1, "favourite", mural: 99), for: Self.owner) }
        await #expect(throws: MuralsError.unknownMural(4)) { try await store.apply(try change("h", at: 1, "favourite", mural: 4), for: Self.owner) }
        // Clearing a star of a hidden mural is fine (a favourite outlives a hiding).
        #expect(try await store.apply(try change("c", at: 2, "unfavourite", mural: 4), for: Self.owner).result == .applied)
        // The refused id was rolled back with its transaction, so it is still refused, not a duplicate.
        await #expect(throws: MuralsError.unknownMural(99)) { try await store.apply(try change("u", at: 1, "favourite", mural: 99), for: Self.owner) }
        #expect(try await store.favouriteIDs(of: Self.owner).isEmpty)
    }

    @Test func badChangesSayWhatIsWrong() {
        #expect(throws: MuralsError.self) { try change("", at: 1, "favourite", mural: 1) }
        #expect(throws: MuralsError.self) { try change(" a", at: 1, "favourite", mural: 1) }
        #expect(throws: MuralsError.self) { try change(String(repeating: "x", count: 101), at: 1, "favourite", mural: 1) }
        #expect(throws: MuralsError.self) { try change("a", at: -1, "favourite", mural: 1) }
        #expect(throws: MuralsError.self) { try change("a", at: 1, "favourite", mural: 0) }
        #expect(throws: MuralsError.invalidChange("“kind” must be favourite or unfavourite")) { try change("a", at: 1, "spot", mural: 1) }
        #expect(MuralsError.invalidChange("x").description == "The change cannot be applied: x.")
    }
}

/// A database the previous release (schema v2, no outbox tables) wrote upgrades without losing
/// anyone's favourites or visits, and then takes outbox changes.
@Suite("Murals store upgrade to outbox changes")
struct MuralsChangesUpgradeTests {
    @Test func favouritesFromBeforeAreKeptAndAnyChangeWinsOverThem() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("murals-v2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("murals.sqlite")
        do {
            // As the previous release left it: migrated to v2, with murals, favourites and visits.
            let queue = try DatabaseQueue(path: url.path)
            try MuralsDatabase.migrate(queue, upTo: MuralsDatabase.previousSchema)
            try await queue.write { db in
                for id in 1...3 {
                    try db.execute(sql: """
                        INSERT INTO murals(id, title, artist, info, thumbnail, latitude, longitude, isEnabled, lastModified)
                        VALUES (?, ?, NULL, NULL, NULL, 53.44, -3.04, 1, '2024-01-01 10:00:00')
                        """, arguments: [id, "Mural \(id)"])
                }
                try db.execute(sql: "INSERT INTO favourites(personID, muralID, addedAt) VALUES (1, 1, '2024-01-01'), (1, 2, '2024-01-01'), (2, 3, '2024-01-01')")
                try db.execute(sql: "INSERT INTO visited(personID, muralID, visitedAt) VALUES (1, 3, '2024-01-01')")
                #expect(try db.tableExists("applied_changes") == false)
            }
            try queue.close()
        }

        let store = try MuralsDatabase.onDisk(at: url)
        #expect(try await store.favouriteIDs(of: .firstOwner) == [1, 2])
        #expect(try await store.favouriteIDs(of: PersonID(rawValue: 2)) == [3])
        #expect(try await store.visitedIDs(of: .firstOwner) == [3])
        // A favourite from before has no recorded time: even an old offline change decides it.
        let clear = try ToggleChange.star(id: "after-upgrade", at: 1, kind: "unfavourite", muralID: 2)
        #expect(try await store.apply(clear, for: .firstOwner).result == .applied)
        #expect(try await store.apply(clear, for: .firstOwner).result == .duplicate)
        #expect(try await store.favouriteIDs(of: .firstOwner) == [1])
    }
}
