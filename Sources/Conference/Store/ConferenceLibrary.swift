import Foundation
import GRDB
import PocketCore

/// The live Conference store: the sci-core database in use (the installed one, else the sample),
/// switched atomically when a new one is installed.
///
/// Files, all inside `folder` (`<data>/conference`):
/// - `state.sqlite` — Pocket's own database (install record, search index, the installed file's digest of
///   counts and orderings, each person's recent and bookmarked talks);
/// - `databases/` — the sample (`sample-2025.vN.db`) and the installed file (`core.<version>.<id>.db`);
/// - `incoming/` — the installer's temporary files, empty whenever no install is running but for
///   a download that broke off, which the next install resumes;
/// - `install.lock`, `installer.lock` — see `InstallLock`: nothing in `databases/` or `incoming/` is
///   deleted but under it.
///
/// The Conference app's read side is one method per screen (`ConferenceLibrary+Screens.swift`).
/// Every method works on both schema eras; features the open database lacks throw
/// `ConferenceError.citationsUnavailable` or return empty lists, and `status().capabilities` says
/// which to hide.
public actor ConferenceLibrary: HealthChecked {
    /// The Conference app's folder in the data directory.
    public nonisolated let folder: URL
    /// Where the installer keeps downloads and extractions in progress.
    public nonisolated let incomingFolder: URL
    /// Where the sample and the installed file are.
    let databasesFolder: URL
    let state: ConferenceStateDatabase
    /// The file answering; nil until a screen first asks, when the sample is loaded on demand.
    private var current: CoreGeneration?
    private(set) var warning: String?
    /// The digest of each file in use, by file name, found or being built (see `digest(for:)`).
    var digests: [String: Task<Int64?, Never>] = [:]
    /// The search index builds under way, by file name (see `prepareSearch(for:)`).
    var searchBuilds: [String: Task<Void, any Error>] = [:]
    /// Whether the search index is built as soon as an install ends, or when a search first asks.
    let readiness: SampleLoading
    /// Which of the screens' caches keep (all but in the page benchmark): the screens' answers and the digest.
    let caches: Caches

    /// When `open` makes the built-in sample ready, if no database is installed, and when the
    /// search index of a file is built.
    public enum SampleLoading: Sendable {
        /// At once, with its search index and digest, so the first screen answers without waiting;
        /// an installed file's search index is built as soon as its install ends.
        case atOnce
        /// When a screen first asks: for a command about to install a database, which would only
        /// throw the sample's work away (and whose process ends with the install).
        case whenNeeded
    }

    /// Opens the library in the data directory's `conference` folder; `caches` is for the page
    /// benchmark, which can pass the screens' answers, the digest or the state's memo through.
    public static func open(dataDirectory: DataDirectory, sample: SampleLoading = .atOnce, caches: Caches = .all) async throws -> ConferenceLibrary {
        try await open(folder: dataDirectory.folder(folderName), sample: sample, caches: caches)
    }

    /// The library's folder in the data directory.
    public static let folderName = "conference"
    /// The household's bookmarks and recent talks, by path in the data directory.
    public static let statePath = "\(folderName)/\(ConferenceStateDatabase.fileName)"

    /// Opens the library in `folder`: the installed database if it is still usable, else the
    /// sample (built on first use, now or when first needed). Opened `atOnce`, the search index is
    /// rebuilt when it describes another file, the digest is built when the file has none, and
    /// what interrupted installs left is removed unless an install is running.
    public static func open(folder: URL, sample: SampleLoading = .atOnce, caches: Caches = .all) async throws -> ConferenceLibrary {
        let databases = folder.appendingPathComponent("databases", isDirectory: true)
        let incoming = folder.appendingPathComponent("incoming", isDirectory: true)
        do {
            for directory in [folder, databases, incoming] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
        } catch {
            throw ConferenceError.fileSystem("cannot create \(folder.path): \(error.localizedDescription)")
        }
        let state = try ConferenceStateDatabase.onDisk(at: folder.appendingPathComponent(ConferenceStateDatabase.fileName), caches: caches)

        var generation: CoreGeneration?
        var warning: String?
        let record = try await state.installed()
        if let record {
            do {
                generation = try await openRecorded(record, state: state, in: databases)
            } catch {
                warning = "The installed database (version \(record.version)) could not be opened, so the sample is in use: \(describe(error))"
            }
        }
        // An unusable installed file needs the sample now, to clear its record (below).
        if generation == nil, sample == .atOnce || record != nil {
            // Building the sample takes a moment: keep it off the cooperative threads.
            generation = try await runBlocking { try sampleGeneration(in: databases, scratch: incoming) }
        }
        if let opened = generation {
            if opened.source.isSample, let record {
                // The installed file is gone or unreadable: forget it, so status and skip checks tell the truth.
                try await state.forgetInstalled(fileName: record.fileName)
            }
            // Not fatal: a file an install in another process has just replaced and deleted can no longer
            // be attached, and the first search builds the index of the file then current, as after any install.
            if sample == .atOnce { try? await state.buildSearch(for: opened) }
        }
        let library = ConferenceLibrary(folder: folder, databases: databases, incoming: incoming, state: state, current: generation,
                                        warning: warning, readiness: sample, caches: caches)
        if sample == .atOnce {
            // The digest is ready before the first screen asks (built now for a file installed before digests existed).
            if let generation { _ = await library.digest(for: generation) }
            // Not for a command about to install: its install does this under the lock it holds anyway.
            await library.removeLeftoversUnlessInstalling()
        }
        return library
    }

    private init(folder: URL, databases: URL, incoming: URL, state: ConferenceStateDatabase, current: CoreGeneration?, warning: String?,
                 readiness: SampleLoading, caches: Caches) {
        self.folder = folder
        self.readiness = readiness
        self.caches = caches
        self.databasesFolder = databases
        self.incomingFolder = incoming
        self.state = state
        self.current = current
        self.warning = warning
    }

    // MARK: Following other processes

    /// The generation to answer with: the current one, unless another Pocket process (the CLI
    /// beside the server, say) has installed a database since. One small read of Pocket's own
    /// database per query keeps every process on the file the install record names.
    func generation() async throws -> CoreGeneration {
        let record = try await state.installed()
        if let current, record?.fileName == currentRecord?.fileName { return current }
        let next: CoreGeneration
        do {
            if let record {
                next = try await Self.openRecorded(record, state: state, in: databasesFolder)
            } else {
                let databases = databasesFolder, scratch = incomingFolder
                // Its search index is built when a search first asks, as for any file made current.
                next = try await runBlocking { try Self.sampleGeneration(in: databases, scratch: scratch) }
            }
        } catch {
            // Keep answering from the file in use; its own connections still work.
            guard let current else { throw error }
            return current
        }
        // The record may have changed again while the file was being opened.
        if let current, try await state.installed()?.fileName != next.source.record?.fileName { return current }
        let previous = current
        current = next
        warning = nil
        digests = digests.filter { $0.key == next.file.lastPathComponent }
        if let previous, !previous.source.isSample, previous.file != next.file { previous.retire() }
        return next
    }

    // MARK: Health

    /// Whether Pocket's own Conference database and the sci-core file in use can be read.
    public func checkHealth() async throws {
        try await state.writer.checkSchemaReadable()
        try await generation().pool.checkSchemaReadable()
    }

    // MARK: Installing

    /// The installed database's record, nil while the sample is in use (following an install
    /// made by another Pocket process).
    public func installedDatabase() async -> InstalledDatabase? {
        // Nothing loaded yet (the sample is loaded on demand): the record says, without loading it.
        guard current != nil else { return try? await state.installed() }
        _ = try? await generation()
        return currentRecord
    }

    private var currentRecord: InstalledDatabase? {
        current?.source.record
    }

    /// Builds the digest of `candidate`, a database still being checked, beside the current one
    /// (see `ConferenceStateDatabase.stage`): the installer runs this alongside `quick_check`, both
    /// only reading the file.
    func stage(_ candidate: URL) async throws {
        let schema = try Self.schema(of: candidate)
        try await state.stage(from: candidate, schema: schema)
    }

    /// Drops a staged digest after a failed check or install.
    func discardStaged() async {
        try? await state.discardStaged()
    }

    /// Moves a verified database into place and makes it current: a rename within the data
    /// folder, then one transaction records it and swaps in the digest `stage` built, then the
    /// store switches to it. Queries already running finish on the previous file, which is deleted
    /// when they are done. If any step fails, the previous database stays current and the new file
    /// is removed. The search index follows: built now in the background when the library was
    /// opened `atOnce` (a server), else by the first search (see `prepareSearch(for:)`).
    func install(_ candidate: URL, version: String, contentName: String, contentSize: Int64, contentMD5: String,
                 origin: InstallOrigin) async throws(ConferenceError) -> InstalledDatabase {
        let fileName = "core.\(version).\(UUID().uuidString.prefix(8).lowercased()).db"
        let destination = databasesFolder.appendingPathComponent(fileName)
        let record = InstalledDatabase(version: version, contentName: contentName, contentSize: contentSize, contentMD5: contentMD5,
                                       origin: origin, installedAt: Date(), fileName: fileName)
        do {
            try FileManager.default.moveItem(at: candidate, to: destination)
        } catch {
            throw .fileSystem("cannot move the new database into place: \(error.localizedDescription)")
        }
        do {
            let generation = try CoreGeneration(file: destination, source: .installed(record))
            let digest = try await state.install(record)
            let previous = current
            current = generation
            warning = nil
            digests = [fileName: Task { digest }]
            // A query may have switched to this file already (see `generation()`): never retire it.
            if let previous, !previous.source.isSample, previous.file != generation.file { previous.retire() }
            if readiness == .atOnce { Task { try? await self.prepareSearch(for: generation) } }
            return record
        } catch {
            try? FileManager.default.removeItem(at: destination)
            throw error as? ConferenceError ?? .fileSystem(Self.describe(error))
        }
    }
}

