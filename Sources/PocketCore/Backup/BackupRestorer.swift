import Crypto
import Foundation
import GRDB
import ZIPFoundation

/// Restores a data folder from a backup archive, proving the archive sound before touching the
/// folder: every file's size and SHA-256 against the manifest, `PRAGMA integrity_check` of each
/// database, and every migration a database ran known to this Pocket (else it is a newer Pocket's).
///
/// The restorer, not the manifest, decides what each file is (`DataFolderLayout`): a path it
/// knows as one of Pocket's databases is checked as a database whatever the manifest says of it,
/// and a path Pocket does not write is refused before anything is unpacked.
///
/// The archive is unpacked beside the data folder and migrated there (an older Pocket's archive
/// becomes this Pocket's), then the folder is swapped in by renaming. The folder it replaces is
/// kept aside until the new one is in place, and what the archive does not replace (the
/// Conference database, picture caches, earlier backups, anything Pocket did not write) is
/// carried over from it.
public struct BackupRestorer: Sendable {
    /// What a restore did.
    public struct Report: Sendable, Equatable {
        /// The manifest of the archive restored.
        public var manifest: BackupManifest
        /// Paths carried over from the folder replaced (left out of the archive, or not Pocket's).
        public var carriedOver: [String]
        /// What was found of an earlier restore cut short, and done, before this one began.
        public var recovered: Recovery?
    }

    /// Every file Pocket writes: its databases with the migrations this Pocket knows, and the
    /// rest. An archive may hold nothing else.
    public let layout: DataFolderLayout
    /// Looks over the unpacked folder before it is taken (the CA's key and certificate, say:
    /// a pair, and the key private) and returns what is wrong in one line, or nil.
    public let checkFiles: @Sendable (URL) -> String?

    /// A restorer that refuses databases with migrations outside `layout`'s, any file `layout`
    /// does not name, and an unpacked folder `checkFiles` finds fault with.
    public init(layout: DataFolderLayout, checkFiles: @escaping @Sendable (URL) -> String? = { _ in nil }) {
        self.layout = layout
        self.checkFiles = checkFiles
    }

