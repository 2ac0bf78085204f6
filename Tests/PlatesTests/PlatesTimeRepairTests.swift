import Foundation
import GRDB
import PocketCore
import Testing
@testable import Plates

/// Issue #32 (N4): an import once took change times up to the year 10000, and a game holding one
/// stopped answering: an un-spot from the far future beat every later spot, and a New Trip there
/// kept every later spot on the trip before it. Opening the store brings such times back.
@Suite("Plates times ahead of the clock, from an older Pocket")
struct PlatesTimeRepairTests {
    /// 1 January 9000: what an older import let in.
    private static let farAhead: Int64 = 221_845_392_000_000

    @Test func aGameWithAChangeFromTheFarFutureAnswersAgainOnceOpened() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plates-repair-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("plates.sqlite")
        let catalog = try StateCatalog.bundled()
        let ann = PersonID.firstOwner, bea = PersonID(rawValue: 2)
        let earlier = ChangeTime.milliseconds(Date()) - 60_000

        // Given a game as an older Pocket left it: Ann un-spotted Oregon and Bea started a trip
        // in the year 9000 (the store itself takes any time; the outbox and now the import check it),
        do {
            let database = try PlatesDatabase.onDisk(at: url, catalog: catalog)
            let game = database.game(for: ann), other = database.game(for: bea)
            _ = try await game.apply(PlateChange(id: "spot", at: earlier, kind: .spot, stateCode: "OR"))
            _ = try await game.apply(PlateChange(id: "future-unspot", at: Self.farAhead, kind: .unspot, stateCode: "OR"))
            _ = try await other.apply(PlateChange(id: "spot", at: earlier, kind: .spot, stateCode: "WA"))
            _ = try await other.apply(PlateChange(id: "future-trip", at: Self.farAhead, kind: .newTrip))
        }
        let queue = try DatabaseQueue(path: url.path)
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: ["v6: times ahead of the clock brought back"])
        }
        try queue.close()

        // when this Pocket opens it,
        let database = try PlatesDatabase.onDisk(at: url, catalog: catalog)
        let game = database.game(for: ann), other = database.game(for: bea)

        // then no stored time is ahead of the clock, and what each does next counts:
        let latest = ChangeTime.latest(now: Date())
        for person in [game, other] {
            let exported = try await person.exported()
            #expect(exported.changes.allSatisfy { $0.at <= latest })
            #expect(exported.trips.allSatisfy { $0.startedAt <= latest && ($0.endedAt ?? 0) <= latest && $0.spots.allSatisfy { $0.spottedAt <= latest } })
        }
        // Ann spots Oregon again, and it stays spotted;
        let again = try await game.apply(PlateChange(id: "spot-again", at: ChangeTime.milliseconds(Date()) + 1000, kind: .spot, stateCode: "OR"))
        #expect(again.applied && again.game.spots["OR"] != nil)
        // Bea's spot lands on the trip she is playing.
        let spotted = try await other.apply(PlateChange(id: "spot-idaho", at: ChangeTime.milliseconds(Date()) + 1000, kind: .spot, stateCode: "ID"))
        #expect(Set(spotted.game.spots.keys) == ["ID"])
    }
}
