import Foundation
import GRDB
import Testing
@testable import PocketCore

@Suite("Data directory and databases")
struct DataDirectoryTests {
    private func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("pocket-tests-\(UUID().uuidString)", isDirectory: true)
    }

    @Test func createsMissingFoldersAndLeavesNoProbeBehind() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = try DataDirectory(url: root.appendingPathComponent("a/b"))
        #expect(FileManager.default.fileExists(atPath: directory.url.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [DataFolderMarker.fileName])
        #expect(directory.file("pocket.sqlite").lastPathComponent == "pocket.sqlite")
        let sub = try directory.folder("downloads")
        #expect(FileManager.default.fileExists(atPath: sub.path))
    }

    @Test func aFileInTheWayIsAClearError() throws {
        let root = temporaryFolder()
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let blocker = root.appendingPathComponent("blocker")
        try Data("x".utf8).write(to: blocker)
        do {
            _ = try DataDirectory(url: blocker.appendingPathComponent("pocket"))
            Issue.record("expected an error")
        } catch {
            guard case .dataDirectoryNotWritable(let path, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path.hasSuffix("blocker/pocket"))
            #expect(error.description.hasPrefix("data directory "))
            #expect(error.description.hasSuffix("blocker is a file, not a folder"))
        }
    }

    /// On a full disk the data folder is refused as full, not for a permission it has: the
    /// kernel's /dev/full fails every write as a full disk does.
    @Test func aFullDiskIsSaidToBeFull() throws {
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(full >= 0)
        defer { close(full) }
        #expect(DataDirectory.writeProblem(full) == "the disk is full")
        let error = ConfigurationError.dataDirectoryNotWritable(path: "/data", reason: DataDirectory.writeProblem(full) ?? "")
        #expect(error.description == "data directory /data is not writable: the disk is full")

        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let writable = open(root.appendingPathComponent("probe").path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        defer { close(writable) }
        #expect(DataDirectory.writeProblem(writable) == nil)
    }

    @Test func databasesEnforceForeignKeys() throws {
        let queue = try DatabaseFactory.inMemory(label: "test")
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE parent(id INTEGER PRIMARY KEY); CREATE TABLE child(id INTEGER PRIMARY KEY, parentID INTEGER NOT NULL REFERENCES parent(id))")
        }
        #expect(throws: DatabaseError.self) {
            try queue.write { db in try db.execute(sql: "INSERT INTO child(id, parentID) VALUES (1, 42)") }
        }
    }

    @Test func onDiskDatabaseIsCreatedInWALMode() throws {
        let root = temporaryFolder()
        let directory = try DataDirectory(url: root)
        defer { try? FileManager.default.removeItem(at: root) }
        let pool = try DatabaseFactory.onDisk(at: directory.file("test.sqlite"), label: "test")
        let mode = try pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }
}
