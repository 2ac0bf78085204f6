import Crypto
import Foundation

/// Writes chunks to a new file and hashes them (MD5) on a thread of its own, so whoever produces
/// the chunks (the unzipper) works on the next one meanwhile. At most `depth` chunks wait, which
/// bounds the memory; a write error is reported on the next `write` or at `finish`.
final class HashingFileWriter: @unchecked Sendable {
    // `hasher` and the file are touched only on `queue`; `failure` only under `lock`.
    private let handle: FileHandle
    private let queue = DispatchQueue(label: "pocket.conference.hashing-writer")
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var hasher = Insecure.MD5()
    private var failure: (any Error)?
    private var closed = false

    /// Creates (or empties) `file` for writing.
    init(creating file: URL, depth: Int = 4) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        handle = try FileHandle(forWritingTo: file)
        slots = DispatchSemaphore(value: max(1, depth))
    }

    /// Queues `chunk`; waits while `depth` chunks are queued already.
    func write(_ chunk: Data) throws {
        if let failure = currentFailure { throw failure }
        slots.wait()
        queue.async { [self] in
            defer { slots.signal() }
            guard currentFailure == nil else { return }
            hasher.update(data: chunk)
            do {
                try handle.write(contentsOf: chunk)
            } catch {
                lock.withLock { failure = error }
            }
        }
    }

    /// Waits for the queued chunks and returns the MD5 of everything written, in lowercase hex.
    func finish() throws -> String {
        let digest = queue.sync { hasher.finalize() }
        if let failure = currentFailure { throw failure }
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    /// Waits for the queued chunks and closes the file; later calls do nothing.
    func close() {
        queue.sync {
            guard !closed else { return }
            closed = true
            try? handle.close()
        }
    }

    private var currentFailure: (any Error)? {
        lock.withLock { failure }
    }
}
