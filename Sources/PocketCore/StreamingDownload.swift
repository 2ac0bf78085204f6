import AsyncHTTPClient
import Foundation
import NIOCore

/// How a server identifies one version of a file, so a resumed download cannot splice two versions.
public struct DownloadValidator: Sendable, Equatable, Codable {
    /// The `ETag` header, when the server sent one.
    public var etag: String?
    /// The `Last-Modified` header, when the server sent one.
    public var lastModified: String?

    /// Creates a validator from the two headers.
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// The value to send as `If-Range`: a strong ETag, else the date (weak ETags are not allowed there).
    public var ifRange: String? {
        if let etag, !etag.hasPrefix("W/") { return etag }
        return lastModified
    }
}

/// Settings for one download.
public struct DownloadOptions: Sendable, Equatable {
    /// The size the file must have; a server announcing or sending another size is refused.
    public var expectedSize: Int64?
    /// Which version a partial file already on disk holds; nil starts from zero.
    public var validator: DownloadValidator?
    /// Connections tried in all, counting the first, before a dropped transfer is given up.
    public var maxAttempts: Int
    /// How long the server may take to answer with its headers.
    public var responseTimeout: Duration
    /// How long the body may stall before the download fails.
    public var idleTimeout: Duration

    /// Creates download settings.
    public init(expectedSize: Int64? = nil, validator: DownloadValidator? = nil, maxAttempts: Int = 4,
                responseTimeout: Duration = .seconds(30), idleTimeout: Duration = .seconds(30)) {
        self.expectedSize = expectedSize
        self.validator = validator
        self.maxAttempts = max(1, maxAttempts)
        self.responseTimeout = responseTimeout
        self.idleTimeout = idleTimeout
    }
}

/// How far a download has come.
public struct DownloadProgress: Sendable, Equatable {
    /// Bytes on disk so far, including any kept from an earlier attempt.
    public let bytesReceived: Int64
    /// The whole file's size, when the server said.
    public let totalBytes: Int64?
    /// The version being downloaded, as soon as the server has said: save it with the partial
    /// file to resume after a crash.
    public let validator: DownloadValidator?

    /// Creates a progress value.
    public init(bytesReceived: Int64, totalBytes: Int64?, validator: DownloadValidator? = nil) {
        self.bytesReceived = bytesReceived
        self.totalBytes = totalBytes
        self.validator = validator
    }
}

/// A finished download.
public struct DownloadResult: Sendable, Equatable {
    /// The file's size.
    public let byteCount: Int64
    /// MD5 of the whole file, 32 lowercase hex digits.
    public let md5: String
    /// The version the server served, for resuming a later download of the same file.
    public let validator: DownloadValidator
    /// Bytes that were already on disk and kept (0 when the file was fetched from the start).
    public let resumedFrom: Int64
    /// HTTP requests made.
    public let requests: Int
}

/// Why a download failed, in words.
public enum DownloadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server answered with a status that is not 200 or 206.
    case status(Int)
    /// No answer, or no data, in time.
    case timedOut
    /// The host could not be reached.
    case unreachable(host: String)
    /// The connection kept dropping before the whole file arrived.
    case interrupted(received: Int64, expected: Int64?)
    /// The server's file is not the size it should be.
    case sizeMismatch(expected: Int64, actual: Int64)
    /// The download was cancelled.
    case cancelled
    /// The file could not be written.
    case fileSystem(String)
    /// The server sent the download to another host, which Pocket does not follow.
    case redirectedElsewhere(host: String)

    /// A one-line message.
    public var description: String {
        switch self {
        case .status(let code): return "the server answered \(code)"
        case .timedOut: return "the server did not answer in time"
        case .unreachable(let host): return "\(host) could not be reached"
        case .interrupted(let received, let expected):
            let of = expected.map { " of \($0)" } ?? ""
            return "the connection dropped after \(received)\(of) bytes, even after retrying"
        case .sizeMismatch(let expected, let actual):
            return "the server's file is \(actual) bytes, but \(expected) were expected"
        case .cancelled: return "the download was cancelled"
        case .redirectedElsewhere(let host): return "the server sent the download to another host (\(host)), which Pocket does not follow"
        case .fileSystem(let detail): return "the download could not be saved: \(detail)"
        }
    }
}

/// Downloads a large file to disk in constant memory, resuming where an earlier attempt stopped:
/// streams it with async-http-client, hashing as the bytes arrive.
public struct StreamingDownloader: Sendable {
    private let client: HTTPClient

