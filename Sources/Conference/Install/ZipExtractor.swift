import Foundation
import PocketCore
import PocketZlib
import ZIPFoundation

/// Takes the database out of a downloaded zip without trusting the archive.
///
/// Every entry's path is checked before anything is written: one that would land outside the
/// target folder (`../x`, `/etc/x`, `a/../../x`) gets the whole archive refused, because
/// ZIPFoundation's `extract(_:to:)` does not check. The database is streamed through our own
/// consumer into a file we name, hashed as it goes, and cut off past the manifest's size.
///
/// Two threads share the work: this one inflates, a `HashingFileSink` computes the MD5 and the CRC
/// (with zlib's `crc32`, as ZIPFoundation's own is a Swift loop on Linux) and writes. When the
/// entry is the archive's first, as in the index's own zips, it is inflated with zlib directly
/// (`ZipEntryStream`, large reads, no copy per chunk into a new buffer); ZIPFoundation unpacks
/// any other.
enum ZipExtractor {
    /// What was written.
    struct Extracted: Equatable {
        let byteCount: Int64
        let md5: String
    }

    /// Extracts `entryName` from `archive` into `destination`, at most `limit` bytes.
    static func extract(
        archive archiveURL: URL, entryName: String, to destination: URL, limit: Int64,
        cancellation: Flag, progress: (Int64) -> Void
    ) throws(ConferenceError) -> Extracted {
        let (archive, entry) = try locate(entryName, in: archiveURL, for: destination, limit: limit)
        if let extracted = try extractFirst(entry, of: archiveURL, to: destination, limit: limit, cancellation: cancellation, progress: progress) {
            return extracted
        }
        return try extractWithZIPFoundation(entry, of: archive, to: destination, limit: limit, cancellation: cancellation, progress: progress)
    }

    /// Whether `unpacked`, what a `ZipEntryStream` made of the archive's first bytes, is the entry
    /// `extract` would unpack from the whole archive: the same name, sizes and CRC in the central
    /// directory. The archive's other entries are checked as for `extract`.
    static func accept(_ unpacked: ZipEntryStream.Unpacked, archive: URL, entryName: String, destination: URL,
                       limit: Int64) throws(ConferenceError) -> Bool {
        let (_, entry) = try locate(entryName, in: archive, for: destination, limit: limit)
        return unpacked.name == entry.path && UInt64(unpacked.compressedSize) == entry.compressedSize
            && UInt64(unpacked.byteCount) == entry.uncompressedSize && unpacked.crc == entry.checksum
    }

