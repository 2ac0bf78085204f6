import Foundation
import GRDB
import PocketCore
import Testing
@testable import Murals

@Suite("Murals store")
struct MuralsDatabaseTests {
    static func mural(_ id: Int, _ title: String, enabled: Bool = true, artist: String? = "A", images: [String] = ["x.jpg"]) -> Mural {
        Mural(
            id: id, title: title, artist: artist, info: nil,
            thumbnail: URL(string: "https://example.org/t/\(id).jpg"),
            coordinate: GeoCoordinate(latitude: 53.438 + Double(id) / 10_000, longitude: -3.041),
            isEnabled: enabled, lastModified: "2024-01-0\(id % 9 + 1) 10:00:00",
            images: images.enumerated().map { MuralImage(id: "\($0.offset)", filename: $0.element) }
        )
    }

    static let when = TestClock.date("2024-03-10T00:30:00Z")

    @Test func listsShownMuralsByTitleIgnoringCase() async throws {
        // Given murals in no order, one hidden
        let store = try MuralsDatabase.inMemory()
        _ = try await store.apply([Self.mural(1, "otto"), Self.mural(2, "Eye"), Self.mural(3, "Gone", enabled: false), Self.mural(4, "Rainbow Goddess")], fetchedAt: Self.when, wasIncremental: false)
        // Then
        #expect(try await store.murals().map(\.title) == ["Eye", "otto", "Rainbow Goddess"])
        #expect(try await store.mural(id: 3) == nil)
        #expect(try await store.mural(id: 4) == Self.mural(4, "Rainbow Goddess"))
        #expect(try await store.syncState().muralCount == 3)
    }

    @Test func applyCountsOnlyRealChangesAndReplacesImages() async throws {
        let store = try MuralsDatabase.inMemory()
        let first = try await store.apply([Self.mural(1, "A"), Self.mural(2, "B", images: ["1.jpg", "2.jpg"])], fetchedAt: Self.when, wasIncremental: false)
        #expect(first == MuralsSyncSummary(received: 2, inserted: 2, updated: 0, hidden: 0, skipped: 0, wasIncremental: false))
        let repeated = try await store.apply([Self.mural(1, "A"), Self.mural(2, "B", images: ["1.jpg", "2.jpg"])], fetchedAt: Self.when, wasIncremental: true)
        #expect(repeated == MuralsSyncSummary(received: 2, inserted: 0, updated: 0, hidden: 0, skipped: 0, wasIncremental: true))
        let changed = try await store.apply([Self.mural(2, "B", images: ["3.jpg"]), Self.mural(1, "A", enabled: false)], fetchedAt: Self.when, wasIncremental: true)
        #expect(changed == MuralsSyncSummary(received: 2, inserted: 0, updated: 1, hidden: 1, skipped: 0, wasIncremental: true))
        #expect(try await store.mural(id: 2)?.images == [MuralImage(id: "0", filename: "3.jpg")])
    }

    @Test func duplicatesInOneApplyKeepTheLater() async throws {
        let store = try MuralsDatabase.inMemory()
        let summary = try await store.apply([Self.mural(1, "First"), Self.mural(1, "Second")], fetchedAt: Self.when, wasIncremental: false)
        #expect(summary.received == 1 && summary.inserted == 1)
        #expect(try await store.mural(id: 1)?.title == "Second")
    }

