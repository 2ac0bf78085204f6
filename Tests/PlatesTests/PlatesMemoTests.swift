import Foundation
import GRDB
import PocketCore
import Testing
@testable import Plates

/// The on-disk game keeps each person's snapshot and trips until the next commit (`PlatesMemo`):
/// these check that a kept answer is never older than the file, whoever wrote to it.
@Suite("Plates kept answers")
struct PlatesMemoTests {
    static let other = PersonID(rawValue: 2)

    /// An on-disk game database in a fresh folder, and the file's path for a second connection.
    static func database() throws -> (PlatesDatabase, URL, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plates-memo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("plates.sqlite")
        return (try PlatesDatabase.onDisk(at: url, catalog: StateCatalog.bundled()), url, folder)
    }

    @Test func theGamesOwnTapsShowAtOnce() async throws {
        let (database, _, folder) = try Self.database()
        defer { try? FileManager.default.removeItem(at: folder) }
        let game = database.game(for: .firstOwner)
        #expect(try await game.snapshot().spots.isEmpty)
        #expect(try await game.trips().count == 1)
        _ = try await game.spot("OR", at: Date(), location: nil)
        #expect(try await game.snapshot().spots.keys.sorted() == ["OR"])
        _ = try await game.setMuted(true)
        #expect(try await game.snapshot().isMuted)
        _ = try await game.startNewTrip(at: Date())
        #expect(try await game.snapshot().spots.isEmpty)
        #expect(try await game.trips().map(\.score) == [0, 1])
        _ = try await game.unspot("OR")
        #expect(try await database.game(for: .firstOwner).snapshot().spots.isEmpty)
    }

    @Test func aCommitFromAnotherConnectionIsSeenOnTheNextRead() async throws {
        let (database, url, folder) = try Self.database()
        defer { try? FileManager.default.removeItem(at: folder) }
        let game = database.game(for: .firstOwner)
        let trip = try await game.snapshot().trip
        #expect(try await game.trips().map(\.score) == [0])
        // When another process writes a spot into the same file
        let cli = try DatabaseQueue(path: url.path)
        try await cli.write { db in
            try db.execute(sql: "INSERT INTO spot(tripID, stateCode, spottedAt) VALUES (?, 'TX', ?)", arguments: [trip.id, Date()])
        }
        try cli.close()
        // Then the kept answers are dropped
        #expect(try await game.snapshot().spots.keys.sorted() == ["TX"])
        #expect(try await game.trips().map(\.score) == [1])
    }

    @Test func onePersonsKeptGameNeverAnswersForAnother() async throws {
        let (database, _, folder) = try Self.database()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await database.game(for: .firstOwner).spot("OR", at: Date(), location: nil)
        _ = try await database.game(for: Self.other).spot("ME", at: Date(), location: nil)
        for _ in 0..<2 {  // the second time from memory
            #expect(try await database.game(for: .firstOwner).snapshot().spots.keys.sorted() == ["OR"])
            #expect(try await database.game(for: Self.other).snapshot().spots.keys.sorted() == ["ME"])
            #expect(try await database.game(for: .firstOwner).trips().map(\.score) == [1])
            #expect(try await database.game(for: Self.other).trips().map(\.score) == [1])
        }
    }
}
