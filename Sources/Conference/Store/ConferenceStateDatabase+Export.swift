import Foundation
import GRDB
import PocketCore

/// One person's Conference data as it leaves or enters Pocket: bookmarks and recently opened
/// talks, by sci-core talk id (the talks themselves are the downloaded database's).
public struct ConferenceExport: Codable, Sendable, Equatable {
    /// A bookmarked talk.
    public struct Bookmark: Codable, Sendable, Equatable {
        /// The talk's id in the sci-core database.
        public var talkID: Int
        /// When it was bookmarked, milliseconds since 1970.
        public var addedAt: Int64
    }

    /// A recently opened talk.
    public struct RecentTalk: Codable, Sendable, Equatable {
        /// The talk's id in the sci-core database.
        public var talkID: Int
        /// When it was last opened, milliseconds since 1970.
        public var viewedAt: Int64
    }

    /// Bookmarks, newest first.
    public var bookmarks: [Bookmark]
    /// Recent talks, newest first (at most the 50 Pocket remembers).
    public var recentTalks: [RecentTalk]
}

/// Why an export's Conference part cannot be taken in. Its own small enum, beside the export, so
/// `ConferenceError` (shared with the installer's work) stays as it is.
public enum ConferenceImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A bookmark's or a view's time outside 1970 to the year 10000.
    case timeOutOfRange

    /// A one-line message.
    public var description: String {
        switch self {
        case .timeOutOfRange: return "The Conference part of the file cannot be imported: a time must be milliseconds since 1970, before the year 10000"
        }
    }
}

extension ConferenceStateDatabase {
    /// `person`'s bookmarks and recent talks, read in one transaction.
    func exported(for person: PersonID) async throws -> ConferenceExport {
        try await writer.read { db in
            let bookmarks = try Self.bookmarks.items(of: person, db).map { ConferenceExport.Bookmark(talkID: $0.itemID, addedAt: $0.addedAt) }
            let recent = try Row.fetchAll(db, sql: "SELECT talkID, viewedAt FROM recent_talk WHERE personID = ? ORDER BY viewedAt DESC, talkID DESC LIMIT ?",
                                          arguments: [person.rawValue, Self.keptRecentTalks])
                .map { ConferenceExport.RecentTalk(talkID: try $0.decode(forColumn: "talkID"), viewedAt: ChangeTime.milliseconds(try $0.decode(Date.self, forColumn: "viewedAt"))) }
            return ConferenceExport(bookmarks: bookmarks, recentTalks: recent)
        }
    }

    /// Adds an export's bookmarks (unless this Pocket decided that talk's bookmark later; one kept
    /// here keeps the earlier date) and recent talks (the later view wins, then the newest
    /// `keptRecentTalks` are kept) to `person`'s, in one transaction.
    func importData(_ data: ConferenceExport, for person: PersonID) async throws {
        let latest: Int64 = 253_402_300_800_000
        guard data.bookmarks.allSatisfy({ (0...latest).contains($0.addedAt) }), data.recentTalks.allSatisfy({ (0...latest).contains($0.viewedAt) }) else {
            throw ConferenceImportError.timeOutOfRange
        }
        try await writer.write { db in
            for bookmark in data.bookmarks {
                // Decided at the time it was made, as an outbox change would be: an un-bookmark
                // made here later still wins.
                try Self.bookmarks.takeIn(itemID: bookmark.talkID, addedAt: bookmark.addedAt, for: person, db)
            }
            for talk in data.recentTalks {
                try db.execute(sql: """
                    INSERT INTO recent_talk(personID, talkID, viewedAt) VALUES (?, ?, ?)
                    ON CONFLICT(personID, talkID) DO UPDATE SET viewedAt = MAX(viewedAt, excluded.viewedAt)
                    """, arguments: [person.rawValue, talk.talkID, Self.storedDate(milliseconds: talk.viewedAt)])
            }
            try db.execute(sql: """
                DELETE FROM recent_talk WHERE personID = ?1 AND talkID NOT IN
                    (SELECT talkID FROM recent_talk WHERE personID = ?1 ORDER BY viewedAt DESC, talkID DESC LIMIT ?2)
                """, arguments: [person.rawValue, Self.keptRecentTalks])
        }
    }
}

