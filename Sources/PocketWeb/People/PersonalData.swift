import Conference
import Converter
import Foundation
import Murals
import Plates
import PocketCore

/// A person's own data as one JSON file (Settings → Export My Data), which an owner can import
/// as a new or existing person on another Pocket. The schema is versioned: `version` changes
/// when a field changes meaning, and a Pocket refuses a version newer than it knows.
///
/// Each part is the app's own export type (`PlatesExport`, `MuralsExport`, `ConverterExport`,
/// `ConferenceExport`); a part is absent when that app is not served or holds nothing to say.
/// Times are whole milliseconds since 1970, as everywhere in Pocket's stores.
public struct PersonalData: Codable, Sendable, Equatable {
    /// What `format` always says, so any other JSON is refused at once.
    public static let formatName = "pocket-personal-data"
    /// The schema version this Pocket writes and the newest it reads.
    public static let currentVersion = 1
    /// The largest file an import reads.
    public static let sizeLimit: Int64 = 32 << 20

    /// Always `formatName`.
    public var format: String
    /// The schema's version.
    public var version: Int
    /// The Pocket that wrote the file.
    public var pocketVersion: String
    /// When it was written, milliseconds since 1970.
    public var exportedAt: Int64
    /// Whose data it is (their name on the Pocket that wrote it).
    public var person: String
    /// Games, trips, spots and settings.
    public var plates: PlatesExport?
    /// Starred and visited murals.
    public var murals: MuralsExport?
    /// The converter's remembered screen.
    public var converter: ConverterExport?
    /// Bookmarked and recently opened talks.
    public var conference: ConferenceExport?

    /// The file's bytes: sorted keys and indented, so two exports of the same data are the same text.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Reads a file, refusing with one line anything that is not a personal export this Pocket reads.
    public static func decode(_ data: Data) throws(PersonalDataError) -> PersonalData {
        struct Header: Decodable {
            let format: String?
            let version: Int?
        }
        guard let header = try? JSONDecoder().decode(Header.self, from: data), header.format == formatName else {
            throw .notAnExport
        }
        guard let version = header.version, version >= 1 else { throw .malformed("it has no version") }
        guard version <= currentVersion else { throw .newerVersion(version) }
        let document: PersonalData
        do {
            document = try JSONDecoder().decode(PersonalData.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw .malformed("\(path(context.codingPath + [key])) is missing")
        } catch let DecodingError.typeMismatch(_, context) {
            throw .malformed("\(path(context.codingPath)) is not what it should be")
        } catch let DecodingError.valueNotFound(_, context) {
            throw .malformed("\(path(context.codingPath)) is empty")
        } catch let DecodingError.dataCorrupted(context) {
            throw .malformed("\(path(context.codingPath)) cannot be read")
        } catch {
            throw .malformed("it cannot be read")
        }
        return document
    }

    /// Refuses, before any store writes (so a refusal changes nothing), any time the outbox's
    /// rule (`ChangeTime`) refuses: a time far ahead would win against everything the person does
    /// here afterwards, as a phone's change with such a time would. Names the first such item.
    func checkTimes(now: Date) throws(PersonalDataError) {
        var times: [(item: String, at: Int64)] = []
        if let plates {
            times += plates.changes.map { ("the Plates change “\($0.id.prefix(40))”", $0.at) }
            times += [plates.firstTripStartedAt].compactMap { $0 }.map { ("the first Plates trip’s start", $0) }
            for trip in plates.trips {
                times += [("a Plates trip’s start", trip.startedAt)] + [trip.endedAt].compactMap { $0 }.map { ("a Plates trip’s end", $0) }
                times += trip.spots.map { ("the Plates spot of “\($0.state.prefix(12))”", $0.spottedAt) }
            }
        }
        times += (murals?.stars ?? []).map { ("the star of mural \($0.muralID)", $0.addedAt) }
        times += (murals?.visits ?? []).map { ("the visit of mural \($0.muralID)", $0.visitedAt) }
        times += [converter?.savedAt].compactMap { $0 }.map { ("the converter’s screen", $0) }
        times += (conference?.bookmarks ?? []).map { ("the bookmark of talk \($0.talkID)", $0.addedAt) }
        times += (conference?.recentTalks ?? []).map { ("the view of talk \($0.talkID)", $0.viewedAt) }
        for (item, at) in times {
            do {
                try ChangeTime.check(at, now: now)
            } catch {
                throw .malformed("\(item): \(error.description)")
            }
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return text.isEmpty ? "the file" : String(text.drop { $0 == "." }.prefix(80))
    }
}

/// Why a personal export cannot be imported; one line each.
public enum PersonalDataError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not JSON, or JSON of something else.
    case notAnExport
    /// A personal export with a part that cannot be read.
    case malformed(String)
    /// Written by a newer Pocket.
    case newerVersion(Int)
    /// Larger than `PersonalData.sizeLimit`.
    case tooLarge
    /// An app's store refused a part.
    case refused(String)

    /// A one-line message.
    public var description: String {
        switch self {
        case .notAnExport: return "That file is not a Pocket personal data export (Settings → Export My Data makes one)."
        case .malformed(let detail): return "That export cannot be imported: \(detail). Nothing was changed."
        case .newerVersion(let version): return "That export was made by a newer Pocket (version \(version) of the format); upgrade this Pocket first. Nothing was changed."
        case .tooLarge: return "That file is larger than the \(PersonalData.sizeLimit >> 20) MB an export can be."
        case .refused(let detail): return "\(detail) Nothing was changed."
        }
    }
}

/// The stores holding each person's data, for exports and imports. Each is optional: a
/// Pocket (or a test) without an app simply has no part for it.
public struct PersonalDataStores: Sendable {
    /// Games and trips.
    public var plates: PlatesDatabase?
    /// Stars and visits (the store the Murals app serves: the demo's with `--demo`).
    public var murals: MuralsDatabase?
    /// Converter screens.
    public var converter: ConverterDatabase?
    /// Bookmarks and recent talks.
    public var conference: ConferenceLibrary?
    /// The Murals database this Pocket does not serve (the real one with `--demo`, the demo's
    /// without): a person's stars and visits from runs the other way are there, and a removal
    /// deletes them too.
    public var unservedMurals: URL?