// MARK: - Private

private extension ConferenceLibrary {
    /// Opens the file `record` names. When that fails, reads the record once more before giving
    /// up: an install in another process may have recorded a new file, and deleted this one, since.
    static func openRecorded(_ record: InstalledDatabase, state: ConferenceStateDatabase, in databases: URL) async throws -> CoreGeneration {
        do {
            return try CoreGeneration(file: databases.appendingPathComponent(record.fileName), source: .installed(record))
        } catch {
            guard let newer = try await state.installed(), newer.fileName != record.fileName else { throw error }
            return try CoreGeneration(file: databases.appendingPathComponent(newer.fileName), source: .installed(newer))
        }
    }

    /// Opens the sample, building it first when it is missing or unreadable.
    static func sampleGeneration(in databases: URL, scratch: URL) throws -> CoreGeneration {
        let file = databases.appendingPathComponent(SampleDatabase.fileName)
        if FileManager.default.fileExists(atPath: file.path), let generation = try? CoreGeneration(file: file, source: .sample) {
            return generation
        }
        let building = scratch.appendingPathComponent("sample-\(UUID().uuidString).db")
        defer { try? FileManager.default.removeItem(at: building) }
        do {
            try SampleDatabase.build(at: building)
            if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
            try FileManager.default.moveItem(at: building, to: file)
        } catch {
            // Another process starting at the same moment may have saved it first (and, tidying up, removed this build).
            if let generation = try? CoreGeneration(file: file, source: .sample) { return generation }
            throw error as? ConferenceError ?? .fileSystem("cannot save the sample database: \(describe(error))")
        }
        return try CoreGeneration(file: file, source: .sample)
    }

    /// The tables and columns of a sci-core file, read through a connection of its own.
    static func schema(of file: URL) throws -> CoreSchema {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "conference-candidate"
        let queue = try DatabaseQueue(path: file.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in try CoreSchema.detect(db) }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? ConferenceError { return error.description }
        if let error = error as? DatabaseError { return error.message ?? error.description }
        return error.localizedDescription
    }
}
