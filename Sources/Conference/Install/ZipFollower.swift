import Foundation
import PocketCore

/// Unpacks the database from a zip while the zip is still downloading: a thread of its own reads
/// the partial file as the download writes it and feeds a `ZipEntryStream`, so inflating overlaps
/// the transfer instead of following it.
///
/// What it unpacks is only a head start: the installer takes it once the whole zip is there and
/// its central directory agrees (`ZipExtractor.accept`), and the MD5 the manifest gives is checked
/// as always. If it could not follow (the file was replaced because the download started over, the
/// zip's first entry is another file, a method it does not handle), the installer unpacks the
/// finished zip the usual way.
final class ZipFollower: @unchecked Sendable {
    // `ended`, `stopped`, `outcome` and `running` are shared with the thread under `lock`.
    private let lock = NSCondition()
    private var ended = false
    private var stopped = false
    private var outcome: ZipEntryStream.Unpacked?
    private var running = true
    private let part: URL
    private let destination: URL
    private let accepts: @Sendable (String) -> Bool
    private let limit: Int64

    /// Starts following `part` (the zip being downloaded) to unpack an entry `accepts` takes
    /// into `destination`, at most `limit` bytes.
    init(part: URL, destination: URL, limit: Int64, accepting accepts: @escaping @Sendable (String) -> Bool) {
        self.part = part
        self.destination = destination
        self.limit = limit
        self.accepts = accepts
        let thread = Thread { [self] in follow() }
        thread.name = "pocket.zip-follower"
        thread.start()
    }

    /// The download has handed more bytes to its file.
    func received() {
        lock.withLock { lock.broadcast() }
    }

    /// The download is over, whole or not: what the file holds now is all there will be.
    func downloadEnded() {
        lock.withLock {
            ended = true
            lock.broadcast()
        }
    }

    /// What was unpacked, once the thread has stopped (call after `downloadEnded` or `stop`);
    /// nil if it could not follow.
    func result() async -> ZipEntryStream.Unpacked? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                continuation.resume(returning: lock.withLock {
                    while running { lock.wait() }
                    return outcome
                })
            }
        }
    }

    /// Stops following and waits for the thread, so nothing writes to `destination` afterwards.
    func stop() async {
        lock.withLock {
            stopped = true
            lock.broadcast()
        }
        _ = await result()
    }
}

// MARK: - Private

private extension ZipFollower {
    /// How long to wait for more bytes before looking at the file again.
    static let poll: TimeInterval = 0.005

    func follow() {
        let unpacked = try? unpack()
        lock.withLock {
            outcome = unpacked
            running = false
            lock.broadcast()
        }
    }

    func unpack() throws -> ZipEntryStream.Unpacked? {
        guard let descriptor = openPart() else { return nil }
        defer { close(descriptor) }
        let sink = try HashingFileSink(file: destination, maximumQueuedBytes: ZipExtractor.queuedBytes)
        defer { sink.close() }
        let stream = ZipEntryStream(accepting: accepts, limit: limit, into: sink)
        var buffer = [UInt8](repeating: 0, count: ZipExtractor.readSize)
        var offset: Int64 = 0
        while !stream.isFinished {
            if lock.withLock({ stopped }) { return nil }
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            if count < 0 { return nil }
            if count > 0 {
                offset += Int64(count)
                try buffer.withUnsafeBytes { bytes in _ = try stream.feed(UnsafeRawBufferPointer(rebasing: bytes[..<count])) }
                continue
            }
            // Nothing more on disk yet (the download's file sink writes a moment after it counts):
            // wait, unless the download is over, in which case its file is complete.
            let over = lock.withLock { () -> Bool in
                if !stopped, !ended { _ = lock.wait(until: Date(timeIntervalSinceNow: Self.poll)) }
                return stopped || ended
            }
            if isReplaced(descriptor, read: offset) { return nil }
            if over, buffer.withUnsafeMutableBytes({ pread(descriptor, $0.baseAddress, 1, off_t(offset)) }) <= 0 { return nil }
        }
        return try stream.finish()
    }

    /// The partial file, once the download has created it.
    func openPart() -> Int32? {
        while true {
            let descriptor = open(part.path, O_RDONLY | O_CLOEXEC)
            if descriptor >= 0 { return descriptor }
            let over = lock.withLock { () -> Bool in
                if !stopped, !ended { _ = lock.wait(until: Date(timeIntervalSinceNow: Self.poll)) }
                return stopped || ended
            }
            if over { return nil }
        }
    }

    /// Whether the bytes read so far may no longer be the file's: the path names another file (a
    /// download that started over), or the file was cut shorter than what was read.
    func isReplaced(_ descriptor: Int32, read: Int64) -> Bool {
        var opened = stat(), current = stat()
        guard fstat(descriptor, &opened) == 0, stat(part.path, &current) == 0 else { return true }
        return opened.st_ino != current.st_ino || opened.st_dev != current.st_dev || Int64(opened.st_size) < read
    }
}
