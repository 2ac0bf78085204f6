import Crypto
import Foundation
import GRDB
import ZIPFoundation

/// Makes one backup archive of a data folder: every database copied with SQLite's online backup
/// (a consistent copy per database while a server goes on writing, never a file copy that could
/// catch a transaction half written), Pocket's CA folder `tls/` and its other small files, and a
/// manifest (`BackupManifest`) with each file's size, SHA-256 and, for a database, its migrations.
///
/// Left out, and named in the manifest: the Conference sci-core database (downloaded again),
/// unless asked for, the picture caches (fetched again when shown), and any file Pocket does not
/// write (`DataFolderLayout`: a restore would refuse it, and keeps it in the folder instead).
public struct BackupMaker: Sendable {
    /// How far a backup has come, for a progress line on a terminal.
    public struct Progress: Sendable, Equatable {
        /// Files done so far.
        public var done: Int
        /// Files in all.
        public var total: Int
        /// The file being worked on, as a path inside the data folder.
        public var path: String
    }

    /// The archive made.
    public struct Made: Sendable, Equatable {
        /// Where it is.
        public var url: URL
        /// Its size in bytes.
        public var size: Int64
        /// What it holds.
        public var manifest: BackupManifest
    }

    /// The folder backed up.
    public let dataDirectory: URL
    /// Whether the picture caches go in too.
    public let includeCaches: Bool
    /// What Pocket writes: only these files go in, and a database is a file named as one.
    public let layout: DataFolderLayout

    /// Folders of re-fetchable pictures, left out unless `includeCaches`.
    public static let cacheFolders: [String: String] = [
        "plates-images": "plate pictures, fetched again when a state's page is opened",
        "murals-images": "mural pictures, fetched again when shown",
        "murals-demo-images": "the demo's mural pictures, made again when shown",
    ]
    /// Folders never worth keeping, and why.
    static let downloadedFolders: [String: String] = [
        "conference/databases": "the Conference database (sci-core), downloaded again by pocket conference update or Settings",
    ]
    /// Folders that only mean something to a running process; so does every `*.lock` file (the
    /// data folder's, the Conference install's), whatever a store names it.
    static let transient: Set<String> = ["conference/incoming", "conference/uploads"]
    /// The backups folder inside the data folder (`PocketConfiguration.defaultBackupDirectory`):
    /// never in a backup, wherever this one is written, nor is any Pocket archive found elsewhere
    /// in the folder, so an archive stays the size of the data.
    static let backupsFolder = "backups"

    /// Backs up what `layout` names in `dataDirectory`; `includeCaches` adds the picture caches.
    public init(dataDirectory: URL, layout: DataFolderLayout, includeCaches: Bool = false) {
        self.dataDirectory = dataDirectory.standardizedFileURL
        self.layout = layout
        self.includeCaches = includeCaches
    }

    /// Writes a new archive into `folder` (made, readable by its owner only, if missing) and
    /// returns it. The archive appears under its final name only once complete, so a backup cut
    /// short never leaves something that looks like one.
    public func make(into folder: URL, now: Date = Date(), progress: (Progress) -> Void = { _ in }) throws(BackupError) -> Made {
        let folder = folder.standardizedFileURL
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotWrite(path: folder.path, reason: Self.reason(error, at: folder))
        }
        let plan = try planned(excluding: folder)
        guard plan.items.contains(where: { $0.isDatabase && $0.path == PeopleDatabase.fileName }) else { throw .nothingToBackUp(dataDirectory.path) }
        let shelf = BackupShelf(folder: folder)
        let hold = try shelf.holdForBackingUp()
        let staging = folder.appendingPathComponent(BackupShelf.stagingPrefix + UUID().uuidString, isDirectory: true)
        defer { try? manager.removeItem(at: staging) }
        var files: [BackupManifest.File] = []
        for (index, item) in plan.items.enumerated() {
            progress(Progress(done: index, total: plan.items.count, path: item.path))
            let staged = staging.appendingPathComponent(item.path)
            try Self.makeParent(of: staged, in: folder)
            let migrations = item.isDatabase ? try Self.copyDatabase(from: dataDirectory.appendingPathComponent(item.path), to: staged, path: item.path, in: folder) : nil
            if !item.isDatabase { try Self.copyFile(from: dataDirectory.appendingPathComponent(item.path), to: staged, mode: item.mode, in: folder) }
            let digest = try Self.digest(of: staged, in: folder)
            files.append(BackupManifest.File(path: item.path, size: digest.size, sha256: digest.sha256, mode: item.mode, migrations: migrations))
        }
        let manifest = BackupManifest(pocketVersion: PocketVersion.current, createdAt: ChangeTime.milliseconds(now), files: files, leftOut: plan.leftOut)
        let url = shelf.newArchiveURL(at: now)
        let partial = staging.appendingPathComponent("archive.zip.partial")
        try write(manifest: manifest, stagedIn: staging, to: partial, in: folder)
        progress(Progress(done: plan.items.count, total: plan.items.count, path: ""))
        do {
            try manager.moveItem(at: partial, to: url)
        } catch {
            throw .cannotWrite(path: url.path, reason: Self.reason(error, at: folder))
        }
        withExtendedLifetime(hold) {}
        let size = (try? manager.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
        return Made(url: url, size: size, manifest: manifest)
    }
}

