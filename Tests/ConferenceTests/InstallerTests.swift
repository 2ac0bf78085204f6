import Foundation
import GRDB
import PocketCore
import Testing
@testable import Conference

/// The whole install pipeline against a real HTTP server on loopback.
@Suite("Installer")
struct InstallerTests {
    // MARK: Success

    @Test func anUpdateDownloadsVerifiesExtractsAndSwaps() async throws {
        try await InstallerHarness.run { harness in
            let release = try Release.make("2", in: harness.folder)
            release.publish(on: harness.server)
            let progress = await harness.installer.progress.subscribe()
            let phases = Task {
                var seen: [InstallProgress.Phase] = []
                for await value in progress {
                    if seen.last != value.phase { seen.append(value.phase) }
                    if value.phase.isFinished { break }
                }
                return seen
            }
            let outcome = try await harness.installer.update(manifestURL: harness.manifestURL)
            guard case .installed(let record) = outcome else { Issue.record("not installed: \(outcome)"); return }
            #expect(record.version == "2")
            #expect(record.contentName == "core.2.db")
            #expect(record.contentMD5 == TestFiles.md5(release.database))
            #expect(record.origin == .download)
            #expect(await phases.value == [.checkingManifest, .downloading, .verifying, .extracting, .verifying, .checkingDatabase, .installing, .done])
            #expect(await harness.installer.latest == InstallProgress(phase: .done, version: "2", message: "Installed version 2"))

            let status = try await harness.library.status()
            #expect(status.source == .installed(record))
            #expect(status.footer.lastUpdated == "release 2")
            #expect(status.footer.label == "Database version 2")
            #expect(TestFiles.contents(of: harness.library.incomingFolder) == [])
            #expect(harness.databaseFiles == [record.fileName, SampleDatabase.fileName].sorted())
            // The installed file is the manifest's content, byte for byte.
            let installed = try Data(contentsOf: harness.folder.appendingPathComponent("databases/\(record.fileName)"))
            #expect(installed == release.database)
            #expect(harness.server.requests.map(\.path) == ["sci-core.json", "sci-core.2.zip"])
        }
    }

    @Test func anInstalledDatabaseIsSkippedWithOneSmallRequest() async throws {
        try await InstallerHarness.run { harness in
            try await harness.install(Release.make("2", in: harness.folder))
            let before = harness.server.requests.count
            let outcome = try await harness.installer.update(manifestURL: harness.manifestURL)
            #expect(outcome == .alreadyInstalled(try #require(await harness.library.installedDatabase())))
            #expect(harness.server.requests.count == before + 1)
            #expect(harness.server.requests.last?.path == "sci-core.json")
            #expect(await harness.installer.latest.message == "Version 2 is already installed")
            // A restarted Pocket also skips it.
            let reopened = try await ConferenceLibrary.open(folder: harness.folder)
            let installer = DatabaseInstaller(library: reopened)
            #expect(try await installer.update(manifestURL: harness.manifestURL).database.version == "2")
            #expect(harness.server.requests.count == before + 2)
        }
    }

    @Test func aNewReleaseReplacesTheOldOneWhoseFileIsDeleted() async throws {
        try await InstallerHarness.run { harness in
            try await harness.install(Release.make("2", in: harness.folder))
            try await harness.install(Release.make("3", in: harness.folder))
            let record = try #require(await harness.library.installedDatabase())
            #expect(record.version == "3")
            #expect(try await harness.library.status().footer.lastUpdated == "release 3")
            #expect(harness.databaseFiles == [record.fileName, SampleDatabase.fileName].sorted())
            #expect(try await harness.library.search("holland").count == 3)
        }
    }

    @Test func theDatabaseCanBeDownloadedUncompressed() async throws {
        try await InstallerHarness.run { harness in
            let release = try Release.make("4", in: harness.folder)
            release.publish(on: harness.server)
            let outcome = try await harness.installer.update(manifestURL: harness.manifestURL, mode: .uncompressed)
            #expect(outcome.database.version == "4")
            #expect(harness.server.requests.map(\.path) == ["sci-core.json", "core.4.db"])
            #expect(try await harness.library.status().footer.lastUpdated == "release 4")
        }
    }