    /// Uses the given client; by default one that leaves redirects to the downloader, which
    /// follows those that stay on the same host and refuses the rest (the manifest names plain
    /// file names on its own server, so a redirect elsewhere is not the file it describes).
    public init(client: HTTPClient = Redirects.client) {
        self.client = client
    }

    /// GETs `url` into `file`, hashing while it streams. A partial `file` left by an earlier attempt
    /// is continued with `Range`/`If-Range` when `options.validator` says which version it holds.
    /// A dropped transfer is retried (resumed when the server allows) up to `options.maxAttempts`
    /// requests in all.
    public func download(
        _ url: URL,
        to file: URL,
        options: DownloadOptions,
        progress: @escaping @Sendable (DownloadProgress) -> Void
    ) async throws(DownloadError) -> DownloadResult {
        var validator = options.validator
        var requests = 0
        var lastFailure = DownloadError.interrupted(received: 0, expected: options.expectedSize)
        while requests < options.maxAttempts {
            if Task.isCancelled { throw .cancelled }
            requests += 1
            let onDisk = validator?.ifRange == nil ? 0 : Self.size(of: file)
            let attempt: Attempt
            do {
                attempt = try await self.attempt(url, file: file, offset: onDisk, validator: validator, options: options, progress: progress)
            } catch let error as DownloadError {
                throw error
            } catch {
                throw Self.classify(error, url: url, duringBody: false)
            }
            switch attempt {
            case .finished(let byteCount, let md5, let served, let kept):
                return DownloadResult(byteCount: byteCount, md5: md5, validator: served, resumedFrom: kept, requests: requests)
            case .dropped(let served, let resumable, let total):
                // Keep what arrived when the server can continue it; otherwise the next try starts over.
                validator = resumable ? served : nil
                lastFailure = .interrupted(received: Self.size(of: file), expected: total ?? options.expectedSize)
            case .restart:
                validator = nil
            }
        }
        throw lastFailure
    }
}

// MARK: - Range headers

extension StreamingDownloader {
    /// The first byte, last byte and total size in a `Content-Range: bytes 100-199/200` header.
    public static func parseContentRange(_ header: String) -> (first: Int64, last: Int64, total: Int64?)? {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first >= 0, last >= first else { return nil }
        let total: Int64?
        if parts[1] == "*" {
            total = nil
        } else {
            guard let value = Int64(parts[1]), value > last else { return nil }
            total = value
        }
        return (first, last, total)
    }
}

// MARK: - Private

private extension StreamingDownloader {
    enum Attempt {
        /// The whole file is on disk.
        case finished(byteCount: Int64, md5: String, validator: DownloadValidator, kept: Int64)
        /// The body stopped early; `resumable` when the server can continue it with a range.
        case dropped(validator: DownloadValidator, resumable: Bool, total: Int64?)
        /// The server cannot continue the partial file: start again from zero.
        case restart
    }

    func attempt(
        _ url: URL, file: URL, offset: Int64, validator: DownloadValidator?, options: DownloadOptions,
        progress: @escaping @Sendable (DownloadProgress) -> Void
    ) async throws -> Attempt {
        let response: HTTPClientResponse
        do {
            (response, _) = try await Redirects(from: url).follow(url) { address in
                var request = HTTPClientRequest(url: address.absoluteString)
                request.headers.add(name: "User-Agent", value: "Pocket/\(PocketVersion.current)")
                // Byte ranges and hashes are about the stored bytes, so ask for them unencoded.
                request.headers.add(name: "Accept-Encoding", value: "identity")
                if offset > 0, let ifRange = validator?.ifRange {
                    request.headers.add(name: "Range", value: "bytes=\(offset)-")
                    request.headers.add(name: "If-Range", value: ifRange)
                }
                return try await client.execute(request, timeout: .seconds(max(1, Int64(options.responseTimeout.components.seconds))))
            }
        } catch RedirectRefusal.elsewhere(let host) {
            throw DownloadError.redirectedElsewhere(host: host)
        } catch RedirectRefusal.unusable(let status) {
            throw DownloadError.status(status)
        }

        let served = DownloadValidator(
            etag: response.headers.first(name: "ETag"),
            lastModified: response.headers.first(name: "Last-Modified")
        )
        let acceptsRanges = response.headers.first(name: "Accept-Ranges")?.lowercased().contains("bytes") ?? false
        var keep: Int64 = 0
        var total: Int64?
        switch response.status.code {
        case 200:
            total = response.headers.first(name: "Content-Length").flatMap { Int64($0) }
        case 206:
            guard offset > 0,
                  let range = response.headers.first(name: "Content-Range").flatMap(Self.parseContentRange),
                  range.first == offset else {
                return .restart
            }
            keep = offset
            total = range.total
        case 416:
            // The partial file no longer fits the server's file.
            return .restart
        default:
            throw DownloadError.status(Int(response.status.code))
        }
        if let expected = options.expectedSize, let total, total != expected {
            throw DownloadError.sizeMismatch(expected: expected, actual: total)
        }
        let resumable = served.ifRange != nil && (acceptsRanges || response.status.code == 206)
        let limit = options.expectedSize ?? total

        let outcome = try await Self.stream(
            response.body, into: file, keeping: keep, total: total, limit: limit,
            idleTimeout: options.idleTimeout, validator: served.ifRange == nil ? nil : served, progress: progress
        )
        switch outcome {
        case .complete(let byteCount, let md5):
            if let total, byteCount < total {
                return .dropped(validator: served, resumable: resumable, total: total)
            }
            if let expected = options.expectedSize, byteCount != expected {
                throw DownloadError.sizeMismatch(expected: expected, actual: byteCount)
            }
            return .finished(byteCount: byteCount, md5: md5, validator: served, kept: keep)
        case .dropped:
            return .dropped(validator: served, resumable: resumable, total: total)
        }
    }

