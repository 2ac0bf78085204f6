import Converter
import Foundation
import GRDB
import PocketCore
import Testing

/// Issue #32 (N4): an import once took a saved time up to the year 10000, after which no change of
/// the person's applied (each was older). Opening the store brings such a time back.
@Suite("Converter times ahead of the clock, from an older Pocket")
struct ConverterTimeRepairTests {
    @Test func aScreenSavedInTheFarFutureTakesChangesAgainOnceOpened() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("converter-repair-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("converter.sqlite")
        // Given a screen an older Pocket saved at 1 January 9000 (as its import let in),
        do {
            let store = try ConverterDatabase.onDisk(at: url).store(for: .firstOwner)
            _ = try await store.replace(with: ConverterState(category: .temperature), changedAt: 221_845_392_000_000)
        }
        let queue = try DatabaseQueue(path: url.path)
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: ["v4: saved times ahead of the clock brought back"])
        }
        try queue.close()

        // when this Pocket opens it, its time is no longer ahead, and the person's next change applies.
        let store = try ConverterDatabase.onDisk(at: url).store(for: .firstOwner)
        #expect(try #require(try await store.savedAt()) <= ChangeTime.latest(now: Date()))
        let next = try await store.replace(with: ConverterState(category: .length), changedAt: ChangeTime.milliseconds(Date()) + 1000)
        #expect(next.applied && next.state.category == .length)
        #expect(try await store.state().category == .length)
    }
}
