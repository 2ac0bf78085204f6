import Foundation
import GRDB

// A restore unpacks into `.X.restoring-<token>` beside the data folder X, marks it finished
// (`DataFolderMarker`), moves X aside to `.X.before-restore-<token>`, renames the restored folder
// to X, carries over from the folder aside what the archive does not replace, and removes it. A
// restore cut short (kill -9, a power cut) leaves some of these; every Pocket command that opens
// X first finishes or rolls back what it finds, under the locks of the folders involved (a
// restore still running holds them, so it is never mistaken for one cut short).

extension BackupRestorer {
    /// What the next command found of a restore cut short, and did.
    public enum Recovery: Sendable, Equatable, CustomStringConvertible {
        /// The restored folder was complete: it is now the data folder.
        case finished(folder: String)
        /// The restore had not finished unpacking: the data folder is as it was before it.
        case rolledBack(folder: String)

        /// One line for the terminal.
        public var description: String {
            switch self {
            case .finished(let folder):
                return "a restore into \(folder) had been cut short after its archive was unpacked and checked: it is now finished"
            case .rolledBack(let folder):
                return "a restore into \(folder) had been cut short before it was ready: it is rolled back, the folder is as it was before it"
            }
        }
    }

    /// Finishes or rolls back a restore into `dataDirectory` that was cut short, and says which;
    /// nil when there was none. Throws while another process is restoring into it.
    public func recoverInterrupted(_ dataDirectory: URL) throws(BackupError) -> Recovery? {
        let target = dataDirectory.standardizedFileURL
        let parent = target.deletingLastPathComponent()
        var recovery: Recovery?
        for token in Self.interruptedRestores(of: target) {
            let staging = parent.appendingPathComponent(Self.stagingPrefix(of: target) + token, isDirectory: true)
            let aside = parent.appendingPathComponent(Self.asidePrefix(of: target) + token, isDirectory: true)
            recovery = try recover(target: target, staging: exists(staging) ? staging : nil, aside: exists(aside) ? aside : nil) ?? recovery
        }
        return recovery
    }

    /// The tokens of the restores into `dataDirectory` whose folders are beside it (running or cut
    /// short), sorted: one look at the parent folder, for commands to skip everything else when empty.
    public static func interruptedRestores(of dataDirectory: URL) -> [String] {
        let target = dataDirectory.standardizedFileURL
        let prefixes = [stagingPrefix(of: target), asidePrefix(of: target)]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: target.deletingLastPathComponent().path)) ?? []
        return Set(names.compactMap { name in prefixes.first(where: { name.hasPrefix($0) }).map { String(name.dropFirst($0.count)) } }).sorted()
    }

    /// `.X.restoring-`: the restored folder being made, then the token.
    static func stagingPrefix(of target: URL) -> String { ".\(target.lastPathComponent).restoring-" }
    /// `.X.before-restore-`: the data folder moved aside, then the token.
    static func asidePrefix(of target: URL) -> String { ".\(target.lastPathComponent).before-restore-" }

    /// Whether a restore may replace `folder`: it is empty (but for the lock), marked as Pocket's,
    /// or holds a people database whose first migration is this Pocket's (a folder an earlier
    /// Pocket made and nothing has opened since).
    func isPocketsFolder(_ folder: URL) -> Bool {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0 != DataFolderLock.fileName }
        if names.isEmpty || DataFolderMarker.isMarked(folder) { return true }
        guard let known = layout.migrations(for: PeopleDatabase.fileName), names.contains(PeopleDatabase.fileName) else { return false }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "restore-recognize"
        guard let queue = try? DatabaseQueue(path: folder.appendingPathComponent(PeopleDatabase.fileName).path, configuration: configuration) else { return false }
        defer { try? queue.close() }
        guard let ran = try? queue.read({ db in try BackupMaker.migrations(db) }), let first = ran.first else { return false }
        return known.contains(first)
    }

    /// Moves into `target` everything in `aside` that the restore did not bring back and that is
    /// not one of Pocket's databases (those are the archive's now, or it had none): the
    /// Conference database, picture caches, earlier backups, and any file Pocket did not write.
    /// Returns what it moved, each at the shallowest path moved whole.
    func carryOver(from aside: URL, into target: URL) -> [String] {
        var carried: [String] = []
        func carry(_ relative: String) {
            let from = relative.isEmpty ? aside : aside.appendingPathComponent(relative)
            let to = relative.isEmpty ? target : target.appendingPathComponent(relative)
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: from.path)) ?? []).sorted() {
                let path = relative.isEmpty ? name : relative + "/" + name
                if relative.isEmpty, name == DataFolderLock.fileName || name == DataFolderMarker.fileName { continue }
                if layout.migrations(for: path) != nil { continue }
                if let database = Self.databaseOfSidecar(path), layout.migrations(for: database) != nil || exists(target.appendingPathComponent(database)) { continue }
                let source = from.appendingPathComponent(name), destination = to.appendingPathComponent(name)
                var there = stat(), here = stat()
                if lstat(destination.path, &there) != 0 {
                    if rename(source.path, destination.path) == 0 { carried.append(path) }
                } else if lstat(source.path, &here) == 0, here.st_mode & S_IFMT == S_IFDIR, there.st_mode & S_IFMT == S_IFDIR {
                    carry(path)
                }
            }
        }
        carry("")
        return carried
    }

    /// Gives `folder` and everything in it the owner of `reference` (the folder it replaces), and
    /// `folder` itself its mode: a restore run as root on the service's folder must leave it the
    /// service's. Only root can give files away; anyone else already owns what it wrote.
    static func adoptOwner(of reference: URL, into folder: URL) {
        var original = stat()
        guard lstat(reference.path, &original) == 0 else { return }
        chmod(folder.path, original.st_mode & 0o7777)
        guard geteuid() == 0 else { return }
        func walk(_ url: URL) {
            var info = stat()
            guard lstat(url.path, &info) == 0 else { return }
            if info.st_uid != original.st_uid || info.st_gid != original.st_gid { lchown(url.path, original.st_uid, original.st_gid) }
            guard info.st_mode & S_IFMT == S_IFDIR else { return }
            for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] { walk(url.appendingPathComponent(name)) }
        }
        walk(folder)
    }
}

