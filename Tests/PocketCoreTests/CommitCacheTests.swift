import Foundation
import GRDB
@testable import PocketCore
import Synchronization
import Testing

/// `CommitCache`: kept until the watched file's next commit, and nothing kept without a watch.
@Suite("Commit cache")
struct CommitCacheTests {
    /// A database file with one table `t(x)` in a folder of its own, removed by the caller.
    private static func file() throws -> (folder: URL, path: String, writer: DatabaseQueue) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("commit-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("file.sqlite").path
        let writer = try DatabaseQueue(path: path)
        try writer.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
        return (folder, path, writer)
    }

    @Test func keepsUntilACommitAndKeepsNothingWithoutAWatch() async throws {
        let (folder, path, writer) = try Self.file()
        defer { try? FileManager.default.removeItem(at: folder) }
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

        // A layer the page benchmark passes through gets no watch, so keeps nothing either.
        let passedThrough = CommitCache<String, Int>(watch: Caches(passThrough: [.commitCache]).watch(try CommitWatch(path: path, label: "test.watch"),
                                                                                                      for: .muralsMemo), capacity: 8)
        #expect(try await passedThrough.value(for: "a") { load() } == 5)
        #expect(try await passedThrough.value(for: "a") { load() } == 6)
    }

    /// A commit moves the version whichever connection reads it next, and without one the
    /// version stays put on every connection (else nothing would stay kept).
    @Test func aCommitMovesTheVersionOnEveryConnectionAndNothingElseDoes() throws {
        let (folder, path, writer) = try Self.file()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Three connections, taken in turn by calls one after another.
        let watch = try CommitWatch(path: path, label: "test.watch", connections: 3)
        var before = try (1...3).map { _ in try watch.version() }
        for round in 1...3 {
            let settled = try (1...6).map { _ in try watch.version() }
            #expect(Set(settled).count == 1 && settled[0] >= before.max() ?? 0, "round \(round): the version moved without a commit: \(settled)")
            try writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [round]) }
            let after = try (1...3).map { _ in try watch.version() }
            #expect(after.min() ?? 0 > settled.max() ?? .max, "round \(round): a connection missed the commit: \(settled) then \(after)")
            before = after
        }
        // And from many threads at once, which may open more connections.
        let seen = Mutex<[Int]>([])
        try writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (4)") }
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            if let version = try? watch.version() { seen.withLock { $0.append(version) } }
        }
        #expect(seen.withLock { $0.count == 64 && $0.min() ?? 0 > before.max() ?? .max })
    }
}
