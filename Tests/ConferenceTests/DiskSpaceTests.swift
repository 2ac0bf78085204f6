import Foundation
import PocketCore
import Testing
@testable import Conference

/// The free-space check before an install: a full disk is refused before a byte is downloaded,
/// with both numbers in the message, and the previous database keeps serving.
@Suite("Disk space")
struct DiskSpaceTests {
    /// The head-room the check adds to small test files.
    private let margin: Int64 = 16 << 20

    /// An installer over the harness's library whose disk reports `available` bytes free
    /// (and records the folder it was asked about).
    private func installer(_ harness: InstallerHarness, available: Int64?, asked: Asked = Asked()) -> DatabaseInstaller {
        let settings = DatabaseInstaller.Settings(progressInterval: .milliseconds(10), freeSpace: FreeSpaceProbe { folder in
            asked.record(folder)
            return available
        })
        return DatabaseInstaller(library: harness.library, settings: settings)
    }

    @Test func aFullDiskIsRefusedBeforeTheDownload() async throws {
        try await InstallerHarness.run { harness in
            try await harness.install(Release.make("2", in: harness.folder))
            let next = try Release.make("3", in: harness.folder)
            next.publish(on: harness.server)
            let needed = Int64(next.zip.count + next.database.count) + margin
            let asked = Asked()
            let full = installer(harness, available: needed - 1, asked: asked)
            let before = harness.server.requests.count

            await #expect(throws: ConferenceError.insufficientSpace(needed: needed, available: needed - 1)) {
                try await full.update(manifestURL: harness.manifestURL)
            }
            // Only the manifest was fetched; the zip never was.
            #expect(harness.server.requests.dropFirst(before).map(\.path) == ["sci-core.json"])
            #expect(asked.folders == [harness.library.incomingFolder])
            #expect(await full.latest.phase == .failed(ConferenceError.insufficientSpace(needed: needed, available: needed - 1).description))
            #expect(try await harness.library.status().footer.lastUpdated == "release 2")
            #expect(TestFiles.contents(of: harness.library.incomingFolder) == [])
        }
    }

    @Test func exactlyEnoughRoomInstalls() async throws {
        try await InstallerHarness.run { harness in
            let release = try Release.make("2", in: harness.folder)
            release.publish(on: harness.server)
            let needed = Int64(release.zip.count + release.database.count) + margin
            let outcome = try await installer(harness, available: needed).update(manifestURL: harness.manifestURL)
            #expect(outcome.database.version == "2")
        }
    }

    @Test func anUncompressedDownloadNeedsRoomForTheDatabaseOnly() async throws {
        try await InstallerHarness.run { harness in
            let release = try Release.make("2", in: harness.folder)
            release.publish(on: harness.server)
            let databaseOnly = Int64(release.database.count) + margin
            let tight = installer(harness, available: databaseOnly)
            await #expect(throws: ConferenceError.insufficientSpace(needed: databaseOnly + Int64(release.zip.count), available: databaseOnly)) {
                try await tight.update(manifestURL: harness.manifestURL, mode: .zip)
            }
            #expect(try await tight.update(manifestURL: harness.manifestURL, mode: .uncompressed).database.version == "2")
        }
    }

    @Test func leftoversInIncomingCountAsFree() async throws {
        try await InstallerHarness.run { harness in
            let release = try Release.make("2", in: harness.folder)
            release.publish(on: harness.server)
            // A partial download of another version, which the install deletes before downloading
            // (smaller than the release, so the check still asks for part of the room).
            let leftover = Data(count: 64 << 10)
            #expect(leftover.count < release.zip.count + release.database.count)
            let incoming = harness.library.incomingFolder
            try leftover.write(to: incoming.appendingPathComponent("sci-core.1.zip.part"))
            ResumeRecord(url: harness.base.appendingPathComponent("sci-core.1.zip").absoluteString, md5: String(repeating: "1", count: 32),
                         size: Int64(leftover.count) * 2, validator: DownloadValidator(etag: "\"1\""))
                .save(to: incoming.appendingPathComponent("sci-core.1.zip.resume.json"))
            let needed = Int64(release.zip.count + release.database.count) + margin - Int64(leftover.count)
            let outcome = try await installer(harness, available: needed).update(manifestURL: harness.manifestURL)
            #expect(outcome.database.version == "2")
            #expect(TestFiles.contents(of: harness.library.incomingFolder) == [])
        }
    }

    @Test func anImportNeedsRoomForTheFile() async throws {
        try await InstallerHarness.run { harness in
            let source = try TestFiles.release("9", in: TestFiles.folder("import"))
            defer { try? FileManager.default.removeItem(at: source.deletingLastPathComponent()) }
            let size = try #require((FileManager.default.attributesOfItem(atPath: source.path)[.size] as? NSNumber)?.int64Value)
            await #expect(throws: ConferenceError.insufficientSpace(needed: size + margin, available: size)) {
                try await installer(harness, available: size).importDatabase(at: source)
            }
            #expect(try await harness.library.status().source == .sample)
            #expect(try await installer(harness, available: size + margin).importDatabase(at: source).database.version == "imported")
        }
    }

    @Test func anUnknownFreeSpaceDoesNotBlockTheInstall() async throws {
        try await InstallerHarness.run { harness in
            let release = try Release.make("2", in: harness.folder)
            release.publish(on: harness.server)
            #expect(try await installer(harness, available: nil).update(manifestURL: harness.manifestURL).database.version == "2")
        }
    }

    @Test func theMessageNamesBothSizes() {
        let error = ConferenceError.insufficientSpace(needed: 452_300_000, available: 1_250_000_000)
        #expect(error.description == "Not enough free space to install the database: it needs 452.3 MB, but the data folder's disk has 1.25 GB free; nothing was changed")
        #expect(DiskSpace.text(999) == "999 bytes")
        #expect(DiskSpace.text(48_000) == "48 KB")
    }

    @Test func theMarginIsFivePercentAndAtLeastSixteenMegabytes() {
        #expect(DiskSpace.margin(for: 1000) == 16 << 20)
        #expect(DiskSpace.margin(for: 4_000_000_000) == 200_000_000)
    }

    @Test func theSystemProbeReadsTheRealVolume() throws {
        let folder = TestFiles.folder("space")
        defer { try? FileManager.default.removeItem(at: folder) }
        let available = try #require(FreeSpaceProbe.system.availableBytes(at: folder))
        #expect(available > 0)
        #expect(FreeSpaceProbe.system.availableBytes(at: folder.appendingPathComponent("missing/deeper")) == nil)
    }
}

/// The folders a probe was asked about.
final class Asked: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [URL] = []

    func record(_ folder: URL) {
        lock.withLock { seen.append(folder) }
    }

    var folders: [URL] {
        lock.withLock { seen }
    }
}
