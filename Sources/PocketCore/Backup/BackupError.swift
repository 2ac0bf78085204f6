import Foundation

/// Why a backup or a restore could not be done; each message is one line a person can act on.
public enum BackupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data folder has nothing Pocket made.
    case nothingToBackUp(String)
    /// A database could not be copied.
    case databaseCopyFailed(path: String, reason: String)
    /// The archive could not be written.
    case cannotWrite(path: String, reason: String)
    /// The archive is not a readable zip (truncated, damaged, or another kind of file).
    case unreadableArchive(path: String, reason: String)
    /// The archive has no manifest, or one this Pocket cannot read.
    case badManifest(String)
    /// A file's bytes are not what the manifest says (changed, damaged or missing).
    case checksumMismatch(String)
    /// An entry whose name could write outside the folder being restored, or that the manifest does not list.
    case unexpectedEntry(String)
    /// A database in the archive fails `PRAGMA integrity_check`.
    case damagedDatabase(path: String, problem: String)
    /// A database ran a migration this Pocket does not know: the archive comes from a newer Pocket.
    case newerPocket(path: String, migration: String, version: String)
    /// A server holds the data folder's lock.
    case serverRunning(String)
    /// The restore could not put the restored folder in place.
    case cannotRestore(String)
    /// A file Pocket keeps beside its data (the folder's marker) could not be written.
    case cannotWriteFile(path: String, reason: String)
    /// The folder a restore was asked to replace is not Pocket's.
    case notPocketsFolder(String)
    /// The archive lacks a database Pocket cannot fetch again.
    case incompleteArchive(String)
    /// Another process is restoring into the folder.
    case restoreUnderWay(String)
    /// The archive holds a file Pocket never writes in its data folder.
    case unknownFile(String)
    /// A file in the archive is not one Pocket could use (the CA's key and certificate not a pair, say).
    case unusableFile(String)

    /// A one-line message.
    public var description: String {
        switch self {
        case .nothingToBackUp(let path):
            return "\(path) holds no Pocket data to back up"
        case .databaseCopyFailed(let path, let reason):
            return "cannot copy the database \(path): \(reason)"
        case .cannotWrite(let path, let reason):
            return "cannot write the backup \(path): \(reason)"
        case .unreadableArchive(let path, let reason):
            return "\(path) is not a readable Pocket backup (\(reason)); nothing was changed"
        case .badManifest(let reason):
            return "the backup's manifest is not usable: \(reason); nothing was changed"
        case .checksumMismatch(let path):
            return "the backup is damaged or was changed: \(path) does not match its checksum; nothing was changed"
        case .unexpectedEntry(let name):
            return "the backup holds an entry it should not ('\(name)'); nothing was changed"
        case .damagedDatabase(let path, let problem):
            return "the database \(path) in the backup is damaged (\(problem)); nothing was changed"
        case .newerPocket(let path, let migration, let version):
            return "the backup comes from a newer Pocket (\(version)): \(path) has the migration '\(migration)' this Pocket does not know; upgrade Pocket first, nothing was changed"
        case .serverRunning(let path):
            return "a Pocket server is running on \(path): stop it first (for example sudo systemctl stop pocket), then restore; nothing was changed"
        case .cannotRestore(let reason):
            return "cannot restore: \(reason)"
        case .cannotWriteFile(let path, let reason):
            return "cannot write \(path): \(reason)"
        case .notPocketsFolder(let path):
            return "\(path) is not a Pocket data folder (it has files but no \(DataFolderMarker.fileName) and no Pocket people.sqlite): give an empty or new folder, or Pocket's own; nothing was changed"
        case .incompleteArchive(let path):
            return "the backup has no \(path), which Pocket cannot fetch again: it is not a whole Pocket backup; nothing was changed"
        case .unknownFile(let path):
            return "the backup holds \(path), which Pocket does not write in its data folder: it is not a backup Pocket made, or it was changed; nothing was changed"
        case .unusableFile(let problem):
            return "the backup cannot be restored: \(problem); nothing was changed"
        case .restoreUnderWay(let path):
            return "a restore into \(path) is under way in another process: wait for it to finish; nothing was changed"
        }
    }
}
