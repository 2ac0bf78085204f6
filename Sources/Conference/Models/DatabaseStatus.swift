import Foundation

/// Where the data Pocket is showing came from.
public enum DatabaseSource: Sendable, Equatable {
    /// The small database Pocket builds from its bundled 2025 facts, used until a real one is installed.
    case sample
    /// A database downloaded from the manifest or imported from a file.
    case installed(InstalledDatabase)

    /// Whether this is the built-in sample.
    public var isSample: Bool {
        if case .sample = self { return true }
        return false
    }

    /// The install record; nil for the sample.
    var record: InstalledDatabase? {
        if case .installed(let record) = self { return record }
        return nil
    }
}

/// How an installed database arrived.
public enum InstallOrigin: String, Sendable, Equatable, Codable {
    /// Downloaded by `update`, as the manifest described it.
    case download
    /// Imported from a file with `import`.
    case `import`
}

/// The record Pocket keeps (in its own database) of the sci-core database it installed.
public struct InstalledDatabase: Sendable, Equatable {
    /// The manifest's `version` (or `imported` for an imported file).
    public let version: String
    /// The manifest's `content-name` (or the imported file's name).
    public let contentName: String
    /// Size of the database file in bytes.
    public let contentSize: Int64
    /// MD5 of the database file, 32 lowercase hex digits.
    public let contentMD5: String
    /// Downloaded or imported.
    public let origin: InstallOrigin
    /// When it became current.
    public let installedAt: Date
    /// The file's name inside Pocket's data folder.
    public let fileName: String

    /// Creates an install record.
    public init(version: String, contentName: String, contentSize: Int64, contentMD5: String, origin: InstallOrigin, installedAt: Date, fileName: String) {
        self.version = version
        self.contentName = contentName
        self.contentSize = contentSize
        self.contentMD5 = contentMD5
        self.origin = origin
        self.installedAt = installedAt
        self.fileName = fileName
    }

    /// Whether this is exactly the database a manifest describes (version, content size and MD5).
    public func matches(_ manifest: SCIManifest) -> Bool {
        version == manifest.version && contentSize == manifest.contentSize && contentMD5 == manifest.contentMD5
    }
}

/// Which media columns the `talk` table has: the two schema eras.
public enum MediaColumns: String, Sendable, Equatable {
    /// Newer databases: `AudioUrl`, `VideoLowUrl`, `VideoMedUrl`, `VideoHighUrl`.
    case streams
    /// Older databases: `ListenURL` and `WatchURL`.
    case listenWatch
    /// Neither: talks have no media links.
    case none
}

/// What the open database can do; screens hide the features it cannot support.
public struct DatabaseCapabilities: Sendable, Equatable {
    /// The talk table's media columns.
    public let media: MediaColumns
    /// Whether `citation` and `book` exist, so talks list citations and the citation index works.
    public let citations: Bool
    /// Whether `citation_verse` exists; without it verses are read from `citation.Verses`.
    public let verseIndex: Bool
    /// Whether `updated` exists, for the "last updated" footer.
    public let lastUpdated: Bool
    /// Whether `conference.Publication` exists.
    public let publication: Bool

    /// Creates a capability set.
    public init(media: MediaColumns, citations: Bool, verseIndex: Bool, lastUpdated: Bool, publication: Bool) {
        self.media = media
        self.citations = citations
        self.verseIndex = verseIndex
        self.lastUpdated = lastUpdated
        self.publication = publication
    }
}

/// How many of each thing the database holds.
public struct DatabaseCounts: Sendable, Equatable {
    /// Rows in `conference`.
    public let conferences: Int
    /// Rows in `conf_session`.
    public let sessions: Int
    /// Rows in `talk`.
    public let talks: Int
    /// Rows in `speaker`.
    public let speakers: Int
    /// Rows in `citation` (0 when the table is missing).
    public let citations: Int

    /// Creates a set of counts.
    public init(conferences: Int, sessions: Int, talks: Int, speakers: Int, citations: Int) {
        self.conferences = conferences
        self.sessions = sessions
        self.talks = talks
        self.speakers = speakers
        self.citations = citations
    }
}

/// The line at the foot of the conference list: which database this is.
public struct DatabaseFooter: Sendable, Equatable {
    /// Whether the data is Pocket's built-in sample.
    public let isSample: Bool
    /// The installed version, nil for the sample.
    public let version: String?
    /// `SELECT last_updated FROM updated`, when the table exists.
    public let lastUpdated: String?
    /// The imported file's name, when the database was imported rather than downloaded.
    public let importedFile: String?

    /// Creates a footer.
    public init(isSample: Bool, version: String?, lastUpdated: String?, importedFile: String? = nil) {
        self.isSample = isSample
        self.version = version
        self.lastUpdated = lastUpdated
        self.importedFile = importedFile
    }

    /// "Sample data (April and October 2025)", "Database version 53" or "Imported database core.53.db".
    public var label: String {
        if isSample { return SampleDatabase.label }
        if let importedFile { return "Imported database \(importedFile)" }
        return "Database version \(version ?? "unknown")"
    }
}

/// Everything `pocket conference status` and a settings screen show.
public struct DatabaseStatus: Sendable, Equatable {
    /// Sample or installed, and the install record.
    public let source: DatabaseSource
    /// Version and last-updated line.
    public let footer: DatabaseFooter
    /// Row counts.
    public let counts: DatabaseCounts
    /// What the database supports.
    public let capabilities: DatabaseCapabilities
    /// Why Pocket fell back to the sample at start-up, when the installed database could not be opened.
    public let warning: String?

    /// Creates a status.
    public init(source: DatabaseSource, footer: DatabaseFooter, counts: DatabaseCounts, capabilities: DatabaseCapabilities, warning: String?) {
        self.source = source
        self.footer = footer
        self.counts = counts
        self.capabilities = capabilities
        self.warning = warning
    }
}