    /// Unpacks and checks `archive` into `folder` (which must not exist), and returns its
    /// manifest. Throws, leaving nothing at `folder`, unless every check passes.
    public func unpack(_ archive: URL, into folder: URL) throws(BackupError) -> BackupManifest {
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotRestore("cannot make \(folder.path): \(BackupMaker.reason(error))")
        }
        do {
            let zip: Archive
            do {
                zip = try Archive(url: archive, accessMode: .read)
            } catch {
                throw BackupError.unreadableArchive(path: archive.path, reason: Self.describe(error))
            }
            let manifest = try readManifest(zip, path: archive.path)
            guard manifest.files.contains(where: { $0.path == PeopleDatabase.fileName && $0.isDatabase }) else {
                throw BackupError.incompleteArchive(PeopleDatabase.fileName)
            }
            let listed = Dictionary(manifest.files.map { ($0.path, $0) }) { first, _ in first }
            var found = Set<String>()
            for entry in zip where entry.path != BackupManifest.entryName {
                if entry.type == .directory { continue }
                guard entry.type == .file, let file = listed[entry.path], !found.contains(entry.path) else { throw BackupError.unexpectedEntry(entry.path) }
                found.insert(entry.path)
                try extract(entry, of: zip, as: file, into: folder, archivePath: archive.path)
            }
            if let missing = manifest.files.first(where: { !found.contains($0.path) }) { throw BackupError.checksumMismatch(missing.path) }
            for file in manifest.files {
                guard let known = layout.migrations(for: file.path) else { continue }
                try check(database: folder.appendingPathComponent(file.path), as: file, knowing: known, version: manifest.pocketVersion)
            }
            if let problem = checkFiles(folder) { throw BackupError.unusableFile(problem) }
            return manifest
        } catch {
            try? manager.removeItem(at: folder)
            throw error as? BackupError ?? .cannotRestore("cannot unpack \(archive.path): \(BackupMaker.reason(error)); nothing was changed")
        }
    }

    /// Restores `archive` into `dataDirectory`. `migrate` opens every store in the unpacked
    /// folder before it is swapped in (so migrations run there); it must close them on return.
    /// First finishes or rolls back a restore cut short (`recoverInterrupted`). Refuses while a
    /// server holds the folder's lock, and a folder that is not Pocket's (`isPocketsFolder`). On
    /// any failure the data folder is as it was; once restored it keeps its owner and mode, and
    /// everything in the folder replaced that the archive does not replace is carried over.
    public func restore(_ archive: URL, into dataDirectory: URL, migrate: (URL) async throws -> Void) async throws(BackupError) -> Report {
        let target = dataDirectory.standardizedFileURL
        let manager = FileManager.default
        let parent = target.deletingLastPathComponent()
        let recovered = try recoverInterrupted(target)
        var lock: DataFolderLock?
        if manager.fileExists(atPath: target.path) {
            // Never take a folder that is not Pocket's for one: a mistyped --data-dir must lose nothing.
            guard isPocketsFolder(target) else { throw .notPocketsFolder(target.path) }
            lock = try DataFolderLock.forRestoring(target)
            guard lock != nil else { throw .serverRunning(target.path) }
        } else {
            do {
                try manager.createDirectory(at: parent, withIntermediateDirectories: true)
            } catch {
                throw .cannotRestore("cannot make \(parent.path): \(BackupMaker.reason(error, at: parent))")
            }
        }
        let token = String(UUID().uuidString.prefix(8))
        let staging = parent.appendingPathComponent(Self.stagingPrefix(of: target) + token, isDirectory: true)
        let manifest = try unpack(archive, into: staging)
        // The new folder is locked before it takes the old one's place, so no server starts on it half restored.
        let stagingLock = try DataFolderLock.forRestoring(staging)
        do {
            try await migrate(staging)
        } catch {
            try? manager.removeItem(at: staging)
            throw .cannotRestore("the restored data could not be opened by this Pocket (\(BackupMaker.reason(error))); nothing was changed")
        }
        let hadFolder = manager.fileExists(atPath: target.path)
        do {
            // Marked last: a restore cut short from here on is finished by the next command, not rolled back.
            try DataFolderMarker.mark(staging)
            if hadFolder { Self.adoptOwner(of: target, into: staging) }
        } catch {
            try? manager.removeItem(at: staging)
            throw .cannotRestore("\(error.description); nothing was changed")
        }
        let aside = parent.appendingPathComponent(Self.asidePrefix(of: target) + token, isDirectory: true)
        do {
            if hadFolder { try manager.moveItem(at: target, to: aside) }
        } catch {
            try? manager.removeItem(at: staging)
            throw .cannotRestore("cannot move \(target.path) aside (\(BackupMaker.reason(error))); nothing was changed")
        }
        do {
            try manager.moveItem(at: staging, to: target)
        } catch {
            if hadFolder { try? manager.moveItem(at: aside, to: target) }
            try? manager.removeItem(at: staging)
            throw .cannotRestore("cannot put the restored folder in place (\(BackupMaker.reason(error))); the data folder is as it was")
        }
        var carried: [String] = []
        if hadFolder {
            carried = carryOver(from: aside, into: target)
            try? manager.removeItem(at: aside)
        }
        withExtendedLifetime((lock, stagingLock)) {}
        return Report(manifest: manifest, carriedOver: carried, recovered: recovered)
    }
}

// MARK: - Checks

private extension BackupRestorer {
    static let manifestLimit: Int64 = 16 << 20

    func readManifest(_ zip: Archive, path: String) throws -> BackupManifest {
        guard let entry = zip[BackupManifest.entryName] else { throw BackupError.badManifest("it has no \(BackupManifest.entryName)") }
        guard entry.uncompressedSize <= Self.manifestLimit else { throw BackupError.badManifest("it is too large") }
        var data = Data()
        do {
            _ = try zip.extract(entry) { chunk in
                data.append(chunk)
                if data.count > Self.manifestLimit { throw BackupError.badManifest("it is too large") }
            }
        } catch let error as BackupError {
            throw error
        } catch {
            throw BackupError.unreadableArchive(path: path, reason: Self.describe(error))
        }
        let manifest: BackupManifest
        do {
            manifest = try JSONDecoder().decode(BackupManifest.self, from: data)
        } catch {
            throw BackupError.badManifest("it is not a Pocket backup manifest")
        }
        guard manifest.format == BackupManifest.currentFormat else {
            throw BackupError.badManifest("its format \(manifest.format) is not one this Pocket reads (it reads \(BackupManifest.currentFormat)); upgrade Pocket")
        }
        for file in manifest.files {
            guard Self.isSafe(file.path) else { throw BackupError.unexpectedEntry(file.path) }
            guard file.size >= 0, (0...0o777).contains(file.mode), file.sha256.count == 64 else { throw BackupError.badManifest("the entry for \(file.path) is malformed") }
        }
        guard Set(manifest.files.map(\.path)).count == manifest.files.count else { throw BackupError.badManifest("it lists a file twice") }
        // Before a byte is unpacked: a file Pocket never writes has no place in its folder.
        if let stranger = manifest.files.first(where: { !layout.writes($0.path) }) { throw BackupError.unknownFile(stranger.path) }
        return manifest
    }

