import Foundation
import PocketCore
import Testing
@testable import Murals

/// Two people on one murals database: the murals are shared, favourites and visits are not.
@Suite("Murals store per person")
struct MuralsPeopleTests {
    private static let owner = PersonID.firstOwner
    private static let other = PersonID(rawValue: 2)

    private func store() async throws -> MuralsDatabase {
        let store = try MuralsDatabase.inMemory()
        let murals = (1...3).map { MuralsDatabaseTests.mural($0, "Mural \($0)") }
        _ = try await store.apply(murals, fetchedAt: MuralsDatabaseTests.when, wasIncremental: false)
        return store
    }

    @Test func favouritesAreOnlyTheirOwn() async throws {
        let store = try await store()
        try await store.setFavourite(true, muralID: 1, for: Self.owner)
        try await store.setFavourite(true, muralID: 2, for: Self.owner)
        #expect(try await store.favouriteIDs(of: Self.other).isEmpty)
        // The other person marking and unmarking the same murals leaves the owner's alone.
        try await store.setFavourite(true, muralID: 2, for: Self.other)
        try await store.setFavourite(true, muralID: 3, for: Self.other)
        try await store.setFavourite(false, muralID: 1, for: Self.other)
        try await store.setFavourite(false, muralID: 2, for: Self.other)
        #expect(try await store.favouriteIDs(of: Self.owner) == [1, 2])
        #expect(try await store.favouriteIDs(of: Self.other) == [3])
    }

    @Test func visitsAreOnlyTheirOwn() async throws {
        let store = try await store()
        try await store.markVisited([1, 2], for: Self.owner)
        #expect(try await store.visitedIDs(of: Self.other).isEmpty)
        try await store.markVisited([2, 3], for: Self.other)
        try await store.clearVisited(for: Self.other)
        #expect(try await store.visitedIDs(of: Self.owner) == [1, 2])
        #expect(try await store.visitedIDs(of: Self.other).isEmpty)
        try await store.markVisited([3], for: Self.other)
        try await store.clearVisited(for: Self.owner)
        #expect(try await store.visitedIDs(of: Self.owner).isEmpty)
        #expect(try await store.visitedIDs(of: Self.other) == [3])
    }
}

/// The folder the previous (single-user) release wrote: upgrading gives its favourites and visits
/// to the owner and keeps the murals for everyone.
@Suite("Murals store upgrade")
struct MuralsUpgradeTests {
    @Test func thePreviousReleasesFavouritesAndVisitsBecomeTheOwners() async throws {
        let fixture = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/previous-release-data/murals-demo.sqlite")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("murals-upgrade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("murals-demo.sqlite")
        // A copy: opening migrates, and the fixture must stay as the previous release wrote it.
        try FileManager.default.copyItem(at: fixture, to: url)

        let store = try MuralsDatabase.onDisk(at: url)
        #expect(try await store.favouriteIDs(of: .firstOwner) == [1, 3])
        #expect(try await store.visitedIDs(of: .firstOwner) == [2, 11])
        let other = PersonID(rawValue: 2)
        #expect(try await store.favouriteIDs(of: other).isEmpty)
        #expect(try await store.visitedIDs(of: other).isEmpty)
        // The murals and the sync state stay shared and untouched.
        #expect(try await store.murals().count == 24)
        #expect(try await store.syncState().lastSuccess != nil)
        // Both people can now keep the same mural as a favourite.
        try await store.setFavourite(true, muralID: 1, for: other)
        #expect(try await store.favouriteIDs(of: other) == [1])
        #expect(try await store.favouriteIDs(of: .firstOwner) == [1, 3])
    }

    /// The release with the outbox: each person's stars (from forms and from the outbox) and the
    /// decisions the latest-wins rule keeps are all still there.
    @Test func theOutboxReleasesStarsStayEachPersons() async throws {
        let fixture = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/release-outbox-data/murals-demo.sqlite")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("murals-upgrade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("murals-demo.sqlite")
        try FileManager.default.copyItem(at: fixture, to: url)

        let store = try MuralsDatabase.onDisk(at: url)
        #expect(try await store.favouriteIDs(of: .firstOwner) == [1, 3])
        #expect(try await store.favouriteIDs(of: PersonID(rawValue: 2)) == [2])
        // A resend of that release's outbox star changes nothing; an older change does not win.
        let resend = try ToggleChange.star(id: "release-star", at: 1, kind: "unfavourite", muralID: 3)
        #expect(try await store.apply(resend, for: .firstOwner).result == .duplicate)
        let older = try ToggleChange.star(id: "older", at: 1, kind: "unfavourite", muralID: 3)
        #expect(try await store.apply(older, for: .firstOwner).result == .superseded)
        #expect(try await store.favouriteIDs(of: .firstOwner) == [1, 3])
    }
}