extension BackupMaker {
    /// `make(into:now:progress:)` on a thread of its own: a backup reads and writes files for
    /// a while, which must not hold one of Swift's few cooperative threads (requests run there).
    /// The thread runs at nice 10, so on a busy machine requests get the processor first and a
    /// backup takes a little longer instead (Linux keeps a nice value per thread).
    public func makeOffThread(into folder: URL, now: Date = Date(), progress: @escaping @Sendable (Progress) -> Void = { _ in }) async throws(BackupError) -> Made {
        let result: Result<Made, BackupError> = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                #if os(Linux)
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
                #endif
                continuation.resume(returning: Result { () throws(BackupError) -> Made in try make(into: folder, now: now, progress: progress) })
            }
        }
        return try result.get()
    }
}

// MARK: - Private

private extension BackupMaker {
    struct Item {
        let path: String
        let isDatabase: Bool
        let mode: Int
    }

    struct Plan {
        var items: [Item] = []
        var leftOut: [BackupManifest.LeftOut] = []
    }

    /// Walks the data folder: what goes in, and what is left out on purpose.
    func planned(excluding backupFolder: URL) throws(BackupError) -> Plan {
        var plan = Plan()
        let base = dataDirectory.path.hasSuffix("/") ? dataDirectory.path : dataDirectory.path + "/"
        let backupPath = backupFolder.path.hasPrefix(base) ? String(backupFolder.path.dropFirst(base.count)) : nil
        func walk(_ relative: String) throws(BackupError) {
            let url = relative.isEmpty ? dataDirectory : dataDirectory.appendingPathComponent(relative)
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
            } catch {
                throw .nothingToBackUp(dataDirectory.path)
            }
            for name in names {
                let path = relative.isEmpty ? name : relative + "/" + name
                if name.hasPrefix(".") || name.hasSuffix(".lock") || Self.transient.contains(path) { continue }
                if name.hasSuffix("-wal") || name.hasSuffix("-shm") || name.hasSuffix("-journal") { continue }
                if path == backupPath || path == Self.backupsFolder || BackupShelf.isArchiveName(name) {
                    plan.leftOut.append(.init(path: path, reason: "earlier backups"))
                    continue
                }
                if let reason = Self.downloadedFolders[path] {
                    plan.leftOut.append(.init(path: path, reason: reason))
                    continue
                }
                if let reason = Self.cacheFolders[path], !includeCaches {
                    plan.leftOut.append(.init(path: path, reason: reason + " (pocket backup --include-caches keeps them)"))
                    continue
                }
                var info = stat()
                guard lstat(url.appendingPathComponent(name).path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    try walk(path)
                case S_IFREG:
                    guard layout.writes(path) else {
                        plan.leftOut.append(.init(path: path, reason: "not written by Pocket: a restore keeps it in the folder"))
                        continue
                    }
                    plan.items.append(Item(path: path, isDatabase: layout.migrations(for: path) != nil, mode: Int(info.st_mode & 0o777)))
                default:
                    continue // sockets, links: nothing Pocket makes
                }
            }
        }
        try walk("")
        return plan
    }

    /// Copies a live database page by page inside one read transaction, so the copy is the
    /// database as of one commit; in WAL mode writers carry on meanwhile. The copy is switched to
    /// a rollback journal so it is one self-contained file, and its migrations are read back.
    static func copyDatabase(from source: URL, to destination: URL, path: String, in folder: URL) throws(BackupError) -> [String] {
        do {
            let from = try DatabaseQueue(path: source.path, configuration: DatabaseFactory.configuration(label: "backup-source"))
            defer { try? from.close() }
            var copying = DatabaseFactory.configuration(label: "backup-copy")
            // The copy is a scratch file until the archive holds it: syncing each of its writes
            // to disk would only queue the server's own commits behind them.
            copying.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = OFF") }
            let to = try DatabaseQueue(path: destination.path, configuration: copying)
            defer { try? to.close() }
            try from.backup(to: to)
            try to.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            return try to.read { db in try migrations(db) }
        } catch {
            throw .databaseCopyFailed(path: path, reason: reason(error, at: folder))
        }
    }

    static func copyFile(from source: URL, to destination: URL, mode: Int, in folder: URL) throws(BackupError) {
        do {
            try FileManager.default.copyItem(at: source, to: destination)
            guard chmod(destination.path, mode_t(mode)) == 0 else { throw POSIXError(.EPERM) }
        } catch {
            throw .cannotWrite(path: destination.path, reason: reason(error, at: folder))
        }
    }

    static func makeParent(of url: URL, in folder: URL) throws(BackupError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotWrite(path: url.path, reason: reason(error, at: folder))
        }
    }

    static func digest(of url: URL, in folder: URL) throws(BackupError) -> (size: Int64, sha256: String) {
        do {
            return try BackupDigest.of(file: url)
        } catch {
            throw .cannotWrite(path: url.path, reason: reason(error, at: folder))
        }
    }

    /// The zip: the manifest first, then every staged file, deflated. Created readable by its
    /// owner only, before a byte is written: it holds password hashes and the CA's key.
    func write(manifest: BackupManifest, stagedIn staging: URL, to url: URL, in folder: URL) throws(BackupError) {
        do {
            let archive = try Archive(url: url, accessMode: .create)
            guard chmod(url.path, 0o600) == 0 else { throw POSIXError(.EPERM) }
            let data = try manifest.encoded()
            try archive.addEntry(with: BackupManifest.entryName, type: .file, uncompressedSize: Int64(data.count),
                                 permissions: 0o600, compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
            for file in manifest.files {
                try archive.addEntry(with: file.path, relativeTo: staging, compressionMethod: .deflate)
            }
            // One sync, of the finished archive, before it takes its name: a backup that a power cut
            // could leave half written under that name would be worse than none.
            let handle = try FileHandle(forUpdating: url)
            defer { try? handle.close() }
            try handle.synchronize()
        } catch {
            throw .cannotWrite(path: url.path, reason: Self.reason(error, at: folder))
        }
    }
}

extension BackupMaker {
    /// The migrations a database has run, oldest first; none for a database GRDB never migrated.
    static func migrations(_ db: Database) throws -> [String] {
        guard try db.tableExists("grdb_migrations") else { return [] }
        return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
    }

    /// A short reason from any error, without Foundation's long wording; a write into `folder`
    /// that failed for want of room says the disk is full and where (`FileProblem`).
    static func reason(_ error: any Error, at folder: URL? = nil) -> String {
        FileProblem.describe(error, at: folder)
    }
}

/// SHA-256 and size of a file, read in 1 MiB pieces so a large file needs little memory.
enum BackupDigest {
    static func of(file url: URL) throws -> (size: Int64, sha256: String) {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hash = SHA256()
        var size: Int64 = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hash.update(data: chunk)
            size += Int64(chunk.count)
        }
        return (size, hex(hash.finalize()))
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}
