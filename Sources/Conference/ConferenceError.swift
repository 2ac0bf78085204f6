import PocketCore

/// What can go wrong with the Scripture Citation Index database, in words a reader can act on.
public enum ConferenceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The downloaded or imported file is not a usable sci-core database.
    case notADatabase(String)
    /// The file is an SQLite database, but `PRAGMA quick_check` found damage.
    case damagedDatabase(summary: String, detail: String)
    /// The database lacks tables (or columns) every sci-core database has.
    case missingTables([String])
    /// The manifest could not be fetched.
    case manifestUnavailable(String)
    /// The manifest was fetched but a value in it is unusable.
    case invalidManifest(String)
    /// The database file could not be downloaded.
    case downloadFailed(String)
    /// A downloaded or extracted file is not the size the manifest gives.
    case sizeMismatch(file: String, expected: Int64, actual: Int64)
    /// A downloaded or extracted file does not have the MD5 the manifest gives.
    case checksumMismatch(file: String, expected: String, actual: String)
    /// The zip archive cannot be read.
    case corruptArchive(String)
    /// An entry in the zip archive would be written outside the target folder.
    case unsafeArchiveEntry(String)
    /// The zip archive does not contain the database the manifest names.
    case missingArchiveEntry(String)
    /// The database in the archive unpacks to more than the manifest allows (a zip bomb, or a wrong manifest).
    case archiveEntryTooLarge(name: String, limit: Int64)
    /// The data folder's volume lacks room for the download and the database; nothing was fetched.
    case insufficientSpace(needed: Int64, available: Int64)
    /// The install was cancelled; the previous database is still in use.
    case cancelled
    /// Another Pocket process is installing a database right now.
    case busy
    /// A file in the data directory could not be read or written.
    case fileSystem(String)
    /// The bundled sample data is damaged (a build problem, not the user's).
    case sampleDataInvalid(String)
    /// A synthetic database was asked for at a size the generator does not make.
    case unsupportedScale(Int)
    /// No conference has that id.
    case unknownConference(Int)
    /// No talk has that id.
    case unknownTalk(Int)
    /// No speaker has that id.
    case unknownSpeaker(Int)
    /// No book has that id.
    case unknownBook(Int)
    /// The database in use has no citation index (an old or partial database).
    case citationsUnavailable
    /// A talk's text could not be fetched from its source (and none is stored).
    case talkTextUnavailable(talkID: Int, detail: String)
    /// A bookmark change from a phone that cannot be applied; says what is wrong with it.
    case invalidChange(String)

    /// What is too long for the one-line message but belongs in the log (a damaged database's
    /// whole `quick_check` report), if anything.
    public var logDetail: String? {
        if case .damagedDatabase(_, let detail) = self { return detail }
        return nil
    }

    /// A one-line message.
    public var description: String {
        switch self {
        case .notADatabase(let detail): return "This is not a Scripture Citation Index database: \(detail)"
        case .damagedDatabase(let summary, _): return "The database is damaged: SQLite’s quick_check found \(summary)"
        case .missingTables(let names): return "The database lacks \(names.joined(separator: ", ")), so it is not a Scripture Citation Index database"
        case .manifestUnavailable(let detail): return "The database manifest could not be fetched: \(detail)"
        case .invalidManifest(let detail): return "The database manifest is not usable: \(detail)"
        case .downloadFailed(let detail): return "The database could not be downloaded: \(detail)"
        case .sizeMismatch(let file, let expected, let actual):
            return "\(file) is \(actual) bytes, but the manifest says \(expected)"
        case .checksumMismatch(let file, let expected, let actual):
            return "\(file) is damaged: its MD5 is \(actual), but the manifest says \(expected)"
        case .corruptArchive(let detail): return "The downloaded zip archive is damaged: \(detail)"
        case .unsafeArchiveEntry(let path): return "The zip archive was refused: its entry “\(path)” would be written outside the data folder"
        case .missingArchiveEntry(let name): return "The zip archive does not contain \(name)"
        case .archiveEntryTooLarge(let name, let limit): return "The zip archive was refused: \(name) unpacks to more than the \(limit) bytes the manifest allows"
        case .insufficientSpace(let needed, let available):
            return "Not enough free space to install the database: it needs \(DiskSpace.text(needed)), but the data folder's disk has \(DiskSpace.text(available)) free; nothing was changed"
        case .cancelled: return "The database update was cancelled; the previous database is still in use"
        case .busy: return "Another Pocket process is installing a database; try again when it has finished"
        case .fileSystem(let detail): return "The data folder could not be used: \(detail)"
        case .sampleDataInvalid(let detail): return "The built-in sample data is damaged: \(detail)"
        case .unsupportedScale(let scale):
            return "A synthetic database can be 1 to \(SyntheticDatabase.maximumScale) times the full size, not \(scale)"
        case .unknownConference(let id): return "There is no conference number \(id)."
        case .unknownTalk(let id): return "There is no talk number \(id)."
        case .unknownSpeaker(let id): return "There is no speaker number \(id)."
        case .unknownBook(let id): return "There is no book number \(id)."
        case .citationsUnavailable: return "This database has no citation index."
        case .talkTextUnavailable(let talkID, let detail): return "The text of talk \(talkID) could not be fetched: \(detail)."
        case .invalidChange(let detail): return "That change cannot be applied: \(detail)."
        }
    }
}

extension ConferenceError {
    /// The installer's wording for a failed download.
    init(_ error: DownloadError) {
        switch error {
        case .cancelled: self = .cancelled
        case .fileSystem(let detail): self = .fileSystem(detail)
        default: self = .downloadFailed(error.description)
        }
    }

    /// The installer's wording for a failed manifest fetch.
    init(manifest error: FetchError) {
        switch error {
        case .tooLarge: self = .invalidManifest("it is too large to be a manifest")
        default: self = .manifestUnavailable(error.description)
        }
    }
}
