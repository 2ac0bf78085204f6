import Foundation

/// The file by which Pocket knows a data folder as its own (`.pocket-data-folder`), written when
/// any command opens the folder (so a folder made by an earlier Pocket gets it on its next open)
/// and into every restored folder. A restore replaces only a folder that has it, is empty, or
/// holds a people database this Pocket's migrations made: never a folder of someone's files that
/// merely has an `.sqlite` in it. It is never put in a backup (its name starts with a dot).
public enum DataFolderMarker {
    /// The marker's name inside the data folder.
    public static let fileName = ".pocket-data-folder"

    /// What the marker says to whoever finds it.
    static let text = """
        This folder holds Pocket's data. `pocket restore` replaces only a folder with this file in it.
        Stop Pocket before moving or deleting anything here; `pocket backup` makes a copy of it.

        """

    /// Whether `folder` has the marker.
    public static func isMarked(_ folder: URL) -> Bool {
        var info = stat()
        return lstat(folder.appendingPathComponent(fileName).path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Writes the marker into `folder` unless it is there, readable by its owner only. Written to
    /// a scratch name and renamed, so a marker is whole or absent: a restore uses its presence in
    /// a restored folder to tell a finished unpacking from one cut short.
    public static func mark(_ folder: URL) throws(BackupError) {
        guard !isMarked(folder) else { return }
        let scratch = folder.appendingPathComponent(fileName + ".\(UUID().uuidString.prefix(8))")
        let descriptor = open(scratch.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotWriteFile(path: folder.appendingPathComponent(fileName).path, reason: FileProblem.describe(errno: errno, at: folder)) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let problem = written == bytes.count && fsync(descriptor) == 0 ? nil : errno
        close(descriptor)
        if let problem {
            unlink(scratch.path)
            throw .cannotWriteFile(path: folder.appendingPathComponent(fileName).path, reason: FileProblem.describe(errno: problem, at: folder))
        }
        guard rename(scratch.path, folder.appendingPathComponent(fileName).path) == 0 else {
            let code = errno
            unlink(scratch.path)
            throw .cannotWriteFile(path: folder.appendingPathComponent(fileName).path, reason: FileProblem.describe(errno: code, at: folder))
        }
    }
}
