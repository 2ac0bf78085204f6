import Foundation

/// What a backup archive holds, written into it as `manifest.json`: enough for a restore to
/// prove every file arrived intact and to tell an archive of an older Pocket from a newer one.
public struct BackupManifest: Codable, Sendable, Equatable {
    /// One file in the archive, by its path inside the data folder.
    public struct File: Codable, Sendable, Equatable {
        /// The path inside the data folder, with `/` between folders (`conference/state.sqlite`).
        public var path: String
        /// Its size in bytes.
        public var size: Int64
        /// Lowercase hexadecimal SHA-256 of its bytes.
        public var sha256: String
        /// Its permission bits (`0o600` for the CA's key), restored exactly.
        public var mode: Int
        /// For a database: the migrations it has run (GRDB's `grdb_migrations`), oldest first.
        public var migrations: [String]?

        /// Creates a file entry.
        public init(path: String, size: Int64, sha256: String, mode: Int, migrations: [String]? = nil) {
            self.path = path
            self.size = size
            self.sha256 = sha256
            self.mode = mode
            self.migrations = migrations
        }

        /// Whether the file is an SQLite database copied with SQLite's online backup.
        public var isDatabase: Bool { migrations != nil }
    }

    /// Something of the data folder the archive leaves out on purpose, and why.
    public struct LeftOut: Codable, Sendable, Equatable {
        /// The path inside the data folder.
        public var path: String
        /// Why it can be left out (it is downloaded or fetched again).
        public var reason: String

        /// Creates an entry.
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// The only layout of manifest this Pocket writes and reads; a later layout gets a new number.
    public static let currentFormat = 1
    /// The archive entry holding the manifest.
    public static let entryName = "manifest.json"

    /// The manifest's layout (`currentFormat`).
    public var format: Int
    /// The version of the Pocket that made the archive.
    public var pocketVersion: String
    /// When the archive was made, in whole milliseconds since 1970.
    public var createdAt: Int64
    /// Every file in the archive besides the manifest.
    public var files: [File]
    /// What was left out, so a person knows what a restore will fetch again.
    public var leftOut: [LeftOut]

    /// Creates a manifest.
    public init(format: Int = currentFormat, pocketVersion: String, createdAt: Int64, files: [File], leftOut: [LeftOut]) {
        self.format = format
        self.pocketVersion = pocketVersion
        self.createdAt = createdAt
        self.files = files
        self.leftOut = leftOut
    }

    /// The manifest as stored: sorted keys and indented, so it reads well and compares byte for byte.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
