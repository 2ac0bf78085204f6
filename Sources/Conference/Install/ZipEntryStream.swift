import Foundation
import PocketCore
import PocketZlib

/// Unpacks the first entry of a zip archive from its bytes in order, as they arrive: the local
/// header, then the data, inflated with zlib straight into a `HashingFileSink` that computes the
/// MD5 and the CRC on its own thread.
///
/// A zip names its entries twice, in a local header before each one's data and in the central
/// directory at the end; only the local header has arrived while the download runs. So what this
/// unpacks is provisional until the caller holds the whole archive and its central directory
/// agrees (`ZipExtractor.accept`): the same entry, first in the file, with the same sizes and CRC.
/// Anything this cannot unpack (another method, encryption, stored data of unknown length) stops
/// it, and the caller unpacks the finished archive the usual way.
final class ZipEntryStream {
    /// Why the stream cannot unpack this archive, or what went wrong doing so.
    enum Failure: Error, Equatable {
        /// The archive does not start with a local file header.
        case notAZip
        /// An encrypted entry, a method other than deflate or stored, or stored data of unknown length.
        case unsupported
        /// The first entry is not the wanted one.
        case otherEntry(String)
        /// The deflated data is damaged.
        case damaged
        /// The entry unpacks to more than the limit.
        case tooLarge
        /// The sink could not write.
        case writeFailed
    }

    /// The entry as unpacked.
    struct Unpacked: Equatable {
        /// The name in the local header.
        let name: String
        /// Bytes of data read (compressed size).
        let compressedSize: Int64
        /// Bytes written (uncompressed size).
        let byteCount: Int64
        /// CRC-32 of the bytes written.
        let crc: UInt32
        /// MD5 of the bytes written.
        let md5: String
    }

    private enum Stage {
        case header
        case data
        case done
    }

    private let accepts: (String) -> Bool
    private let limit: Int64
    private let sink: HashingFileSink
    private let checksum = RunningCRC32()
    private var stage = Stage.header
    private var header = Data()
    private var name = ""
    private var stored = false
    private var storedRemaining: Int64 = 0
    private var consumed: Int64 = 0
    private var written: Int64 = 0
    /// On the heap: zlib checks that a stream keeps its address from call to call.
    private let stream: UnsafeMutablePointer<z_stream>
    private var inflating = false
    private var output: [UInt8]

    /// The size of each chunk handed to the sink: under `ProcessMemory.ownPagesThreshold`, so the
    /// allocator reuses freed chunks instead of mapping (and faulting in) fresh pages for each one.
    static let chunkSize = Int(ProcessMemory.ownPagesThreshold) / 2

    /// Unpacks into `sink` an entry whose local name `accepts` takes, failing past `limit` bytes.
    init(accepting accepts: @escaping (String) -> Bool, limit: Int64, into sink: HashingFileSink, outputBuffer: Int = chunkSize) {
        self.accepts = accepts
        self.limit = limit
        self.sink = sink
        output = [UInt8](repeating: 0, count: outputBuffer)
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
    }

    deinit {
        if inflating { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Bytes unpacked so far.
    var byteCount: Int64 {
        written
    }

    /// Whether the entry's data has all been read.
    var isFinished: Bool {
        if case .done = stage { return true }
        return false
    }

    /// Feeds the archive's next bytes (from its first byte on); returns how many were used, fewer
    /// than given only once the entry is finished.
    @discardableResult
    func feed(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        var used = 0
        while used < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[used...])
            switch stage {
            case .header: used += try readHeader(rest)
            case .data: used += try readData(rest)
            case .done: return used
            }
        }
        return used
    }

    /// Waits for the sink and returns what was unpacked; only once `isFinished`.
    func finish() throws -> Unpacked {
        guard isFinished else { throw Failure.damaged }
        let md5: String
        do {
            md5 = try sink.finish()
        } catch {
            throw Failure.writeFailed
        }
        return Unpacked(name: name, compressedSize: consumed, byteCount: written, crc: checksum.value, md5: md5)
    }
}

// MARK: - Private

private extension ZipEntryStream {
    /// The local file header's fixed part: signature, versions, flags, method, time, date, CRC,
    /// sizes, name and extra field lengths.
    static let fixedHeader = 30

