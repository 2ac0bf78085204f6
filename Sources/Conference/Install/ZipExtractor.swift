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
/// (with zlib's `crc32`, as ZIPFoundation's own is a Swift loop on Linux) and writes.
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

/// A CRC-32 fed chunk by chunk on the file sink's thread and read once that thread is done.
private final class RunningCRC32: @unchecked Sendable {
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