    @Test func concurrentRequestsShareOneDownload() async throws {
        try await InstallerHarness.run { harness in
            let release = try Release.make("2", in: harness.folder)
            // Two seconds of download: the second request starts long before the first can finish.
            release.publish(on: harness.server, zipBehavior: .slow(chunks: 5, pause: 0.4))
            async let first = harness.installer.update(manifestURL: harness.manifestURL)
            try await Task.sleep(for: .milliseconds(50))
            async let second = harness.installer.update(manifestURL: harness.manifestURL)
            let outcomes = try await [first, second]
            #expect(outcomes[0] == outcomes[1])
            #expect(outcomes[0].database.version == "2")
            #expect(harness.server.requests(for: "sci-core.json").count == 1)
            #expect(harness.server.requests(for: release.zipName).count == 1)
        }
    }

    // MARK: Resuming

    @Test func aDroppedDownloadResumesWithRange() async throws {
        try await InstallerHarness.run { harness in
            let release = try Release.make("2", in: harness.folder)
            release.publish(on: harness.server, zipBehavior: .dropsFirst(1))
            #expect(try await harness.installer.update(manifestURL: harness.manifestURL).database.version == "2")
            let requests = harness.server.requests(for: release.zipName)
            #expect(requests.count == 2)
            #expect(requests[0].range == nil)
            // It continues from whatever arrived before the connection dropped.
            let offset = try #require(requests[1].range.flatMap(FixtureServer.rangeStart))
            #expect(offset > 0 && offset <= release.zip.count / 2)
            #expect(requests[1].ifRange == FixtureServer.etag(release.zip))
            #expect(TestFiles.contents(of: harness.library.incomingFolder) == [])
        }
    }

    @Test func aServerWithoutRangesIsDownloadedAgainFromTheStart() async throws {
        try await InstallerHarness.run { harness in
            let release = try Release.make("2", in: harness.folder)
            release.publish(on: harness.server, zipBehavior: .dropsFirstWithoutRanges(1))
            #expect(try await harness.installer.update(manifestURL: harness.manifestURL).database.version == "2")
            #expect(harness.server.requests(for: release.zipName).map(\.range) == [nil, nil])
        }
    }

    @Test func aDownloadLeftByAKilledRunIsResumed() async throws {
        try await InstallerHarness.run { harness in
            let release = try Release.make("2", in: harness.folder)
            release.publish(on: harness.server)
            // What a run killed half way leaves behind: the partial zip and its resume record.
            let incoming = harness.library.incomingFolder
            let half = release.zip.count / 3
            try release.zip.prefix(half).write(to: incoming.appendingPathComponent("sci-core.2.zip.part"))
            let record = ResumeRecord(url: harness.base.appendingPathComponent(release.zipName).absoluteString, md5: TestFiles.md5(release.zip),
                                      size: Int64(release.zip.count), validator: DownloadValidator(etag: FixtureServer.etag(release.zip)))
            record.save(to: incoming.appendingPathComponent("sci-core.2.zip.resume.json"))

            #expect(try await harness.installer.update(manifestURL: harness.manifestURL).database.version == "2")
            #expect(harness.server.requests(for: release.zipName).map(\.range) == ["bytes=\(half)-"])
            #expect(TestFiles.contents(of: incoming) == [])
        }
    }

    @Test func aPartialFileOfAnotherVersionIsThrownAway() async throws {
        try await InstallerHarness.run { harness in
            let release = try Release.make("2", in: harness.folder)
            release.publish(on: harness.server)
            let incoming = harness.library.incomingFolder
            try Data(repeating: 1, count: 500).write(to: incoming.appendingPathComponent("sci-core.2.zip.part"))
            ResumeRecord(url: "http://elsewhere/sci-core.2.zip", md5: String(repeating: "0", count: 32), size: 9, validator: DownloadValidator(etag: "\"x\""))
                .save(to: incoming.appendingPathComponent("sci-core.2.zip.resume.json"))
            #expect(try await harness.installer.update(manifestURL: harness.manifestURL).database.version == "2")
            #expect(harness.server.requests(for: release.zipName).map(\.range) == [nil])
        }
    }

