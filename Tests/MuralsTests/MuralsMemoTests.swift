import Foundation
import GRDB
import PocketCore
import Testing
@testable import Murals

/// The on-disk store keeps what screens read until the next commit (`MuralsMemo`): these check
/// that a kept answer is never older than the file, whoever wrote to it.
@Suite("Murals kept answers")
struct MuralsMemoTests {
    static let when = MuralsDatabaseTests.when
    static let other = PersonID(rawValue: 2)

    /// An on-disk store in a fresh folder, and the file's path for a second connection.
    static func store() throws -> (MuralsDatabase, URL, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("murals-memo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("murals.sqlite")
        return (try MuralsDatabase.onDisk(at: url), url, folder)
    }

    @Test func theStoresOwnChangesShowAtOnce() async throws {
        let (store, _, folder) = try Self.store()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Given every answer read (and kept) once
        #expect(try await store.murals().isEmpty)
        #expect(try await store.syncState().muralCount == 0)
        #expect(try await store.favouriteIDs(of: .firstOwner).isEmpty)
        #expect(try await store.visitedIDs(of: .firstOwner).isEmpty)
        // When the store itself syncs, stars and walks
        _ = try await store.apply([MuralsDatabaseTests.mural(1, "A"), MuralsDatabaseTests.mural(2, "B")], fetchedAt: Self.when, wasIncremental: false)
        #expect(try await store.murals().map(\.title) == ["A", "B"])
        #expect(try await store.syncState() == MuralsSyncState(lastSuccess: Self.when, lastAttempt: Self.when, lastError: nil, muralCount: 2))
        try await store.setFavourite(true, muralID: 2, for: .firstOwner)
        #expect(try await store.favouriteIDs(of: .firstOwner) == [2])
        try await store.markVisited([1], for: .firstOwner)
        #expect(try await store.visitedIDs(of: .firstOwner) == [1])
        try await store.setFavourite(false, muralID: 2, for: .firstOwner)
        try await store.clearVisited(for: .firstOwner)
        // Then each answer follows at once
        #expect(try await store.favouriteIDs(of: .firstOwner).isEmpty)
        #expect(try await store.visitedIDs(of: .firstOwner).isEmpty)
    }

    @Test func aCommitFromAnotherConnectionIsSeenOnTheNextRead() async throws {
        let (store, url, folder) = try Self.store()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await store.apply([MuralsDatabaseTests.mural(1, "A")], fetchedAt: Self.when, wasIncremental: false)
        #expect(try await store.murals().map(\.title) == ["A"])
        #expect(try await store.favouriteIDs(of: .firstOwner).isEmpty)
        // When another process (the command line) writes to the same file
        let cli = try DatabaseQueue(path: url.path)
        try await cli.write { db in
            try db.execute(sql: "UPDATE murals SET title = 'Renamed' WHERE id = 1")
            try db.execute(sql: "INSERT INTO favourite(personID, itemID, addedAt) VALUES (?, 1, ?)", arguments: [PersonID.firstOwner.rawValue, ChangeTime.milliseconds(Self.when)])
        }
        try cli.close()
        // Then the kept answers are dropped
        #expect(try await store.murals().map(\.title) == ["Renamed"])
        #expect(try await store.favouriteIDs(of: .firstOwner) == [1])
    }

    @Test func onePersonsKeptAnswersNeverAnswerForAnother() async throws {
        let (store, _, folder) = try Self.store()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await store.apply([MuralsDatabaseTests.mural(1, "A"), MuralsDatabaseTests.mural(2, "B")], fetchedAt: Self.when, wasIncremental: false)
        try await store.setFavourite(true, muralID: 1, for: .firstOwner)
        try await store.markVisited([2], for: Self.other)
        #expect(try await store.favouriteIDs(of: .firstOwner) == [1])
        #expect(try await store.favouriteIDs(of: Self.other).isEmpty)
        #expect(try await store.visitedIDs(of: .firstOwner).isEmpty)
        #expect(try await store.visitedIDs(of: Self.other) == [2])
        // Asked again, from memory this time, in the other order
        #expect(try await store.favouriteIDs(of: Self.other).isEmpty)
        #expect(try await store.favouriteIDs(of: .firstOwner) == [1])
        #expect(try await store.visitedIDs(of: Self.other) == [2])
        #expect(try await store.visitedIDs(of: .firstOwner).isEmpty)
    }
}