    func readHeader(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        let needed = header.count < Self.fixedHeader ? Self.fixedHeader : Self.fixedHeader + headerVariableLength
        let taken = min(bytes.count, needed - header.count)
        header.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[..<taken]))
        guard header.count == needed else { return taken }
        if needed == Self.fixedHeader {
            guard header.prefix(4) == Data([0x50, 0x4B, 0x03, 0x04]) else { throw Failure.notAZip }
            if headerVariableLength > 0 { return taken }
        }
        try beginData()
        return taken
    }

    var headerVariableLength: Int {
        Int(little16(26)) + Int(little16(28))
    }

    func little16(_ offset: Int) -> UInt16 {
        UInt16(header[header.startIndex + offset]) | UInt16(header[header.startIndex + offset + 1]) << 8
    }

    func little32(_ offset: Int) -> UInt32 {
        UInt32(little16(offset)) | UInt32(little16(offset + 2)) << 16
    }

    func beginData() throws {
        let flags = little16(6), method = little16(8)
        let nameBytes = header[(header.startIndex + Self.fixedHeader)...].prefix(Int(little16(26)))
        name = String(decoding: nameBytes, as: UTF8.self)
        guard accepts(name) else { throw Failure.otherEntry(name) }
        guard flags & 1 == 0 else { throw Failure.unsupported }
        switch method {
        case 0:
            // Stored data's length is only in the header; with a data descriptor (bit 3) it is not there.
            let size = little32(18)
            guard flags & 8 == 0, size != 0xFFFF_FFFF else { throw Failure.unsupported }
            stored = true
            storedRemaining = Int64(size)
            if storedRemaining > limit { throw Failure.tooLarge }
            stage = storedRemaining == 0 ? .done : .data
        case 8:
            let status = inflateInit2_(stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
            guard status == Z_OK else { throw Failure.damaged }
            inflating = true
            stage = .data
        default:
            throw Failure.unsupported
        }
    }

    func readData(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        if stored {
            let taken = Int(min(Int64(bytes.count), storedRemaining))
            try emit(Data(UnsafeRawBufferPointer(rebasing: bytes[..<taken])))
            storedRemaining -= Int64(taken)
            consumed += Int64(taken)
            if storedRemaining == 0 { stage = .done }
            return taken
        }
        guard let base = bytes.baseAddress else { return 0 }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(bytes.count)
        while true {
            let (status, produced) = output.withUnsafeMutableBytes { buffer -> (Int32, Int) in
                stream.pointee.next_out = buffer.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(buffer.count)
                let status = inflate(stream, Z_NO_FLUSH)
                return (status, buffer.count - Int(stream.pointee.avail_out))
            }
            if produced > 0 { try emit(Data(output[..<produced])) }
            let unread = Int(stream.pointee.avail_in)
            switch status {
            case Z_STREAM_END:
                consumed += Int64(bytes.count - unread)
                inflateEnd(stream)
                inflating = false
                stage = .done
                return bytes.count - unread
            case Z_OK, Z_BUF_ERROR:
                // Every byte taken and room left: wait for more. Output full: go round again.
                if unread == 0, stream.pointee.avail_out > 0 || status == Z_BUF_ERROR {
                    consumed += Int64(bytes.count)
                    return bytes.count
                }
                // No progress with input left and room for output: the data is not deflate.
                if status == Z_BUF_ERROR { throw Failure.damaged }
            default:
                throw Failure.damaged
            }
        }
    }

    func emit(_ chunk: Data) throws {
        written += Int64(chunk.count)
        guard written <= limit else { throw Failure.tooLarge }
        let checksum = checksum
        do {
            try sink.write(chunk) { checksum.update($0) }
        } catch {
            throw Failure.writeFailed
        }
    }
}

/// A CRC-32 fed chunk by chunk on a file sink's thread and read once that thread is done.
final class RunningCRC32: @unchecked Sendable {
    private var crc: UInt = 0

    func update(_ chunk: Data) {
        crc = chunk.withUnsafeBytes { bytes in
            crc32(crc, bytes.bindMemory(to: Bytef.self).baseAddress, uInt(bytes.count))
        }
    }

    /// Valid after the sink's `finish`, which waits for every chunk.
    var value: UInt32 {
        UInt32(truncatingIfNeeded: crc)
    }
}