    /// Writes one entry to its place under `folder` (a path already proved to stay inside it),
    /// with the manifest's mode from the moment it is created, hashing as it goes and stopping as
    /// soon as it would pass the manifest's size.
    func extract(_ entry: Entry, of zip: Archive, as file: BackupManifest.File, into folder: URL, archivePath: String) throws {
        let destination = folder.appendingPathComponent(file.path)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let descriptor = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(file.mode))
        guard descriptor >= 0 else { throw BackupError.cannotRestore("cannot write \(destination.path): \(String(cString: strerror(errno)))") }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        // The umask may have taken bits away; the manifest's mode is the file's mode.
        fchmod(descriptor, mode_t(file.mode))
        var hash = SHA256()
        var size: Int64 = 0
        do {
            _ = try zip.extract(entry) { chunk in
                size += Int64(chunk.count)
                guard size <= file.size else { throw BackupError.checksumMismatch(file.path) }
                hash.update(data: chunk)
                try handle.write(contentsOf: chunk)
            }
        } catch let error as BackupError {
            throw error
        } catch {
            // A failed write is the disk's fault, not the archive's.
            let parent = folder.deletingLastPathComponent(), reason = BackupMaker.reason(error, at: parent)
            if reason == FileProblem.diskFull(at: parent) { throw BackupError.cannotRestore("cannot unpack \(archivePath): \(reason); nothing was changed") }
            throw BackupError.unreadableArchive(path: archivePath, reason: Self.describe(error))
        }
        try handle.close()
        guard size == file.size, BackupDigest.hex(hash.finalize()) == file.sha256 else { throw BackupError.checksumMismatch(file.path) }
    }

    /// `PRAGMA integrity_check`, the migrations the manifest promised, and none this Pocket does
    /// not know (`known`). A manifest that gives no migrations for a database is refused after
    /// the integrity check, so a damaged database is named as damaged.
    func check(database url: URL, as file: BackupManifest.File, knowing known: Set<String>, version: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "restore-check"
        let ran: [String]
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            defer { try? queue.close() }
            let problems = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            guard problems == ["ok"] else {
                throw BackupError.damagedDatabase(path: file.path, problem: problems.first ?? "no answer")
            }
            ran = try queue.read { db in try BackupMaker.migrations(db) }
        } catch let error as BackupError {
            throw error
        } catch {
            throw BackupError.damagedDatabase(path: file.path, problem: BackupMaker.reason(error))
        }
        guard let promised = file.migrations else { throw BackupError.badManifest("it does not list \(file.path) as the database it is") }
        guard ran == promised else { throw BackupError.checksumMismatch(file.path) }
        if let unknown = ran.first(where: { !known.contains($0) }) {
            throw BackupError.newerPocket(path: file.path, migration: unknown, version: version)
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? Archive.ArchiveError {
            switch error {
            case .unreadableArchive, .missingEndOfCentralDirectoryRecord: return "it is truncated or not a zip"
            case .invalidCRC32: return "an entry fails its CRC check"
            default: return "the zip is damaged"
            }
        }
        return BackupMaker.reason(error)
    }
}

extension BackupRestorer {
    /// Whether `path` (from the archive, so from outside) names a place inside the folder: relative,
    /// made of plain names, never `.`, `..`, empty, or with a backslash or a control character.
    static func isSafe(_ path: String) -> Bool {
        guard !path.isEmpty, path.utf8.count <= 1024, !path.hasPrefix("/") else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && part != "." && part != ".." && !part.contains("\\")
                && !part.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
        }
    }
}
