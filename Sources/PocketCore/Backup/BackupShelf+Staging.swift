import Foundation

// A backup copies every database into a staging folder beside its archive
// (`.pocket-backup-<uuid>/`) and removes it when done; a backup killed part-way leaves it, full
// copies of every database (people.sqlite too) that nothing else would ever remove. Each backup
// holds the shelf's lock (`.pocket-backup.lock`) shared while its staging folder exists; whoever
// gets it exclusively knows no backup is running and removes every staging folder left.

extension BackupShelf {
    /// The lock file in the shelf's folder.
    static let lockName = ".pocket-backup.lock"
    /// Staging folders are named this, then a UUID.
    static let stagingPrefix = ".pocket-backup-"

    /// The shelf's lock, held shared by a running backup; let go when released.
    final class Hold: Sendable {
        private let descriptor: Int32

        fileprivate init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        deinit {
            close(descriptor)
        }
    }

    /// Removes the staging folders that backups killed part-way left, unless a backup is running
    /// (it holds the lock), and returns them. For start-up; every backup also does it first.
    @discardableResult
    public func removeStaleStaging() -> [URL] {
        guard let descriptor = openLock() else { return [] }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return [] }
        return removeStaging()
    }

    /// Takes the lock for a backup about to stage its copies: first exclusively if no other
    /// backup holds it, to remove what killed ones left, then shared (waiting out another
    /// process's removal), so backups of one shelf run side by side.
    func holdForBackingUp() throws(BackupError) -> Hold {
        guard let descriptor = openLock() else {
            throw .cannotWrite(path: folder.appendingPathComponent(Self.lockName).path, reason: FileProblem.describe(errno: errno, at: folder))
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { removeStaging() }
        // From exclusive to shared, or waiting while another backup tidies up (a moment).
        guard flock(descriptor, LOCK_SH) == 0 else {
            let code = errno
            close(descriptor)
            throw .cannotWrite(path: folder.appendingPathComponent(Self.lockName).path, reason: FileProblem.describe(errno: code, at: folder))
        }
        return Hold(descriptor: descriptor)
    }

    private func openLock() -> Int32? {
        let descriptor = open(folder.appendingPathComponent(Self.lockName).path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        return descriptor >= 0 ? descriptor : nil
    }

    /// Only under the lock held exclusively.
    @discardableResult
    private func removeStaging() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var removed: [URL] = []
        for name in names where name.hasPrefix(Self.stagingPrefix) && name != Self.lockName {
            let url = folder.appendingPathComponent(name, isDirectory: true)
            if (try? FileManager.default.removeItem(at: url)) != nil { removed.append(url) }
        }
        return removed
    }
}
