import Foundation
import GRDB
import PocketCore
import Testing
@testable import Murals

/// Issue #32 (N4): an import once took a star's time up to the year 10000 (and v4 gave a star whose
/// time it could not read that very time), after which every un-star of the mural was
/// "superseded". Opening the store brings such times back.
@Suite("Murals times ahead of the clock, from an older Pocket")
struct MuralsTimeRepairTests {
    @Test func aStarFromTheFarFutureCanBeTakenBackOnceTheStoreIsOpened() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("murals-repair-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("murals.sqlite")
        let farAhead: Int64 = 221_845_392_000_000 // 1 January 9000
        // Given a star and a visit an older Pocket imported at 1 January 9000, and a star v4 could not read
        // (in the tables of that release, migrated up to v4),
        let queue = try DatabaseQueue(path: url.path)
        try MuralsDatabase.migrate(queue, upTo: "v4: favourites' times as milliseconds")
        try await queue.write { db in
            for id in 1...2 {
                try db.execute(sql: """
                    INSERT INTO murals(id, title, artist, info, thumbnail, latitude, longitude, isEnabled, lastModified)
                    VALUES (?, ?, NULL, NULL, NULL, 53.4, -3.0, 1, '2026-01-01')
                    """, arguments: [id, "Mural \(id)"])
            }
            try db.execute(sql: "INSERT INTO favourites(personID, muralID, addedAt) VALUES (1, 1, ?), (1, 2, 253402300800000)", arguments: [farAhead])
            try db.execute(sql: "INSERT INTO favourite_decisions(personID, muralID, at, changeID) VALUES (1, 1, ?, 'import'), (1, 2, 253402300800000, 'v4')",
                           arguments: [farAhead])
            try db.execute(sql: "INSERT INTO visited(personID, muralID, visitedAt) VALUES (1, 1, '9000-01-01 00:00:00.000')")
        }
        try queue.close()

        // when this Pocket opens it,
        let store = try MuralsDatabase.onDisk(at: url)
        let exported = try await store.exported(for: .firstOwner)
        let latest = ChangeTime.latest(now: Date())
        #expect(exported.stars.count == 2 && exported.stars.allSatisfy { $0.addedAt <= latest })
        #expect(exported.visits.count == 1 && exported.visits.allSatisfy { $0.visitedAt <= latest })

        // then un-starring either mural is applied, not "superseded".
        for mural in [1, 2] {
            let clear = try ToggleChange.star(id: "unstar-\(mural)", at: ChangeTime.milliseconds(Date()) + 1000, kind: "unfavourite", muralID: mural)
            #expect(try await store.apply(clear, for: .firstOwner).result == .applied)
        }
        #expect(try await store.favouriteIDs(of: .firstOwner).isEmpty)
    }
}
