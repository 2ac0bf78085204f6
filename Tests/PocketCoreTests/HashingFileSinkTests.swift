import Crypto
import Foundation
import NIOCore
import PocketCore
import Testing

@Suite("Hashing file sink")
struct HashingFileSinkTests {
    private static func md5(_ data: Data) -> String {
        Insecure.MD5.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    private static func bytes(_ count: Int, seed: UInt64) -> Data {
        var generator = SplitMix64(seed: seed)
        return Data((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
    }

    private static func file() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("sink-\(UUID().uuidString)")
    }

    /// Chunks queued faster than the sink drains them (a queue smaller than two chunks) arrive
    /// whole and in order, and the MD5 is the file's.
    @Test func blockingWritesKeepOrderAndHash() throws {
        let url = Self.file()
        defer { try? FileManager.default.removeItem(at: url) }
        let data = Self.bytes(300_000, seed: 1)
        let sink = try HashingFileSink(file: url, maximumQueuedBytes: 10_000)
        let seen = Collected()
        for start in stride(from: 0, to: data.count, by: 7_001) {
            try sink.write(data[start..<min(start + 7_001, data.count)]) { seen.append($0) }
        }
        let md5 = try sink.finish()
        sink.close()
        #expect(sink.byteCount == Int64(data.count))
        #expect(try Data(contentsOf: url) == data)
        #expect(md5 == Self.md5(data))
        #expect(seen.data == data)
    }

    @Test func asyncAppendsKeepOrderAndHash() async throws {
        let url = Self.file()
        defer { try? FileManager.default.removeItem(at: url) }
        let data = Self.bytes(200_000, seed: 2)
        let sink = try HashingFileSink(file: url, maximumQueuedBytes: 4_096)
        for start in stride(from: 0, to: data.count, by: 3_000) {
            try await sink.append(ByteBuffer(bytes: data[start..<min(start + 3_000, data.count)]))
        }
        let md5 = try sink.finish()
        sink.close()
        #expect(try Data(contentsOf: url) == data)
        #expect(md5 == Self.md5(data))
    }

    /// Resuming: the kept bytes are read back into the hash, anything after them is cut.
    @Test func keptBytesAreHashedAndTheRestReplaced() throws {
        let url = Self.file()
        defer { try? FileManager.default.removeItem(at: url) }
        let data = Self.bytes(50_000, seed: 3)
        try (data.prefix(30_000) + Data(repeating: 0xEE, count: 5_000)).write(to: url)
        let sink = try HashingFileSink(file: url, keeping: 30_000)
        #expect(sink.byteCount == 30_000)
        try sink.write(data.suffix(from: 30_000))
        let md5 = try sink.finish()
        sink.close()
        #expect(try Data(contentsOf: url) == data)
        #expect(md5 == Self.md5(data))
    }

    /// Starting afresh over an older, longer file leaves none of its bytes behind.
    @Test func anOlderFileIsReplaced() throws {
        let url = Self.file()
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(repeating: 0xEE, count: 90_000).write(to: url)
        let data = Self.bytes(10_000, seed: 4)
        let sink = try HashingFileSink(file: url)
        try sink.write(data)
        #expect(try sink.finish() == Self.md5(data))
        sink.close()
        #expect(try Data(contentsOf: url) == data)
    }

    /// A device that is always full: the failed write is reported, not lost.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aFailedWriteIsReported() throws {
        let sink = try HashingFileSink(file: URL(fileURLWithPath: "/dev/full"), maximumQueuedBytes: 1_024)
        defer { sink.close() }
        #expect(throws: (any Error).self) {
            for _ in 0..<100 { try sink.write(Data(repeating: 1, count: 1_000)) }
            _ = try sink.finish()
        }
    }
}

/// What the sink's `alongside` saw, gathered across threads.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var collected = Data()

    func append(_ chunk: Data) {
        lock.withLock { collected.append(chunk) }
    }

    var data: Data {
        lock.withLock { collected }
    }
}
