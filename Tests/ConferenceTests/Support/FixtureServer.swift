import Crypto
import Foundation
import Hummingbird
import TestSupport

/// A real HTTP server on loopback for the installer and downloader tests: it serves files from
/// memory with ETags and byte ranges, and can misbehave on purpose (drop a connection half way,
/// ignore ranges, stall, answer 404/500).
final class FixtureServer: @unchecked Sendable {
    /// How the server serves one file.
    enum Behavior: Sendable, Equatable {
        /// 200 with ETag, Last-Modified and `Accept-Ranges: bytes`; honours `Range`/`If-Range`.
        case normal
        /// Always 200 with the whole file; `advertises` whether it still claims to accept ranges.
        case ignoresRange(advertises: Bool)
        /// The first `count` requests send the headers of the full answer, half the body, then
        /// drop the connection; later requests are `normal`.
        case dropsFirst(Int)
        /// Like `dropsFirst`, but on a server that cannot resume.
        case dropsFirstWithoutRanges(Int)
        /// Sends half the body, then nothing for `seconds`.
        case stalls(seconds: Double)
        /// Sends the body in `chunks` pieces with a pause between them.
        case slow(chunks: Int, pause: Double)
        /// Answers with this status and no file.
        case status(Int)
        /// Answers 302 with this Location.
        case redirects(to: String)
    }

    /// One request the server saw.
    struct Request: Sendable, Equatable {
        let path: String
        let range: String?
        let ifRange: String?
    }

    private let lock = NSLock()
    private var files: [String: (data: Data, behavior: Behavior)] = [:]
    private var seen: [Request] = []

    /// Serves `data` at `/name`.
    func put(_ name: String, _ data: Data, behavior: Behavior = .normal) {
        lock.withLock { files[name] = (data, behavior) }
    }

    /// Changes how `/name` is served.
    func setBehavior(_ name: String, _ behavior: Behavior) {
        lock.withLock { files[name]?.behavior = behavior }
    }

    /// Every request so far, in order.
    var requests: [Request] {
        lock.withLock { seen }
    }

    /// Requests for one path.
    func requests(for name: String) -> [Request] {
        requests.filter { $0.path == name }
    }

    /// The ETag the server gives a file.
    static func etag(_ data: Data) -> String {
        "\"" + Insecure.MD5.hash(data: data).prefix(6).map { String(format: "%02x", $0) }.joined() + "\""
    }

    /// Runs `body` with the fixture's base address (`http://127.0.0.1:<port>`) while it serves.
    func serving<Value>(_ body: @Sendable (URL) async throws -> Value) async throws -> Value {
        try await LoopbackServer.serving({ router in
            router.get(":name") { [self] request, context -> Response in
                let name = try context.parameters.require("name")
                return try await respond(name: name, range: request.headers[.range], ifRange: request.headers[.ifRange])
            }
        }, body)
    }

    private func respond(name: String, range: String?, ifRange: String?) async throws -> Response {
        let (entry, attempt) = lock.withLock { () -> ((data: Data, behavior: Behavior)?, Int) in
            seen.append(Request(path: name, range: range, ifRange: ifRange))
            return (files[name], seen.filter { $0.path == name }.count)
        }
        guard let (data, behavior) = entry else { throw HTTPError(.notFound) }
        let etag = Self.etag(data)
        var headers: HTTPFields = [.contentType: "application/octet-stream", .eTag: etag, .lastModified: "Sat, 04 Oct 2025 10:00:00 GMT"]

        switch behavior {
        case .status(let code):
            return Response(status: .init(code: code), body: .init(byteBuffer: ByteBuffer(string: "no")))
        case .redirects(let location):
            return Response(status: .found, headers: [.location: location], body: .init(byteBuffer: ByteBuffer(string: "moved")))
        case .ignoresRange(let advertises):
            if advertises { headers[.acceptRanges] = "bytes" } else { headers[.eTag] = nil; headers[.lastModified] = nil }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        case .dropsFirstWithoutRanges(let count):
            headers[.eTag] = nil
            headers[.lastModified] = nil
            if attempt <= count { return dropping(data[...], headers: headers, status: .ok) }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        default:
            break
        }

        headers[.acceptRanges] = "bytes"
        var status = HTTPResponse.Status.ok
        var body = data[...]
        if let range, ifRange == nil || ifRange == etag, let start = Self.rangeStart(range), start < data.count {
            status = .partialContent
            body = data[(data.startIndex + start)...]
            headers[.contentRange] = "bytes \(start)-\(data.count - 1)/\(data.count)"
        }
        switch behavior {
        case .dropsFirst(let count) where attempt <= count:
            return dropping(body, headers: headers, status: status)
        case .stalls(let seconds):
            let half = body.prefix(body.count / 2)
            return Response(status: status, headers: headers, body: .init(contentLength: body.count) { writer in
                try await writer.write(ByteBuffer(bytes: half))
                try await Task.sleep(for: .seconds(seconds))
                throw HTTPError(.internalServerError)
            })
        case .slow(let chunks, let pause):
            let size = max(1, body.count / max(1, chunks))
            let pieces = stride(from: 0, to: body.count, by: size).map { Data(body.dropFirst($0).prefix(size)) }
            return Response(status: status, headers: headers, body: .init(contentLength: body.count) { writer in
                for piece in pieces {
                    try await writer.write(ByteBuffer(bytes: piece))
                    try await Task.sleep(for: .seconds(pause))
                }
                try await writer.finish(nil)
            })
        default:
            return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
    }

    /// Promises the whole body, sends half, then fails the response so the connection closes.
    private func dropping(_ body: Data.SubSequence, headers: HTTPFields, status: HTTPResponse.Status) -> Response {
        let half = Data(body.prefix(body.count / 2))
        return Response(status: status, headers: headers, body: .init(contentLength: body.count) { writer in
            try await writer.write(ByteBuffer(bytes: half))
            throw HTTPError(.internalServerError)
        })
    }

    static func rangeStart(_ header: String) -> Int? {
        guard header.hasPrefix("bytes="), header.hasSuffix("-") else { return nil }
        return Int(header.dropFirst(6).dropLast())
    }
}