    /// Reads the central directory: every entry must be safe to unpack, and `entryName` must be
    /// a file no larger (by its own account) than `limit`.
    static func locate(_ entryName: String, in archiveURL: URL, for destination: URL, limit: Int64) throws(ConferenceError) -> (Archive, Entry) {
        let archive: Archive
        do {
            archive = try Archive(url: archiveURL, accessMode: .read)
        } catch {
            throw .corruptArchive("it is not a readable zip file")
        }
        let entries = Array(archive)
        guard !entries.isEmpty else { throw .corruptArchive("it has no entries") }
        if let unsafe = entries.first(where: { !isSafe($0.path, in: destination.deletingLastPathComponent()) }) {
            throw .unsafeArchiveEntry(unsafe.path)
        }
        let entry = entries.first { $0.path == entryName }
            ?? entries.first { $0.path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) == entryName }
        guard let entry else { throw .missingArchiveEntry(entryName) }
        guard entry.type == .file else { throw .corruptArchive("\(entryName) is not a regular file in the archive") }
        // The header's size is only a claim; the byte count below is what is enforced.
        guard entry.uncompressedSize <= UInt64(limit) else { throw .archiveEntryTooLarge(name: entryName, limit: limit) }
        return (archive, entry)
    }

    /// Unpacks `entry` with zlib if it is the archive's first; nil (and nothing kept) when it is
    /// not, or when its data is not what the central directory says, for ZIPFoundation to judge.
    static func extractFirst(_ entry: Entry, of archiveURL: URL, to destination: URL, limit: Int64,
                             cancellation: Flag, progress: (Int64) -> Void) throws(ConferenceError) -> Extracted? {
        let input = open(archiveURL.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return nil }
        defer { close(input) }
        let sink: HashingFileSink
        do {
            sink = try HashingFileSink(file: destination, maximumQueuedBytes: queuedBytes)
        } catch {
            throw .fileSystem("cannot create \(destination.lastPathComponent)")
        }
        defer { sink.close() }
        let stream = ZipEntryStream(accepting: { $0 == entry.path }, limit: limit, into: sink)
        var buffer = [UInt8](repeating: 0, count: Self.readSize)
        do {
            while !stream.isFinished {
                if cancellation.isSet { throw ConferenceError.cancelled }
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                guard count > 0 else { return nil }
                try buffer.withUnsafeBytes { bytes in _ = try stream.feed(UnsafeRawBufferPointer(rebasing: bytes[..<count])) }
                progress(stream.byteCount)
            }
            let unpacked = try stream.finish()
            guard unpacked.name == entry.path, UInt64(unpacked.compressedSize) == entry.compressedSize,
                  UInt64(unpacked.byteCount) == entry.uncompressedSize, unpacked.crc == entry.checksum else { return nil }
            return Extracted(byteCount: unpacked.byteCount, md5: unpacked.md5)
        } catch ZipEntryStream.Failure.tooLarge {
            throw .archiveEntryTooLarge(name: entry.path, limit: limit)
        } catch ZipEntryStream.Failure.writeFailed {
            throw .fileSystem("cannot write \(destination.lastPathComponent)")
        } catch let error as ConferenceError {
            throw error
        } catch {
            return nil
        }
    }

    /// How much of an archive is read at a time.
    static let readSize = 256 << 10

    /// How much unpacked data may wait for the sink's thread: inflating outruns hashing only
    /// briefly, and the download's own sink is queuing at the same time.
    static let queuedBytes = 1 << 20

    static func extractWithZIPFoundation(_ entry: Entry, of archive: Archive, to destination: URL, limit: Int64,
                                         cancellation: Flag, progress: (Int64) -> Void) throws(ConferenceError) -> Extracted {
        let entryName = entry.path
        let writer: HashingFileSink
        do {
            writer = try HashingFileSink(file: destination)
        } catch {
            throw .fileSystem("cannot create \(destination.lastPathComponent)")
        }
        defer { writer.close() }
        var written: Int64 = 0
        let checksum = RunningCRC32()
        do {
            _ = try archive.extract(entry, bufferSize: 1 << 20, skipCRC32: true) { chunk in
                if cancellation.isSet { throw ConferenceError.cancelled }
                written += Int64(chunk.count)
                if written > limit { throw ConferenceError.archiveEntryTooLarge(name: entryName, limit: limit) }
                try writer.write(chunk) { checksum.update($0) }
                progress(written)
            }
        } catch let error as ConferenceError {
            throw error
        } catch let error as Archive.ArchiveError {
            throw .corruptArchive(error == .invalidCRC32 ? "\(entryName) fails its CRC check" : "\(entryName) cannot be read (\(error))")
        } catch {
            throw .corruptArchive("\(entryName) cannot be unpacked (\(error))")
        }
        let md5: String
        do {
            md5 = try writer.finish()
        } catch {
            throw .fileSystem("cannot write \(destination.lastPathComponent): \(error.localizedDescription)")
        }
        guard checksum.value == entry.checksum else { throw .corruptArchive("\(entryName) fails its CRC check") }
        return Extracted(byteCount: written, md5: md5)
    }

    /// Whether an entry path stays inside `folder` once extracted there. Both separators count,
    /// absolute paths and drive letters are refused, and `..` may never climb above the start.
    static func isSafe(_ path: String, in folder: URL) -> Bool {
        guard !path.isEmpty, !path.contains("\0") else { return false }
        let normalized = path.replacingOccurrences(of: "\\", with: "/")
        if normalized.hasPrefix("/") || normalized.hasPrefix("~") { return false }
        if normalized.count >= 2, normalized.dropFirst().first == ":" { return false }
        var depth = 0
        for component in normalized.split(separator: "/") {
            switch component {
            case ".": continue
            case "..":
                depth -= 1
                if depth < 0 { return false }
            default:
                depth += 1
            }
        }
        // Belt and braces: the resolved path must still be under the folder.
        let base = folder.standardizedFileURL.path
        let resolved = folder.appendingPathComponent(normalized).standardizedFileURL.path
        return resolved.hasPrefix(base.hasSuffix("/") ? base : base + "/")
    }
}
