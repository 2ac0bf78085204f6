import Foundation
import GRDB
import PocketCore
import Synchronization
import Testing

/// `CommitCache`: kept until the watched file's next commit, and nothing kept without a watch.
@Suite("Commit cache")
struct CommitCacheTests {
    @Test func keepsUntilACommitAndKeepsNothingWithoutAWatch() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("commit-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("file.sqlite").path
        let writer = try DatabaseQueue(path: path)
        try await writer.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
        let loads = Mutex(0)
        func load() -> Int { loads.withLock { $0 += 1; return $0 } }

        let kept = CommitCache<String, Int>(watch: try CommitWatch(path: path, label: "test.watch"), capacity: 8)
        #expect(try await kept.value(for: "a") { load() } == 1)
        #expect(try await kept.value(for: "a") { load() } == 1)
        try await writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try await kept.value(for: "a") { load() } == 2)

        let unwatched = CommitCache<String, Int>(watch: nil, capacity: 8)
        #expect(try await unwatched.value(for: "a") { load() } == 3)
        #expect(try await unwatched.value(for: "a") { load() } == 4)
    }
}