    @Test func aRestartAfterAKillFindsTheOldDatabaseAndNoTemporaryFilesButTheDownloadToResume() async throws {
        try await InstallerHarness.run { harness in
            try await harness.install(Release.make("2", in: harness.folder))
            let next = try Release.make("3", in: harness.folder)
            next.publish(on: harness.server)
            // Leftovers of a run killed at various points: a download to resume, an extraction, an
            // import copy, a sample being built, a staged digest, and a database moved into place
            // whose install was never recorded.
            let incoming = harness.library.incomingFolder
            let half = next.zip.count / 3
            try next.zip.prefix(half).write(to: incoming.appendingPathComponent("sci-core.3.zip.part"))
            ResumeRecord(url: harness.base.appendingPathComponent(next.zipName).absoluteString, md5: TestFiles.md5(next.zip),
                         size: Int64(next.zip.count), validator: DownloadValidator(etag: FixtureServer.etag(next.zip)))
                .save(to: incoming.appendingPathComponent("sci-core.3.zip.resume.json"))
            for name in ["core.3.db.extracting", "import-1234.db", "sample-0000.db", "sci-core.1.zip.part"] {
                try Data("stale".utf8).write(to: incoming.appendingPathComponent(name))
            }
            try await harness.library.stage(TestFiles.release("3", in: TestFiles.folder("staged-3")))
            let orphan = harness.folder.appendingPathComponent("databases/core.3.deadbeef.db")
            try Data("half installed".utf8).write(to: orphan)

            let restarted = try await ConferenceLibrary.open(folder: harness.folder)
            #expect(try await restarted.status().footer.version == "2")
            #expect(!FileManager.default.fileExists(atPath: orphan.path))
            #expect(TestFiles.contents(of: incoming) == ["sci-core.3.zip.part", "sci-core.3.zip.resume.json"])
            #expect(try InstallRaceTests.stagedDigests(in: harness.folder) == 0)

            let installer = DatabaseInstaller(library: restarted)
            #expect(try await installer.update(manifestURL: harness.manifestURL).database.version == "3")
            #expect(harness.server.requests(for: next.zipName).map(\.range) == ["bytes=\(half)-"])
            #expect(TestFiles.contents(of: incoming) == [])
        }
    }