    /// The stores to export from and import into.
    public init(plates: PlatesDatabase? = nil, murals: MuralsDatabase? = nil, converter: ConverterDatabase? = nil, conference: ConferenceLibrary? = nil,
                unservedMurals: URL? = nil) {
        self.plates = plates
        self.murals = murals
        self.converter = converter
        self.conference = conference
        self.unservedMurals = unservedMurals
    }

    /// `person`'s data from every store.
    public func export(for person: Person, now: Date = Date()) async throws -> PersonalData {
        PersonalData(
            format: PersonalData.formatName, version: PersonalData.currentVersion, pocketVersion: PocketVersion.current,
            exportedAt: ChangeTime.milliseconds(now), person: person.name,
            plates: try await plates?.game(for: person.id).exported(),
            murals: try await murals?.exported(for: person.id),
            converter: try await converter?.store(for: person.id).exported(),
            conference: try await conference?.exportedTalks(for: person.id)
        )
    }

    /// Deletes everything `person` keeps in each store, once they have been removed from Pocket
    /// (their devices are signed out with them, so nothing of theirs is written after). Each app's
    /// rows go in one transaction of its own.
    public func forget(_ person: PersonID) async throws {
        try await plates?.forget(person)
        try await murals?.forget(person)
        if let unservedMurals { try await Self.forgetMurals(person, at: unservedMurals) }
        try await converter?.forget(person)
        try await conference?.forget(person)
    }

    /// The same in the app databases of `dataDirectory` that exist, each opened for it: the
    /// command line removes a person beside a running Pocket or none. Both Murals databases, the
    /// demo's too, since either may hold the person's stars.
    public static func forget(_ person: PersonID, in dataDirectory: DataDirectory) async throws {
        let exists = { (url: URL) in FileManager.default.fileExists(atPath: url.path) }
        let plates = dataDirectory.file(AppDatabaseFile.plates)
        if exists(plates) { try await PlatesDatabase.onDisk(at: plates, catalog: try StateCatalog.bundled()).forget(person) }
        let converter = dataDirectory.file(AppDatabaseFile.converter)
        if exists(converter) { try await ConverterDatabase.onDisk(at: converter).forget(person) }
        for demo in [false, true] { try await forgetMurals(person, at: dataDirectory.file(muralsDatabaseFile(demo: demo))) }
        try await ConferenceLibrary.forget(person, in: dataDirectory)
    }