    enum StreamOutcome: Sendable {
        case complete(byteCount: Int64, md5: String)
        case dropped
    }

    /// Writes the body after the first `keeping` bytes of `file`, with a watchdog that fails the
    /// transfer when no bytes arrive for `idleTimeout`.
    static func stream(
        _ body: HTTPClientResponse.Body, into file: URL, keeping: Int64, total: Int64?, limit: Int64?,
        idleTimeout: Duration, validator: DownloadValidator?, progress: @escaping @Sendable (DownloadProgress) -> Void
    ) async throws -> StreamOutcome {
        let activity = ActivityClock()
        return try await withThrowingTaskGroup(of: StreamOutcome.self) { group in
            group.addTask {
                let writer: HashingFileSink
                do {
                    // A short queue: network buffers freed on the sink's thread go back to the event
                    // loop's heap, which keeps what it grew to, so a long one only raises the peak.
                    writer = try HashingFileSink(file: file, keeping: keeping, maximumQueuedBytes: 256 << 10)
                } catch {
                    throw DownloadError.fileSystem(error.localizedDescription)
                }
                defer { writer.close() }
                progress(DownloadProgress(bytesReceived: writer.byteCount, totalBytes: total, validator: validator))
                do {
                    for try await buffer in body {
                        activity.touch()
                        if let limit, writer.byteCount + Int64(buffer.readableBytes) > limit {
                            throw DownloadError.sizeMismatch(expected: limit, actual: writer.byteCount + Int64(buffer.readableBytes))
                        }
                        do {
                            try await writer.append(buffer)
                        } catch {
                            throw DownloadError.fileSystem(error.localizedDescription)
                        }
                        progress(DownloadProgress(bytesReceived: writer.byteCount, totalBytes: total, validator: validator))
                    }
                } catch let error as DownloadError {
                    throw error
                } catch {
                    if Task.isCancelled { throw DownloadError.cancelled }
                    if case .interrupted = classify(error, url: file, duringBody: true) { return .dropped }
                    throw classify(error, url: file, duringBody: true)
                }
                do {
                    return .complete(byteCount: writer.byteCount, md5: try writer.finish())
                } catch {
                    throw DownloadError.fileSystem(error.localizedDescription)
                }
            }
            group.addTask {
                let tick = min(idleTimeout / 4, .milliseconds(250))
                while true {
                    try await Task.sleep(for: tick)
                    if activity.idle > idleTimeout { throw DownloadError.timedOut }
                }
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw DownloadError.cancelled }
            return first
        }
    }

    static func size(of file: URL) -> Int64 {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }

    static func classify(_ error: any Error, url: URL, duringBody: Bool) -> DownloadError {
        if let error = error as? DownloadError { return error }
        if error is CancellationError || Task.isCancelled { return .cancelled }
        if let error = error as? HTTPClientError {
            if error.isLateAnswer { return .timedOut }
            if error == .cancelled { return .cancelled }
        }
        if duringBody { return .interrupted(received: 0, expected: nil) }
        return .unreachable(host: url.host ?? url.absoluteString)
    }
}

/// When bytes last arrived, shared between the body reader and its watchdog.
private final class ActivityClock: @unchecked Sendable {
    private let lock = NSLock()
    private var last = ContinuousClock.now

    func touch() {
        lock.withLock { last = .now }
    }

    var idle: Duration {
        lock.withLock { ContinuousClock.now - last }
    }
}