private extension ConferenceStateDatabase {
    /// A time in milliseconds as `storedDate` writes it. Half a millisecond is added because
    /// `storedDate` cuts to whole milliseconds, and a date made from milliseconds in binary
    /// floating point can fall a hair short of the one it means.
    static func storedDate(milliseconds: Int64) -> DatabaseDateComponents {
        storedDate(Date(timeIntervalSince1970: (Double(milliseconds) + 0.5) / 1000))
    }
}

extension ConferenceLibrary {
    /// Deletes everything `person` keeps here (bookmarks, recent talks and the phone changes
    /// seen), once they are removed from Pocket.
    public nonisolated func forget(_ person: PersonID) async throws {
        try await state.writer.write { db in _ = try PersonRows.delete(person, db) }
    }

    /// Deletes everything `person` keeps in the data directory's Conference state database, if it
    /// exists, without opening the library (the command line, beside a running Pocket or none).
    public static func forget(_ person: PersonID, in dataDirectory: DataDirectory) async throws {
        let url = dataDirectory.file(folderName).appendingPathComponent(ConferenceStateDatabase.fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        try await ConferenceStateDatabase.onDisk(at: url).writer.write { db in _ = try PersonRows.delete(person, db) }
    }

    /// `person`'s bookmarks and recent talks.
    public nonisolated func exportedTalks(for person: PersonID) async throws -> ConferenceExport {
        try await state.exported(for: person)
    }

    /// Adds an export's bookmarks and recent talks to `person`'s, leaving out bookmarks of talks
    /// the database in use does not have (as a phone's bookmark of one would be refused). Returns
    /// the talk ids left out, so the import can say so.
    @discardableResult
    public func importTalks(_ data: ConferenceExport, for person: PersonID) async throws -> [Int] {
        let asked = Array(Set(data.bookmarks.map(\.talkID))).sorted()
        let active = try await generation()
        // Read straight from the file, not through the screens' memo: an import's list is asked once.
        // In slices, so a long list stays within SQLite's limit on a statement's arguments.
        var known = Set<Int>()
        for start in stride(from: 0, to: asked.count, by: 500) {
            let slice = Array(asked[start..<min(start + 500, asked.count)])
            known.formUnion(try await active.read { db, schema in try CoreQueries.talkSummaries(db, schema: schema, ids: slice) }.map(\.id))
        }
        var kept = data
        kept.bookmarks = data.bookmarks.filter { known.contains($0.talkID) }
        try await state.importData(kept, for: person)
        return data.bookmarks.map(\.talkID).filter { !known.contains($0) }
    }

    /// Every migration this Pocket knows for `conference/state.sqlite`, oldest first (read from a
    /// database migrated in memory): a restore refuses a backup whose state database ran another.
    public static func stateMigrationIdentifiers() throws -> [String] {
        let state = try ConferenceStateDatabase(writer: DatabaseQueue())
        return try state.writer.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") }
    }

    /// Opens and so migrates `state.sqlite` in a Conference folder (a restored one), without
    /// loading any sci-core database.
    public static func migrateState(inFolder folder: URL) throws {
        _ = try ConferenceStateDatabase.onDisk(at: folder.appendingPathComponent(ConferenceStateDatabase.fileName))
    }
}

extension ConferenceLibrary {
    /// For a restore: when the Conference folder being replaced (`current`) has an installed
    /// database that still opens, the restored folder (`restored`) records it as installed too, so
    /// a backup taken before a Conference update does not bring back the older record (or none)
    /// and with it the sample. The file itself is carried over with `databases/`. Returns whether
    /// it did; nothing is written to `current`.
    @discardableResult
    public static func keepInstalled(from current: URL, into restored: URL) async throws -> Bool {
        let state = current.appendingPathComponent(ConferenceStateDatabase.fileName)
        guard FileManager.default.fileExists(atPath: state.path) else { return false }
        // A folder replaced whose record cannot be read has none worth keeping: the archive's stands.
        let record = try? await ConferenceStateDatabase.installedRecord(readingOnly: state)
        guard let record = record ?? nil, SampleDatabase.fileName != record.fileName,
              (try? CoreGeneration(file: current.appendingPathComponent("databases").appendingPathComponent(record.fileName), source: .installed(record))) != nil
        else { return false }
        try FileManager.default.createDirectory(at: restored, withIntermediateDirectories: true)
        let target = try ConferenceStateDatabase.onDisk(at: restored.appendingPathComponent(ConferenceStateDatabase.fileName))
        if try await target.installed()?.fileName == record.fileName { return false }
        try await target.adoptInstalled(record)
        return true
    }
}
