import Foundation
import PocketCore
import Testing
import ZIPFoundation
@testable import Conference

/// Unpacking a zip's first entry from its bytes in order, as they are downloaded.
@Suite("Zip entry stream")
struct ZipEntryStreamTests {
    /// Half compressible text, half random bytes, so deflate has blocks of both kinds.
    private static let content: Data = {
        var random = SplitMix64(seed: 9)
        return Data((0..<300_000).map { index in
            index < 150_000 ? UInt8(ascii: "a") + UInt8(index % 7) : UInt8(truncatingIfNeeded: random.next())
        })
    }()

    private func unpack(_ zip: Data, chunk: Int, limit: Int64 = 1 << 20,
                        accepting accepts: @escaping (String) -> Bool = { $0 == "core.db" }) throws -> (ZipEntryStream.Unpacked, Data) {
        let folder = TestFiles.folder("zip-stream")
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("out")
        let sink = try HashingFileSink(file: target)
        defer { sink.close() }
        let stream = ZipEntryStream(accepting: accepts, limit: limit, into: sink)
        var offset = 0
        while !stream.isFinished, offset < zip.count {
            let end = min(zip.count, offset + chunk)
            try zip[offset..<end].withUnsafeBytes { bytes in _ = try stream.feed(bytes) }
            offset = end
        }
        let unpacked = try stream.finish()
        return (unpacked, try Data(contentsOf: target))
    }

    @Test(arguments: [true, false])
    func theFirstEntryUnpacksTheSameHoweverTheBytesArrive(compressed: Bool) throws {
        let zip = try TestFiles.zip([("core.db", Self.content), ("readme.txt", Data("later".utf8))], compress: compressed)
        let archiveFile = TestFiles.folder("zip-stream-archive").appendingPathComponent("a.zip")
        try zip.write(to: archiveFile)
        let entry = try #require(try Archive(url: archiveFile, accessMode: .read)["core.db"])
        for chunk in [1, 13, 4096, zip.count] {
            let (unpacked, data) = try unpack(zip, chunk: chunk)
            #expect(data == Self.content, "chunks of \(chunk)")
            #expect(unpacked == ZipEntryStream.Unpacked(name: "core.db", compressedSize: Int64(entry.compressedSize),
                                                       byteCount: Int64(Self.content.count), crc: entry.checksum, md5: TestFiles.md5(Self.content)))
            #expect(try ZipExtractor.accept(unpacked, archive: archiveFile, entryName: "core.db",
                                            destination: archiveFile.deletingLastPathComponent().appendingPathComponent("x"), limit: 1 << 20))
        }
    }

    @Test func anotherFirstEntryOrALimitStopsIt() throws {
        let zip = try TestFiles.zip([("readme.txt", Data("first".utf8)), ("core.db", Self.content)])
        #expect(throws: ZipEntryStream.Failure.otherEntry("readme.txt")) { try unpack(zip, chunk: 100) }
        let bomb = try TestFiles.zip([("core.db", Data(count: 5_000_000))])
        #expect(throws: ZipEntryStream.Failure.tooLarge) { try unpack(bomb, chunk: 1000, limit: 1000) }
        #expect(throws: ZipEntryStream.Failure.notAZip) { try unpack(Data(repeating: 7, count: 100), chunk: 10) }
    }

    @Test func damagedDataIsNeverTakenForTheEntry() throws {
        var zip = try TestFiles.zip([("core.db", Self.content)])
        // Scramble bytes in the middle of the deflated data.
        for index in stride(from: zip.count / 3, to: zip.count / 2, by: 5) { zip[index] ^= 0x5A }
        let archiveFile = TestFiles.folder("zip-stream-damaged").appendingPathComponent("a.zip")
        try zip.write(to: archiveFile)
        let destination = archiveFile.deletingLastPathComponent().appendingPathComponent("x")
        do {
            let (unpacked, _) = try unpack(zip, chunk: 4096)
            #expect(try !ZipExtractor.accept(unpacked, archive: archiveFile, entryName: "core.db", destination: destination, limit: 1 << 20))
        } catch {
            #expect(error is ZipEntryStream.Failure)
        }
        #expect(throws: ConferenceError.self) {
            try ZipExtractor.extract(archive: archiveFile, entryName: "core.db", to: destination, limit: 1 << 20, cancellation: Flag()) { _ in }
        }
    }

    // MARK: Following a download

    /// Writes `zip` into `part` a slice at a time, as a download does, telling `follower`.
    private func download(_ zip: Data, into part: URL, follower: ZipFollower, restartAt: Int? = nil) async throws {
        let sink = try HashingFileSink(file: part)
        var offset = 0
        while offset < zip.count {
            if let restartAt, offset >= restartAt {
                // A server that ignores Range: the download starts the file again.
                sink.close()
                try FileManager.default.removeItem(at: part)
                try Data().write(to: part)
                break
            }
            let end = min(zip.count, offset + 7_000)
            try sink.write(zip[offset..<end])
            follower.received()
            offset = end
            try await Task.sleep(for: .milliseconds(1))
        }
        _ = try? sink.finish()
        sink.close()
        follower.downloadEnded()
    }

    @Test func aFollowerUnpacksWhileTheZipArrives() async throws {
        let folder = TestFiles.folder("zip-follow")
        defer { try? FileManager.default.removeItem(at: folder) }
        let zip = try TestFiles.zip([("core.db", Self.content)])
        let part = folder.appendingPathComponent("a.zip.part"), target = folder.appendingPathComponent("core.db.extracting")
        let follower = ZipFollower(part: part, destination: target, limit: 1 << 20) { $0 == "core.db" }
        try await download(zip, into: part, follower: follower)
        let unpacked = try #require(await follower.result())
        #expect(unpacked.md5 == TestFiles.md5(Self.content))
        #expect(try Data(contentsOf: target) == Self.content)
        #expect(try ZipExtractor.accept(unpacked, archive: part, entryName: "core.db", destination: target, limit: 1 << 20))
    }

    @Test func aFollowerGivesUpWhenTheFileStartsOverOrStops() async throws {
        let folder = TestFiles.folder("zip-follow-restart")
        defer { try? FileManager.default.removeItem(at: folder) }
        let zip = try TestFiles.zip([("core.db", Self.content)])
        let part = folder.appendingPathComponent("a.zip.part"), target = folder.appendingPathComponent("core.db.extracting")
        let restarted = ZipFollower(part: part, destination: target, limit: 1 << 20) { $0 == "core.db" }
        try await download(zip, into: part, follower: restarted, restartAt: zip.count / 2)
        let outcome = await restarted.result()
        #expect(outcome == nil, "\(String(describing: outcome)) of \(zip.count)")

        // Stopped before the file even exists.
        let stopped = ZipFollower(part: folder.appendingPathComponent("never.part"), destination: target, limit: 1 << 20) { _ in true }
        await stopped.stop()
        #expect(await stopped.result() == nil)
    }
}
