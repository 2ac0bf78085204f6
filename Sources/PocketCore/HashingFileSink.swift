import Crypto
import Foundation
import NIOCore

/// Appends chunks to a file and hashes them (MD5) on a thread of its own, so whoever produces the
/// chunks (a download, an unzip) works on the next one meanwhile.
///
/// At most `maximumQueuedBytes` wait at a time (a single larger chunk is taken when the queue is
/// empty), which bounds the memory: `write` blocks and `append` suspends until there is room. A
/// failed write is reported by the next `write`/`append` and by `finish`; nothing after it is
/// written. One producer at a time.
public final class HashingFileSink: @unchecked Sendable {
    // The file and `hasher` are touched only on `queue`; `byteCount` only by the producer; the
    // rest only under `lock`.
    private let handle: FileHandle
    private let queue = DispatchQueue(label: "pocket.hashing-file-sink")
    private let lock = NSCondition()
    private let limit: Int
    private var hasher = Insecure.MD5()
    private var queued = 0
    private var failure: (any Error)?
    private var waiter: CheckedContinuation<Void, Never>?
    private var waiterNeeds = 0
    private var closed = false

    /// Bytes handed to the sink so far, the kept ones included.
    public private(set) var byteCount: Int64 = 0

    /// Opens `file` for appending after its first `keeping` bytes (which are hashed first, so the
    /// MD5 covers the whole file), creating or emptying it when `keeping` is 0.
    public init(file: URL, keeping: Int64 = 0, maximumQueuedBytes: Int = 4 << 20) throws {
        limit = max(1, maximumQueuedBytes)
        // Not FileManager.createFile: it writes through a temporary file and renames it.
        guard createIfNeeded(file.path, emptying: keeping <= 0) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        handle = try FileHandle(forUpdating: file)
        guard keeping > 0 else { return }
        do {
            try handle.truncate(atOffset: UInt64(keeping))
            try handle.seek(toOffset: 0)
            // Read back in small chunks: a resumed download may have kept hundreds of megabytes.
            while byteCount < keeping {
                let chunk = try handle.read(upToCount: Int(min(1 << 20, keeping - byteCount))) ?? Data()
                if chunk.isEmpty { break }
                hasher.update(data: chunk)
                byteCount += Int64(chunk.count)
            }
            try handle.seekToEnd()
        } catch {
            try? handle.close()
            throw error
        }
    }

    /// Queues `chunk`, blocking the calling thread while the queue is full (for producers on
    /// threads of their own, such as an unzip). `alongside`, if given, also sees each chunk on the
    /// sink's thread, in order (a second checksum, say), so the producer need not spend time on it.
    public func write(_ chunk: Data, alongside: (@Sendable (Data) -> Void)? = nil) throws {
        try reserve(chunk.count)
        enqueue(chunk.count) { hasher, handle in
            hasher.update(data: chunk)
            alongside?(chunk)
            try handle.write(contentsOf: chunk)
        }
    }

    /// Queues `buffer`, suspending while the queue is full (for producers in async code, such as
    /// a download's body).
    public func append(_ buffer: ByteBuffer) async throws {
        let count = buffer.readableBytes
        try await reserveAsync(count)
        enqueue(count) { hasher, handle in
            try buffer.withUnsafeReadableBytes { bytes in
                hasher.update(bufferPointer: bytes)
                try handle.write(contentsOf: bytes)
            }
        }
    }

    /// Waits for the queued chunks and returns the MD5 of the file, in lowercase hex.
    public func finish() throws -> String {
        let digest = queue.sync { hasher.finalize() }
        if let failure = currentFailure { throw failure }
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    /// Waits for the queued chunks and closes the file; later calls do nothing.
    public func close() {
        queue.sync {
            guard !closed else { return }
            closed = true
            try? handle.close()
        }
    }
}

// MARK: - Private

private extension HashingFileSink {
    var currentFailure: (any Error)? {
        lock.withLock { failure }
    }

    /// Whether `count` more bytes fit; an empty queue always takes one chunk, however large.
    func fits(_ count: Int) -> Bool {
        queued == 0 || queued + count <= limit
    }

    func reserve(_ count: Int) throws {
        lock.lock()
        defer { lock.unlock() }
        while failure == nil, !fits(count) { lock.wait() }
        if let failure { throw failure }
        queued += count
    }

    func reserveAsync(_ count: Int) async throws {
        while true {
            let admitted: Bool = try lock.withLock {
                if let failure { throw failure }
                guard fits(count) else { return false }
                queued += count
                return true
            }
            if admitted { return }
            await withCheckedContinuation { continuation in
                let resumeNow: Bool = lock.withLock {
                    if fits(count) || failure != nil { return true }
                    waiter = continuation
                    waiterNeeds = count
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

    func enqueue(_ count: Int, _ work: @escaping @Sendable (inout Insecure.MD5, FileHandle) throws -> Void) {
        byteCount += Int64(count)
        queue.async { [self] in
            if currentFailure == nil {
                do {
                    try work(&hasher, handle)
                } catch {
                    lock.withLock { failure = error }
                }
            }
            let woken: CheckedContinuation<Void, Never>? = lock.withLock {
                queued -= count
                lock.broadcast()
                guard let waiter, fits(waiterNeeds) || failure != nil else { return nil }
                self.waiter = nil
                return waiter
            }
            woken?.resume()
        }
    }
}

/// Creates the file at `path` if it is missing; when `emptying`, a regular file there is replaced
/// by a new empty one (anything else, a device or a link, is truncated as usual).
///
/// Replacing rather than truncating matters on ext4: a file truncated to zero and rewritten is
/// flushed to disk when it is closed (its `auto_da_alloc` safeguard), which costs a download or
/// an unzip a forced write-out and makes deleting the file afterwards ten times slower.
private func createIfNeeded(_ path: String, emptying: Bool) -> Bool {
    var info = stat()
    let isRegularFile = lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    if emptying, isRegularFile, unlink(path) != 0 { return false }
    let descriptor = open(path, O_WRONLY | O_CREAT | (emptying && !isRegularFile ? O_TRUNC : 0), 0o644)
    guard descriptor >= 0 else { return false }
    return close(descriptor) == 0
}
