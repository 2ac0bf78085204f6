import Foundation
import Hummingbird
import HummingbirdTesting
import PocketCore
import Testing

/// PocketCore's streaming downloader against a real server on loopback. (PocketCoreTests has no
/// Hummingbird, so the fixture-server tests live here.)
@Suite("Streaming download")
struct StreamingDownloadTests {
    static let payload = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 7) })

    private func withServer(_ behavior: FixtureServer.Behavior, _ body: @Sendable (FixtureServer, URL, URL) async throws -> Void) async throws {
        let server = FixtureServer()
        server.put("file.bin", Self.payload, behavior: behavior)
        let folder = TestFiles.folder("download")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await server.serving { base in
            let url = base.appendingPathComponent("file.bin")
            try await body(server, url, folder.appendingPathComponent("file.part"))
        }
    }

    /// Generous limits, so a loaded machine cannot fail a test that is not about them.
    private func options(_ validator: DownloadValidator? = nil, expected: Int64? = Int64(payload.count), idle: Duration = .seconds(15), response: Duration = .seconds(30)) -> DownloadOptions {
        DownloadOptions(expectedSize: expected, validator: validator, maxAttempts: 3, responseTimeout: response, idleTimeout: idle)
    }

    @Test func streamsToDiskAndHashesWhileStreaming() async throws {
        try await withServer(.normal) { server, url, file in
            let seen = ProgressLog()
            let result = try await StreamingDownloader().download(url, to: file, options: options()) { seen.append($0) }
            #expect(try Data(contentsOf: file) == Self.payload)
            #expect(result.byteCount == Int64(Self.payload.count))
            #expect(result.md5 == TestFiles.md5(Self.payload))
            #expect(result.validator.etag == FixtureServer.etag(Self.payload))
            #expect(result.resumedFrom == 0)
            #expect(result.requests == 1)
            #expect(seen.values.last?.bytesReceived == Int64(Self.payload.count))
            #expect(seen.values.last?.totalBytes == Int64(Self.payload.count))
            #expect(seen.values.map(\.bytesReceived) == seen.values.map(\.bytesReceived).sorted())
        }
    }

    @Test func aDroppedConnectionIsResumedWithRangeAndIfRange() async throws {
        try await withServer(.dropsFirst(1)) { server, url, file in
            let result = try await StreamingDownloader().download(url, to: file, options: options()) { _ in }
            #expect(result.md5 == TestFiles.md5(Self.payload))
            #expect(result.requests == 2)
            // It continues from whatever arrived before the connection dropped.
            #expect(result.resumedFrom > 0 && result.resumedFrom <= Int64(Self.payload.count / 2))
            #expect(server.requests.map(\.range) == [nil, "bytes=\(result.resumedFrom)-"])
        }
    }

    @Test func aPartialFileFromAnEarlierRunIsContinued() async throws {
        try await withServer(.normal) { server, url, file in
            try Self.payload.prefix(1000).write(to: file)
            let validator = DownloadValidator(etag: FixtureServer.etag(Self.payload))
            let result = try await StreamingDownloader().download(url, to: file, options: options(validator)) { _ in }
            #expect(result.resumedFrom == 1000)
            // The hash covers the kept bytes too.
            #expect(result.md5 == TestFiles.md5(Self.payload))
            #expect(server.requests.map(\.range) == ["bytes=1000-"])
        }
    }

    @Test func aChangedFileOnTheServerRestartsTheDownload() async throws {
        try await withServer(.normal) { server, url, file in
            try Data(repeating: 9, count: 1000).write(to: file)
            // The saved ETag names another version: the server's If-Range check sends the whole file.
            let result = try await StreamingDownloader().download(url, to: file, options: options(DownloadValidator(etag: "\"old\""))) { _ in }
            #expect(result.resumedFrom == 0)
            #expect(try Data(contentsOf: file) == Self.payload)
            #expect(server.requests.map(\.ifRange) == ["\"old\""])
        }
    }

    @Test func aServerThatIgnoresRangesIsReadFromTheStart() async throws {
        try await withServer(.ignoresRange(advertises: true)) { _, url, file in
            try Self.payload.prefix(1000).write(to: file)
            let validator = DownloadValidator(lastModified: "Sat, 04 Oct 2025 10:00:00 GMT")
            let result = try await StreamingDownloader().download(url, to: file, options: options(validator)) { _ in }
            #expect(result.resumedFrom == 0)
            #expect(result.md5 == TestFiles.md5(Self.payload))
            #expect(try Data(contentsOf: file).count == Self.payload.count)
        }
    }

    @Test func failuresSayWhatHappened() async throws {
        try await withServer(.status(404)) { _, url, file in
            await #expect(throws: DownloadError.status(404)) { try await StreamingDownloader().download(url, to: file, options: options()) { _ in } }
        }
        try await withServer(.stalls(seconds: 3)) { _, url, file in
            await #expect(throws: DownloadError.timedOut) {
                try await StreamingDownloader().download(url, to: file, options: options(idle: .milliseconds(400))) { _ in }
            }
        }
        try await withServer(.normal) { _, url, file in
            await #expect(throws: DownloadError.sizeMismatch(expected: 10, actual: Int64(Self.payload.count))) {
                try await StreamingDownloader().download(url, to: file, options: options(expected: 10)) { _ in }
            }
        }
        try await withServer(.dropsFirstWithoutRanges(5)) { server, url, file in
            await #expect {
                try await StreamingDownloader().download(url, to: file, options: options()) { _ in }
            } throws: { error in
                // Whatever arrived of the half the server sent before each drop.
                guard case .interrupted(let received, let expected)? = error as? DownloadError else { return false }
                return received > 0 && received <= Int64(Self.payload.count / 2) && expected == Int64(Self.payload.count)
            }
            #expect(server.requests.count == 3)
        }
        let closed = try #require(URL(string: "http://127.0.0.1:9/file.bin"))
        let file = TestFiles.folder("download").appendingPathComponent("x.part")
        // Refused connections are retried until the response limit, so this one is short.
        await #expect(throws: DownloadError.unreachable(host: "127.0.0.1")) {
            try await StreamingDownloader().download(closed, to: file, options: options(response: .seconds(3))) { _ in }
        }
    }

    @Test func redirectsAreFollowedOnlyOnTheSameHost() async throws {
        try await withServer(.normal) { server, url, file in
            server.put("moved.bin", Data(), behavior: .redirects(to: "/file.bin"))
            let moved = url.deletingLastPathComponent().appendingPathComponent("moved.bin")
            let result = try await StreamingDownloader().download(moved, to: file, options: options()) { _ in }
            #expect(result.byteCount == Int64(Self.payload.count))
            // The manifest names a file on its own server: another host is not that file.
            let port = try #require(url.port)
            server.put("elsewhere.bin", Data(), behavior: .redirects(to: "http://localhost:\(port)/file.bin"))
            let elsewhere = url.deletingLastPathComponent().appendingPathComponent("elsewhere.bin")
            await #expect(throws: DownloadError.redirectedElsewhere(host: "localhost")) {
                try await StreamingDownloader().download(elsewhere, to: file, options: options()) { _ in }
            }
        }
    }

    // The server needs 5 s to send everything: a `cancelled` error (rather than a finished
    // download) shows the transfer stopped mid-way instead of running to the end.
    @Test func aCancelledDownloadStopsBeforeTheEnd() async throws {
        try await withServer(.slow(chunks: 50, pause: 0.1)) { _, url, file in
            let task = Task { try await StreamingDownloader().download(url, to: file, options: options()) { _ in } }
            try await Task.sleep(for: .milliseconds(300))
            task.cancel()
            await #expect(throws: DownloadError.cancelled) { try await task.value }
        }
    }
}

/// Progress values collected from the downloader's callback.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var log: [DownloadProgress] = []

    func append(_ value: DownloadProgress) {
        lock.withLock { log.append(value) }
    }

    var values: [DownloadProgress] {
        lock.withLock { log }
    }
}