    @Test func cancellingMidDownloadKeepsTheOldDatabaseAndRemovesTheTemporaryFiles() async throws {
        try await InstallerHarness.run { harness in
            try await harness.install(Release.make("2", in: harness.folder))
            let release = try Release.make("3", in: harness.folder)
            release.publish(on: harness.server, zipBehavior: .slow(chunks: 40, pause: 0.1))
            let update = Task { try await harness.installer.update(manifestURL: harness.manifestURL) }
            for _ in 0..<200 {
                let latest = await harness.installer.latest
                if latest.phase == .downloading, latest.bytesDone > 0 { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            await harness.installer.cancel()
            await #expect(throws: ConferenceError.cancelled) { try await update.value }
            try await harness.expectStillServing("2")
            #expect(await harness.installer.isRunning == false)
        }
    }

    // MARK: Several processes

    @Test func anotherProcessesInstallIsFollowedAtTheNextQuery() async throws {
        try await InstallerHarness.run { harness in
            try await harness.install(Release.make("2", in: harness.folder))
            // A second library on the same folder stands for `pocket conference update` beside the server.
            let other = try await ConferenceLibrary.open(folder: harness.folder)
            try Release.make("3", in: harness.folder).publish(on: harness.server)
            _ = try await DatabaseInstaller(library: other).update(manifestURL: harness.manifestURL)

            #expect(try await harness.library.status().footer.lastUpdated == "release 3")
            #expect(await harness.library.installedDatabase()?.version == "3")
            #expect(try await harness.library.talk(id: 8769).title == "As a Little Child")
            let record = try #require(await harness.library.installedDatabase())
            #expect(harness.databaseFiles == [record.fileName, SampleDatabase.fileName].sorted())
            // The first process's installer skips the release the other one installed.
            #expect(try await harness.installer.update(manifestURL: harness.manifestURL) == .alreadyInstalled(record))
        }
    }

    @Test func onlyOneProcessInstallsAtATime() async throws {
        try await InstallerHarness.run { harness in
            try Release.make("2", in: harness.folder).publish(on: harness.server)
            let held = try await InstallLock.acquire(in: harness.library.folder)
            // The other process's download in progress must survive the refusal.
            let theirs = harness.library.incomingFolder.appendingPathComponent("sci-core.2.zip.part")
            try Data("in progress".utf8).write(to: theirs)
            await #expect(throws: ConferenceError.busy) { try await harness.installer.update(manifestURL: harness.manifestURL) }
            #expect(FileManager.default.fileExists(atPath: theirs.path))
            #expect(harness.server.requests.isEmpty)
            held.release()
            #expect(try await harness.installer.update(manifestURL: harness.manifestURL).database.version == "2")
        }
    }

    // MARK: Import

    @Test func importingChecksTheFileAndSwapsItIn() async throws {
        try await InstallerHarness.run { harness in
            let source = try TestFiles.release("9", in: TestFiles.folder("import"))
            let outcome = try await harness.installer.importDatabase(at: source)
            #expect(outcome.database.origin == .import)
            #expect(outcome.database.version == "imported")
            #expect(outcome.database.contentName == "core.9.db")
            #expect(FileManager.default.fileExists(atPath: source.path)) // copied, not moved
            #expect(try await harness.library.status().footer.lastUpdated == "release 9")

            let text = source.deletingLastPathComponent().appendingPathComponent("notes.txt")
            try Data("just text".utf8).write(to: text)
            await #expect(throws: ConferenceError.notADatabase("the file is not an SQLite database")) {
                try await harness.installer.importDatabase(at: text)
            }
            let missing = source.deletingLastPathComponent().appendingPathComponent("missing.db")
            await #expect(throws: ConferenceError.fileSystem("cannot read \(missing.path)")) {
                try await harness.installer.importDatabase(at: missing)
            }
            let empty = source.deletingLastPathComponent().appendingPathComponent("empty.db")
            try Data().write(to: empty)
            await #expect(throws: ConferenceError.notADatabase("the file is empty")) {
                try await harness.installer.importDatabase(at: empty)
            }
            #expect(try await harness.library.status().footer.lastUpdated == "release 9")
            #expect(TestFiles.contents(of: harness.library.incomingFolder) == [])
        }
    }

    @Test func aVanishedInstalledFileFallsBackToTheSample() async throws {
        try await InstallerHarness.run { harness in
            try await harness.install(Release.make("2", in: harness.folder))
            let record = try #require(await harness.library.installedDatabase())
            try FileManager.default.removeItem(at: harness.folder.appendingPathComponent("databases/\(record.fileName)"))
            let reopened = try await ConferenceLibrary.open(folder: harness.folder)
            let status = try await reopened.status()
            #expect(status.source == .sample)
            #expect(status.warning?.contains("version 2") == true)
            // The record is forgotten, so the next update downloads again.
            #expect(await reopened.installedDatabase() == nil)
            #expect(try await DatabaseInstaller(library: reopened).update(manifestURL: harness.manifestURL) != .alreadyInstalled(record))
        }
    }

    /// A command that installs a database does not build the sample it would replace: opened to
    /// load the sample when needed, an empty data folder gets the download and nothing else.
    @Test func anInstallIntoAnEmptyFolderNeverBuildsTheSample() async throws {
        try await InstallerHarness.run { harness in
            let release = try Release.make("2", in: TestFiles.folder("lazy-release"))
            release.publish(on: harness.server)
            let folder = TestFiles.folder("lazy")
            defer { try? FileManager.default.removeItem(at: folder) }
            let library = try await ConferenceLibrary.open(folder: folder, sample: .whenNeeded)
            #expect(await library.installedDatabase() == nil)
            let outcome = try await DatabaseInstaller(library: library).update(manifestURL: harness.manifestURL)
            #expect(TestFiles.contents(of: folder.appendingPathComponent("databases")) == [outcome.database.fileName])
            #expect(try await library.status().footer.lastUpdated == "release 2")
            #expect(try await library.search("holland").count == 3)
        }
    }

    /// Loaded on demand, the sample answers every screen, its search index included.
    @Test func theSampleIsLoadedWhenAScreenFirstAsks() async throws {
        let folder = TestFiles.folder("lazy-sample")
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try await ConferenceLibrary.open(folder: folder, sample: .whenNeeded)
        #expect(TestFiles.contents(of: folder.appendingPathComponent("databases")).isEmpty)
        #expect(try await library.search("holland").count == 3)
        #expect(TestFiles.contents(of: folder.appendingPathComponent("databases")) == [SampleDatabase.fileName])
        #expect(try await library.status().source == .sample)
        #expect(try await library.conferences().conferences.map(\.talkCount) == [33, 32])
        try await DigestTests.expectSameAnswers(library, as: library.generation().file)
    }
}
