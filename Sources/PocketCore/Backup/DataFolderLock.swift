import Foundation

/// The lock a server holds on its data folder (`pocket.lock`, an flock) while it runs, so a
/// restore can tell that a server is using the folder and refuse rather than swap files under it.
///
/// Servers take it shared, so starting a second server on one folder still fails on its port
/// (as it always did) rather than on the lock; a restore takes it exclusive, which fails while any
/// server holds it. The kernel drops the lock when the process ends, however it ends, so a crash
/// never leaves a stale lock behind.
public final class DataFolderLock: Sendable {
    /// The lock file's name inside the data folder.
    public static let fileName = "pocket.lock"
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Takes the lock shared, for a server: nil only when the folder is locked for a restore.
    public static func forServing(_ folder: URL) throws(BackupError) -> DataFolderLock? {
        try take(folder, operation: LOCK_SH)
    }

    /// Takes the lock exclusively, for a restore: nil while any server holds it.
    public static func forRestoring(_ folder: URL) throws(BackupError) -> DataFolderLock? {
        try take(folder, operation: LOCK_EX)
    }

    private static func take(_ folder: URL, operation: Int32) throws(BackupError) -> DataFolderLock? {
        let path = folder.appendingPathComponent(fileName).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .cannotRestore("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, operation | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return DataFolderLock(descriptor: descriptor)
    }
}
