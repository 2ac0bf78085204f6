import Foundation
import GRDB
import PocketCore
import Testing
@testable import Murals

/// Data folders earlier releases wrote (stars in `favourites`, `favourite_decisions`,
/// `applied_changes`) open into the shared toggle's tables with every star, decision and seen
/// change id kept, and those still decide the latest-wins rule.
@Suite("Murals stars upgrade to the shared toggle")
struct MuralsToggleUpgradeTests {
    /// `release-toggle-data`'s T (see its README).
    private static let t: Int64 = 1_795_880_093_705
    private static let bea = PersonID(rawValue: 2)

    /// A copy of a fixture's murals database, opened (and so migrated) by today's store.
    private func open(_ fixture: String) throws -> (MuralsDatabase, URL) {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(fixture)/murals-demo.sqlite")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("murals-toggle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("murals-demo.sqlite")
        try FileManager.default.copyItem(at: source, to: url)
        return (try MuralsDatabase.onDisk(at: url), folder)
    }

    private func star(_ id: String, at: Int64, _ kind: String, _ mural: Int) throws -> ToggleChange {
        try ToggleChange.star(id: id, at: at, kind: kind, muralID: mural)
    }

    @Test func theToggleReleasesStarsDecisionsAndSeenIdsSurviveAndStillDecide() async throws {
        let (store, folder) = try open("release-toggle-data")
        defer { try? FileManager.default.removeItem(at: folder) }
        let t = Self.t
        #expect(try await store.favouriteIDs(of: .firstOwner) == [1, 2])
        #expect(try await store.favouriteIDs(of: Self.bea) == [4])
        #expect(try await store.exported(for: .firstOwner).stars == [.init(muralID: 1, addedAt: t + 17), .init(muralID: 2, addedAt: t + 1000)])
        // Every seen id is still seen: a resend is a duplicate, for its own person only.
        for id in ["toggle-star-1", "toggle-star-2", "toggle-unstar-2", "toggle-old-3"] {
            #expect(try await store.apply(try star(id, at: t + 9000, "favourite", 3), for: .firstOwner).result == .duplicate)
        }
        #expect(try await store.apply(try star("toggle-bea-star", at: t + 9000, "unfavourite", 4), for: Self.bea).result == .duplicate)
        #expect(try await store.favouriteIDs(of: .firstOwner) == [1, 2])
        #expect(try await store.favouriteIDs(of: Self.bea) == [4])
        // Every decision still decides: older changes are superseded, equal times go to the larger id.
        #expect(try await store.apply(try star("older", at: t + 2999, "favourite", 3), for: .firstOwner).result == .superseded)
        #expect(try await store.apply(try star("toggle-unstar-1", at: t + 3000, "favourite", 3), for: .firstOwner).result == .superseded)
        #expect(try await store.apply(try star("older-2", at: t + 999, "unfavourite", 2), for: .firstOwner).result == .superseded)
        #expect(try await store.apply(try star("form-older", at: t + 16, "unfavourite", 1), for: .firstOwner).result == .superseded)
        #expect(try await store.favouriteIDs(of: .firstOwner) == [1, 2])
        #expect(try await store.apply(try star("toggle-unstar-3", at: t + 3000, "favourite", 3), for: .firstOwner)
            == ToggleOutcome(result: .applied, isOn: true))
        #expect(try await store.apply(try star("form-newer", at: t + 18, "unfavourite", 1), for: .firstOwner).result == .applied)
        #expect(try await store.favouriteIDs(of: .firstOwner) == [2, 3])
        // Bea's id is hers: the owner's change with the same id is a new one.
        #expect(try await store.apply(try star("toggle-bea-star", at: t + 9000, "favourite", 4), for: .firstOwner).result == .applied)
    }

    @Test func theOutboxReleasesStarsKeepTheirTimesAndDecisions() async throws {
        let (store, folder) = try open("release-outbox-data")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Its stars' times were text: 11:21:58.750 and 11:22:02.600 on 26 November 2026.
        #expect(try await store.exported(for: .firstOwner).stars == [.init(muralID: 1, addedAt: 1_795_692_118_750), .init(muralID: 3, addedAt: 1_795_692_122_600)])
        #expect(try await store.apply(try star("release-bea-star", at: 1, "unfavourite", 2), for: Self.bea).result == .duplicate)
        #expect(try await store.apply(try star("a", at: 1_795_692_123_599, "unfavourite", 2), for: Self.bea).result == .superseded)
        #expect(try await store.apply(try star("a", at: 1_795_692_123_601, "unfavourite", 2), for: Self.bea).result == .duplicate)
        #expect(try await store.apply(try star("b", at: 1_795_692_123_601, "unfavourite", 2), for: Self.bea).result == .applied)
        #expect(try await store.favouriteIDs(of: Self.bea).isEmpty)
    }

    @Test func theUpgradedTablesHaveTheSharedShape() async throws {
        let (_, folder) = try open("release-toggle-data")
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("murals-demo.sqlite").path)
        defer { try? queue.close() }
        let columns = try await queue.read { db in
            try ["favourite", "favourite_decision", "favourite_change_seen"].map { try db.columns(in: $0).map { "\($0.name) \($0.type)" } }
        }
        #expect(columns == [["personID INTEGER", "itemID INTEGER", "addedAt INTEGER"],
                            ["personID INTEGER", "itemID INTEGER", "at INTEGER", "changeID TEXT"],
                            ["personID INTEGER", "changeID TEXT"]])
        let seen = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM favourite_change_seen") }
        #expect(seen == 5)
    }
}