// MARK: - Private

private extension BackupRestorer {
    /// One interrupted restore: which of its folders exist decides what is left to do.
    func recover(target: URL, staging: URL?, aside: URL?) throws(BackupError) -> Recovery? {
        // A restore still running holds both folders' locks (the one aside is the data folder it locked, renamed).
        var stagingLock: DataFolderLock?, asideLock: DataFolderLock?
        if let staging {
            stagingLock = try DataFolderLock.forRestoring(staging)
            guard stagingLock != nil else { throw .restoreUnderWay(target.path) }
        }
        if let aside {
            asideLock = try DataFolderLock.forRestoring(aside)
            guard asideLock != nil else { throw .restoreUnderWay(target.path) }
        }
        let manager = FileManager.default
        let ready = staging.map(DataFolderMarker.isMarked) ?? false
        let targetExists = exists(target)
        defer { withExtendedLifetime((stagingLock, asideLock)) {} }
        switch (staging, aside) {
        case (nil, nil):
            return nil
        case let (staging?, aside?) where !targetExists:
            // Cut short between the two renames: the data folder is aside, the restored one ready or not.
            if ready {
                try put(staging, at: target)
                finish(aside: aside, into: target)
                return .finished(folder: target.path)
            }
            try put(aside, at: target)
            try? manager.removeItem(at: staging)
            return .rolledBack(folder: target.path)
        case let (staging?, aside?):
            // Both, and a data folder too: something made one since (an earlier Pocket's server). Nothing is removed.
            throw .cannotRestore("a restore into \(target.path) was cut short and the folder has been made again since; the folder before the restore is \(aside.path) and the restored one \(staging.path): move the one to keep to \(target.path) and remove the other")
        case let (nil, aside?):
            // Cut short after the restored folder took its place: only the carrying over was left.
            guard targetExists else {
                try put(aside, at: target)
                return .rolledBack(folder: target.path)
            }
            let targetLock = try DataFolderLock.forRestoring(target)
            guard targetLock != nil else { throw .serverRunning(target.path) }
            finish(aside: aside, into: target)
            withExtendedLifetime(targetLock) {}
            return .finished(folder: target.path)
        case let (staging?, nil):
            // Into a folder that did not exist, ready to be renamed; else nothing was touched yet.
            if !targetExists, ready {
                try put(staging, at: target)
                return .finished(folder: target.path)
            }
            try? manager.removeItem(at: staging)
            return .rolledBack(folder: target.path)
        }
    }

    func put(_ folder: URL, at target: URL) throws(BackupError) {
        guard rename(folder.path, target.path) == 0 else {
            throw .cannotRestore("cannot move \(folder.path) to \(target.path): \(FileProblem.describe(errno: errno, at: target.deletingLastPathComponent()))")
        }
    }

    func finish(aside: URL, into target: URL) {
        _ = carryOver(from: aside, into: target)
        Self.adoptOwner(of: aside, into: target)
        try? FileManager.default.removeItem(at: aside)
    }

    static func databaseOfSidecar(_ path: String) -> String? {
        for suffix in ["-wal", "-shm", "-journal"] where path.hasSuffix(suffix) { return String(path.dropLast(suffix.count)) }
        return nil
    }
}

private func exists(_ url: URL) -> Bool {
    var info = stat()
    return lstat(url.path, &info) == 0
}
