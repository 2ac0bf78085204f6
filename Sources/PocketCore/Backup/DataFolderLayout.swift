import Foundation

/// Every file Pocket writes in its data folder, by path, which a backup takes and a restore
/// accepts, and nothing else: the databases by name with the migrations this Pocket knows for
/// each, the other files (`tls/ca.key`), and whatever is inside the picture caches
/// (`BackupMaker.cacheFolders`). The `pocket` executable declares it once, from its stores and
/// `TLSFolder` (PocketCore cannot see them), and hands it to both.
///
/// Why by name: a backup's manifest is written by whoever made the zip, so it cannot be what says
/// which file is a database to check, or which files belong in the folder at all.
public struct DataFolderLayout: Sendable, Equatable {
    /// The migrations this Pocket knows, by database path inside the data folder; a `*` in a
    /// path stands for any text without a `/` (`murals*.sqlite`).
    public var databases: [String: [String]]
    /// The other files Pocket writes, by path inside the data folder (`tls/ca.key`).
    public var files: Set<String>

    /// A layout of `databases` and `files`.
    public init(databases: [String: [String]], files: Set<String> = []) {
        self.databases = databases
        self.files = files
    }

    /// The migrations this Pocket knows for the database at `path`; nil when it is not one of Pocket's databases.
    public func migrations(for path: String) -> Set<String>? {
        if let exact = databases[path] { return Set(exact) }
        for (pattern, identifiers) in databases {
            let parts = pattern.split(separator: "*", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let middle = path.dropFirst(parts[0].count).dropLast(parts[1].count)
            if path.hasPrefix(parts[0]), path.hasSuffix(parts[1]), path.count >= parts[0].count + parts[1].count, !middle.contains("/") {
                return Set(identifiers)
            }
        }
        return nil
    }

    /// Whether Pocket writes a file at `path`: one of its databases, one of `files`, or a picture
    /// inside a cache folder (archived by `pocket backup --include-caches`).
    public func writes(_ path: String) -> Bool {
        if migrations(for: path) != nil || files.contains(path) { return true }
        let parts = path.split(separator: "/", maxSplits: 1)
        return parts.count == 2 && BackupMaker.cacheFolders[String(parts[0])] != nil
    }
}