    /// Deletes `person`'s stars and visits in the Murals database at `file`, if there is one.
    private static func forgetMurals(_ person: PersonID, at file: URL) async throws {
        guard FileManager.default.fileExists(atPath: file.path) else { return }
        try await MuralsDatabase.onDisk(at: file).forget(person)
    }

    /// Adds `document`'s data to `person`'s, and only theirs: every store writes through the
    /// person it is given. Every time in it must pass the outbox's rule at `now` (`ChangeTime`). Plates goes first because it checks every change (and that `trips`
    /// is what they make) before writing any; the other parts are checked by their stores before
    /// their one transaction each. Stars of murals and bookmarks of talks this Pocket does not
    /// have are left out, and the report says which.
    @discardableResult
    public func importData(_ document: PersonalData, for person: PersonID, now: Date = Date()) async throws(PersonalDataError) -> PersonalDataImportReport {
        try document.checkTimes(now: now)
        var report = PersonalDataImportReport()
        do {
            if let part = document.plates, let plates { try await plates.game(for: person).importData(part) }
            if let part = document.murals, let murals { report.skippedStars = try await murals.importData(part, for: person) }
            if let part = document.converter, let converter { try await converter.store(for: person).importData(part) }
            if let part = document.conference, let conference { report.skippedBookmarks = try await conference.importTalks(part, for: person) }
            return report
        } catch let error as PlatesError {
            throw .refused(error.description)
        } catch let error as MuralsError {
            throw .refused(error.description)
        } catch let error as ConverterError {
            throw .refused(error.description)
        } catch let error as ConferenceImportError {
            throw .refused(error.description)
        } catch {
            throw .refused("The import failed: \(error).")
        }
    }
}

/// What an import left out, and the one line Settings shows for it.
public struct PersonalDataImportReport: Sendable, Equatable {
    /// Mural ids of stars left out: this Pocket has no such mural.
    public var skippedStars: [Int]
    /// Talk ids of bookmarks left out: the Conference database in use has no such talk.
    public var skippedBookmarks: [Int]

    /// A report of what was left out.
    public init(skippedStars: [Int] = [], skippedBookmarks: [Int] = []) {
        self.skippedStars = skippedStars
        self.skippedBookmarks = skippedBookmarks
    }

    /// The line shown once the import is done.
    public var notice: String {
        Self.notice(skippedStars: skippedStars.count, skippedBookmarks: skippedBookmarks.count)
    }

    /// "Imported.", or what was left out by count and why, in one line (counts only, so Settings
    /// can show it from its address).
    public static func notice(skippedStars: Int, skippedBookmarks: Int) -> String {
        var skipped: [String] = []
        if skippedStars == 1 { skipped.append("1 star of a mural this Pocket does not have") }
        if skippedStars > 1 { skipped.append("\(skippedStars) stars of murals this Pocket does not have") }
        if skippedBookmarks == 1 { skipped.append("1 bookmark of a talk its Conference database does not have") }
        if skippedBookmarks > 1 { skipped.append("\(skippedBookmarks) bookmarks of talks its Conference database does not have") }
        guard !skipped.isEmpty else { return "Imported." }
        return "Imported, except \(skipped.joined(separator: " and ")): import the file again once a Murals sync or Conference update brings them."
    }
}

/// What Settings offers beyond people: personal exports and imports, and the latest backup.
public struct HouseholdData: Sendable {
    /// The stores exports are read from and imports written to.
    public var personal: PersonalDataStores
    /// Where `pocket serve` keeps its daily backups; nil when it makes none.
    public var backups: BackupShelf?
    /// The daily backup's last failure, for Settings and `/healthz`; nil when it makes none.
    public var backupHealth: BackupHealth?

    /// Creates the household's data access.
    public init(personal: PersonalDataStores = PersonalDataStores(), backups: BackupShelf? = nil, backupHealth: BackupHealth? = nil) {
        self.personal = personal
        self.backups = backups
        self.backupHealth = backupHealth
    }
}
