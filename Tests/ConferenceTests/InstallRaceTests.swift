import Foundation
import GRDB
import PocketCore
import Testing
@testable import Conference

/// An install beside other Pocket processes opening the same folder (#28): `status`, `search` or
/// a starting `serve` must never delete the file an install is about to record, and must never
/// make an install fail. A second library on the folder stands for the other process.
@Suite("Installs beside other processes")
struct InstallRaceTests {
    @Test func aStartUpWhileAnInstallRecordsItsFileDeletesNothing() async throws {
        try await InstallerHarness.run { harness in
            try await harness.install(Release.make("2", in: harness.folder))
            let record = try #require(await harness.library.installedDatabase())
            // Another process's install, between moving its checked file in and recording it: it
            // holds the lock, has staged the file's digest, and its temporary files are still there.
            let lock = try await InstallLock.acquire(in: harness.folder)
            let next = try TestFiles.release("3", in: TestFiles.folder("race-3"))
            try await harness.library.stage(next)
            let moved = "core.3.0123abcd.db"
            try FileManager.default.copyItem(at: next, to: harness.folder.appendingPathComponent("databases/\(moved)"))
            let extracting = harness.library.incomingFolder.appendingPathComponent("core.3.db.extracting")
            try Data("being checked".utf8).write(to: extracting)

            let reader = try await ConferenceLibrary.open(folder: harness.folder)
            #expect(try await reader.status().footer.lastUpdated == "release 2")
            #expect(try await reader.search("holland").count == 3)
            await #expect(throws: ConferenceError.busy) {
                try await DatabaseInstaller(library: reader).update(manifestURL: harness.manifestURL)
            }
            #expect(harness.databaseFiles == [record.fileName, moved, SampleDatabase.fileName].sorted())
            #expect(TestFiles.contents(of: harness.library.incomingFolder) == [extracting.lastPathComponent])
            #expect(try Self.stagedDigests(in: harness.folder) == 1)

            // Let go without recording the file (the install was killed): the next start-up removes it all.
            lock.release()
            let restarted = try await ConferenceLibrary.open(folder: harness.folder)
            #expect(try await restarted.status().footer.lastUpdated == "release 2")
            #expect(harness.databaseFiles == [record.fileName, SampleDatabase.fileName].sorted())
            #expect(TestFiles.contents(of: harness.library.incomingFolder) == [])
            #expect(try Self.stagedDigests(in: harness.folder) == 0)
        }
    }

    /// A start-up tidying up holds the lock for a moment: an install that meets it waits, where a
    /// second install is refused at once (`InstallerTests.onlyOneProcessInstallsAtATime`).
    @Test func anInstallWaitsForATidyUpInsteadOfFailing() async throws {
        try await InstallerHarness.run { harness in
            try Release.make("2", in: harness.folder).publish(on: harness.server)
            let tidying = try #require(InstallLock.tryAcquire(in: harness.folder))
            let update = Task { try await harness.installer.update(manifestURL: harness.manifestURL) }
            let lockFile = harness.folder.appendingPathComponent(InstallLock.fileName)
            while try !Self.someoneWaits(for: lockFile), await !harness.installer.latest.phase.isFinished {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(harness.server.requests.isEmpty)
            tidying.release()
            #expect(try await update.value.database.version == "2")
        }
    }

    /// A reader that found the file of the record it read gone (an install in another process
    /// recorded a new file and deleted that one since) forgets nothing the install recorded.
    @Test func aReaderForgetsOnlyTheRecordOfTheFileItCouldNotOpen() async throws {
        try await InstallerHarness.run { harness in
            try await harness.install(Release.make("2", in: harness.folder))
            let record = try #require(await harness.library.installedDatabase())
            let reader = try ConferenceStateDatabase.onDisk(at: harness.folder.appendingPathComponent("state.sqlite"))
            try await reader.forgetInstalled(fileName: "core.1.0123abcd.db")
            #expect(try await reader.installed()?.fileName == record.fileName)
            let restarted = try await ConferenceLibrary.open(folder: harness.folder)
            #expect(try await restarted.status().source.record?.fileName == record.fileName)

            try await reader.forgetInstalled(fileName: record.fileName)
            #expect(try await reader.installed() == nil)
        }
    }

    /// Digests staged by an install that has not recorded its file.
    static func stagedDigests(in folder: URL) throws -> Int {
        try TestFiles.stateDatabase(in: folder).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM digest WHERE fileName IS NULL") ?? 0
        }
    }

    /// Whether a process is waiting for a flock on `file`: Linux lists each waiter in /proc/locks
    /// as a `->` line naming the file's inode.
    private static func someoneWaits(for file: URL) throws -> Bool {
        let inode = try #require(FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? NSNumber)
        return try String(contentsOfFile: "/proc/locks", encoding: .utf8).split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.contains("->") && fields.contains("FLOCK") && fields.contains { $0.hasSuffix(":\(inode)") }
        }
    }
}
