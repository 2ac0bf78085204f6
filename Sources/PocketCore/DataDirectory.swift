import Foundation

/// The folder where Pocket keeps every database, download and secret.
public struct DataDirectory: Sendable, Equatable {
    /// The folder's location.
    public let url: URL

    /// Creates the folder if needed, proves it is writable (so start-up fails early and clearly),
    /// makes it its owner's alone (0700), and marks it as Pocket's (`DataFolderMarker`), so a
    /// restore will replace it and no other.
    public init(url: URL) throws(ConfigurationError) {
        self.url = url.standardizedFileURL
        let manager = FileManager.default
        if let problem = Self.obstacle(to: self.url) {
            throw .dataDirectoryNotWritable(path: self.url.path, reason: problem)
        }
        do {
            try manager.createDirectory(at: self.url, withIntermediateDirectories: true)
        } catch {
            throw .dataDirectoryNotWritable(path: self.url.path, reason: Self.reason(error))
        }
        let probe = self.url.appendingPathComponent(".pocket-write-test-\(ProcessInfo.processInfo.processIdentifier)")
        let descriptor = open(probe.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .dataDirectoryNotWritable(path: self.url.path, reason: Self.reason(errno: errno))
        }
        let problem = Self.writeProblem(descriptor)
        close(descriptor)
        try? manager.removeItem(at: probe)
        if let problem { throw .dataDirectoryNotWritable(path: self.url.path, reason: problem) }
        // Its owner's alone, however it was made (by hand, by an earlier Pocket): others may not even list it.
        var info = stat()
        if stat(self.url.path, &info) == 0, info.st_mode & 0o077 != 0, info.st_uid == geteuid() { chmod(self.url.path, info.st_mode & 0o700) }
        do {
            try DataFolderMarker.mark(self.url)
        } catch .cannotWriteFile(_, let reason) {
            throw .dataDirectoryNotWritable(path: self.url.path, reason: reason)
        } catch {
            throw .dataDirectoryNotWritable(path: self.url.path, reason: error.description)
        }
    }

    /// The location of a file inside the data directory.
    public func file(_ name: String) -> URL {
        url.appendingPathComponent(name, isDirectory: false)
    }

    /// A subfolder, created on demand.
    public func folder(_ name: String) throws(ConfigurationError) -> URL {
        let folder = url.appendingPathComponent(name, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .dataDirectoryNotWritable(path: folder.path, reason: Self.reason(error))
        }
        return folder
    }

    /// Why a few bytes cannot be written to the open file `descriptor`, nil when they can. On a
    /// full disk a file can often still be created; only writing into it fails.
    static func writeProblem(_ descriptor: Int32) -> String? {
        let written = "ok".withCString { write(descriptor, $0, 2) }
        return written == 2 ? nil : reason(errno: errno)
    }

    /// An error number in words, saying plainly when the disk is full.
    static func reason(errno code: Int32) -> String {
        FileProblem.describe(errno: code)
    }

    /// Finds why a folder could not be created before trying, since Foundation's errors only give codes.
    private static func obstacle(to url: URL) -> String? {
        var candidate = url
        while candidate.path != "/" {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory) {
                if !isDirectory.boolValue { return "\(candidate.path) is a file, not a folder" }
                return access(candidate.path, W_OK) == 0 ? nil : "permission denied on \(candidate.path)"
            }
            candidate.deleteLastPathComponent()
        }
        return nil
    }

    private static func reason(_ error: any Error) -> String {
        FileProblem.describe(error)
    }
}
