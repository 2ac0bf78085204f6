import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells how many bytes may still be written on the volume holding a folder. Injectable, so a
/// test can act out a full disk without filling one.
public struct FreeSpaceProbe: Sendable {
    private let measure: @Sendable (URL) -> Int64?

    /// Creates a probe from a function answering the free bytes for a folder (nil: unknown).
    public init(_ measure: @escaping @Sendable (URL) -> Int64?) {
        self.measure = measure
    }

    /// The bytes an unprivileged process may still write where `folder` lives, nil when the
    /// system cannot tell.
    public func availableBytes(at folder: URL) -> Int64? {
        measure(folder)
    }

    /// The real volume, through `statvfs`: blocks available to unprivileged users times the fragment size.
    public static let system = FreeSpaceProbe { folder in
        var info = statvfs()
        guard statvfs(folder.path, &info) == 0 else { return nil }
        let blocks = UInt64(info.f_bavail), blockSize = UInt64(info.f_frsize)
        let (bytes, overflow) = blocks.multipliedReportingOverflow(by: blockSize)
        return overflow || bytes > UInt64(Int64.max) ? Int64.max : Int64(bytes)
    }
}

/// How much room an install needs before it starts, so a full disk fails at once with a clear
/// message instead of after a long download.
enum DiskSpace {
    /// Head-room on top of the files themselves: 5% of them, at least 16 MB (SQLite's journal
    /// for the search index rebuild, the file system's own bookkeeping).
    static func margin(for bytes: Int64) -> Int64 {
        max(16 << 20, bytes / 20)
    }

    /// The bytes an install writes at its peak: in zip mode the zip and the extracted database
    /// exist together until the zip is deleted; uncompressed, just the database.
    static func peakBytes(_ manifest: SCIManifest, mode: DatabaseInstaller.DownloadMode) -> Int64 {
        switch mode {
        case .zip: return manifest.downloadSize + manifest.contentSize
        case .uncompressed: return manifest.contentSize
        }
    }

    /// Throws `insufficientSpace` unless `files` bytes plus the margin fit in `folder`'s volume.
    /// `reclaimable` bytes already on that volume (temporary files the install reuses or
    /// deletes first) count as free. When the probe cannot tell, the install goes ahead.
    static func check(_ files: Int64, reclaimable: Int64 = 0, in folder: URL, probe: FreeSpaceProbe) throws(ConferenceError) {
        guard let available = probe.availableBytes(at: folder) else { return }
        let needed = max(0, files - reclaimable) + margin(for: files)
        if available < needed {
            throw .insufficientSpace(needed: needed, available: available)
        }
    }

    /// Bytes held by the regular files directly inside `folder`.
    static func bytes(in folder: URL) -> Int64 {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.reduce(0) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
            guard attributes?[.type] as? FileAttributeType == .typeRegular,
                  let size = (attributes?[.size] as? NSNumber)?.int64Value else { return total }
            return total + size
        }
    }

    /// "512.0 MB", "1.25 GB" (decimal units, as a file manager shows them).
    static func text(_ bytes: Int64) -> String {
        let value = Double(bytes)
        if value >= 1e9 { return String(format: "%.2f GB", value / 1e9) }
        if value >= 1e6 { return String(format: "%.1f MB", value / 1e6) }
        if value >= 1e3 { return String(format: "%.0f KB", value / 1e3) }
        return "\(bytes) bytes"
    }
}