    @Test func favouritesNeedAShownMuralAndOutliveHiding() async throws {
        let store = try MuralsDatabase.inMemory()
        _ = try await store.apply([Self.mural(1, "A"), Self.mural(2, "B", enabled: false)], fetchedAt: Self.when, wasIncremental: false)
        await #expect(throws: MuralsError.unknownMural(99)) { try await store.setFavourite(true, muralID: 99, for: .firstOwner) }
        await #expect(throws: MuralsError.unknownMural(2)) { try await store.setFavourite(true, muralID: 2, for: .firstOwner) }
        try await store.setFavourite(true, muralID: 1, for: .firstOwner)
        try await store.setFavourite(true, muralID: 1, for: .firstOwner) // twice is harmless
        #expect(try await store.favouriteIDs(of: .firstOwner) == [1])
        _ = try await store.apply([Self.mural(1, "A", enabled: false)], fetchedAt: Self.when, wasIncremental: true)
        #expect(try await store.favouriteIDs(of: .firstOwner) == [1])
        try await store.setFavourite(false, muralID: 1, for: .firstOwner) // unfavouriting a hidden one works
        try await store.setFavourite(false, muralID: 1, for: .firstOwner)
        #expect(try await store.favouriteIDs(of: .firstOwner).isEmpty)
    }

    @Test func visitsAreAddedAndCleared() async throws {
        let store = try MuralsDatabase.inMemory()
        try await store.markVisited([3, 1], for: .firstOwner)
        try await store.markVisited([1, 2], for: .firstOwner)
        try await store.markVisited([], for: .firstOwner)
        #expect(try await store.visitedIDs(of: .firstOwner) == [1, 2, 3])
        try await store.clearVisited(for: .firstOwner)
        #expect(try await store.visitedIDs(of: .firstOwner).isEmpty)
    }

    @Test func syncFailuresAreRecordedWithoutTouchingTheLastSuccess() async throws {
        let store = try MuralsDatabase.inMemory()
        #expect(try await store.syncState() == MuralsSyncState(lastSuccess: nil, lastAttempt: nil, lastError: nil, muralCount: 0))
        let failed = TestClock.date("2024-03-09T08:00:00Z")
        try await store.recordSyncFailure("offline", at: failed)
        #expect(try await store.syncState() == MuralsSyncState(lastSuccess: nil, lastAttempt: failed, lastError: "offline", muralCount: 0))
        _ = try await store.apply([Self.mural(1, "A")], fetchedAt: Self.when, wasIncremental: false)
        let later = TestClock.date("2024-03-11T08:00:00Z")
        try await store.recordSyncFailure("HTTP 500", at: later)
        #expect(try await store.syncState() == MuralsSyncState(lastSuccess: Self.when, lastAttempt: later, lastError: "HTTP 500", muralCount: 1))
    }

    @Test func keepsEverythingOnDiskAcrossReopening() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("murals-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("murals.sqlite")
        do {
            let store = try MuralsDatabase.onDisk(at: url)
            _ = try await store.apply([Self.mural(1, "A", artist: nil, images: ["a.jpg", "b.jpg"])], fetchedAt: Self.when, wasIncremental: false)
            try await store.setFavourite(true, muralID: 1, for: .firstOwner)
            try await store.markVisited([1], for: .firstOwner)
        }
        let reopened = try MuralsDatabase.onDisk(at: url)
        #expect(try await reopened.murals() == [Self.mural(1, "A", artist: nil, images: ["a.jpg", "b.jpg"])])
        #expect(try await reopened.favouriteIDs(of: .firstOwner) == [1])
        #expect(try await reopened.visitedIDs(of: .firstOwner) == [1])
        #expect(try await reopened.syncState().lastSuccess == Self.when)
        // The tables the brief names exist, and the outbox's (issue #13).
        let queue = try DatabaseQueue(path: url.path)
        let tables = try await queue.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'grdb%' AND name NOT LIKE 'sqlite%' ORDER BY name") }
        #expect(tables == ["favourite", "favourite_change_seen", "favourite_decision", "mural_images", "murals", "sync_state", "visited"])
    }

    @Test func tenThousandDemoMuralsApplyInOneGo() async throws {
        let store = try MuralsDatabase.inMemory()
        let murals = DemoMuralService.murals(count: 10_000)
        let summary = try await store.apply(murals, fetchedAt: Self.when, wasIncremental: false)
        #expect(summary.inserted == 10_000)
        #expect(try await store.murals().count == 10_000)
    }
}
