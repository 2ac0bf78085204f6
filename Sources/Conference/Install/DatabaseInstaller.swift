import Foundation
import PocketCore

/// What an install run did.
public enum InstallOutcome: Sendable, Equatable {
    /// The manifest describes the database already installed; nothing was downloaded.
    case alreadyInstalled(InstalledDatabase)
    /// A new database is now current.
    case installed(InstalledDatabase)

    /// The database in use afterwards.
    public var database: InstalledDatabase {
        switch self {
        case .alreadyInstalled(let record), .installed(let record): return record
        }
    }
}

/// Installs sci-core databases: from the manifest (download, verify, extract, check, swap) or from
/// a file. One install runs at a time; asking again while one runs attaches to it. Progress goes
/// to `progress` subscribers (a web page, the CLI) and is readable as `latest`.
///
/// Every failure leaves the previous database serving and removes the temporary files, except a
/// download that broke off, which the next run resumes.
public actor DatabaseInstaller {
    /// Download the zip and extract it (the default), or download the database itself.
    public enum DownloadMode: String, Sendable, CaseIterable {
        /// `download-name`, checked against `download-size`/`download-md5`, then unzipped.
        case zip
        /// `content-name` directly, checked against `content-size`/`content-md5`.
        case uncompressed
    }

    /// Limits and timings.
    public struct Settings: Sendable {
        /// How long the manifest request may take.
        public var manifestTimeout: Duration
        /// The largest manifest accepted.
        public var maximumManifestBytes: Int
        /// Retries and timeouts for the file download (its size and validator are set per run).
        public var download: DownloadOptions
        /// The shortest gap between two published byte counts.
        public var progressInterval: Duration
        /// Where the free space on the data folder's volume is read before anything is written.
        public var freeSpace: FreeSpaceProbe

        /// Creates settings.
        public init(manifestTimeout: Duration = .seconds(30), maximumManifestBytes: Int = 64 * 1024,
                    download: DownloadOptions = DownloadOptions(), progressInterval: Duration = .milliseconds(100),
                    freeSpace: FreeSpaceProbe = .system) {
            self.manifestTimeout = manifestTimeout
            self.maximumManifestBytes = maximumManifestBytes
            self.download = download
            self.progressInterval = progressInterval
            self.freeSpace = freeSpace
        }
    }

    /// Every progress value, for anyone following the install.
    public nonisolated let progress = Broadcaster<InstallProgress>(buffer: 64)
    /// The most recent progress value (what a page opened mid-install shows first).
    public private(set) var latest = InstallProgress.idle

    let library: ConferenceLibrary
    let fetcher: any HTTPFetching
    let downloader: StreamingDownloader
    let settings: Settings
    private var running: Task<InstallOutcome, any Error>?
    private var removals: [Task<Void, Never>] = []
    private var meter = TransferRateMeter()
    private var lastPublished: ContinuousClock.Instant?

    /// Creates an installer for `library`, fetching over HTTP with the given clients.
    public init(library: ConferenceLibrary, fetcher: any HTTPFetching = LiveHTTPFetcher(),
                downloader: StreamingDownloader = StreamingDownloader(), settings: Settings = Settings()) {
        self.library = library
        self.fetcher = fetcher
        self.downloader = downloader
        self.settings = settings
    }

    /// Installs the database the manifest at `manifestURL` describes, unless it is installed
    /// already (then the whole run is one small request). Attaches to an update already running.
    public func update(manifestURL: URL, mode: DownloadMode = .zip) async throws(ConferenceError) -> InstallOutcome {
        if let running { return try await Self.outcome(of: running) }
        return try await track(Task { try await self.performUpdate(manifestURL: manifestURL, mode: mode) })
    }

    /// Installs a database file from disk with the same checks and swap (the file is copied, not moved).
    public func importDatabase(at file: URL) async throws(ConferenceError) -> InstallOutcome {
        while let running {
            _ = try? await Self.outcome(of: running)
            if self.running == running { self.running = nil }
        }
        return try await track(Task { try await self.performImport(file) })
    }

    /// Stops the running install, if any; its temporary files are removed.
    public func cancel() {
        running?.cancel()
    }

    /// Whether an install is running.
    public var isRunning: Bool {
        running != nil
    }
}

// MARK: - Running

extension DatabaseInstaller {
    func track(_ task: Task<InstallOutcome, any Error>) async throws(ConferenceError) -> InstallOutcome {
        running = task
        defer { if running == task { running = nil } }
        return try await Self.outcome(of: task)
    }

    /// Deletes files off the install's path; `finishRemovals` waits for them.
    func removeInBackground(_ files: [URL]) {
        removals.append(Task.detached(priority: .utility) {
            for file in files { try? FileManager.default.removeItem(at: file) }
        })
    }

    /// Waits for the deletions `removeInBackground` started, so no install ends with files still going.
    func finishRemovals() async {
        while let removal = removals.popLast() { await removal.value }
    }

    static func outcome(of task: Task<InstallOutcome, any Error>) async throws(ConferenceError) -> InstallOutcome {
        switch await task.result {
        case .success(let outcome): return outcome
        case .failure(let error): throw conferenceError(error)
        }
    }

    func performUpdate(manifestURL: URL, mode: DownloadMode) async throws -> InstallOutcome {
        meter = TransferRateMeter()
        let lock = try await lockOut()
        defer { lock.release() }
        await library.removeLeftovers(holding: lock)
        do {
            await report(InstallProgress(phase: .checkingManifest))
            let manifest = try await fetchManifest(manifestURL)
            if let installed = await library.installedDatabase(), installed.matches(manifest) {
                library.cleanIncoming()
                await report(InstallProgress(phase: .done, version: manifest.version, message: "Version \(manifest.version) is already installed"))
                return .alreadyInstalled(installed)
            }
            // A partial download and other leftovers in `incoming` are reused or deleted first, so their room counts as free.
            try DiskSpace.check(DiskSpace.peakBytes(manifest, mode: mode), reclaimable: DiskSpace.bytes(in: library.incomingFolder),
                                in: library.incomingFolder, probe: settings.freeSpace)
            let candidate: URL
            switch mode {
            case .zip:
                let zip = try await download(manifest.downloadName, size: manifest.downloadSize, md5: manifest.downloadMD5,
                                             manifestURL: manifestURL, manifest: manifest, unzipping: true)
                candidate = try await extract(zip.file, manifest: manifest, follower: zip.follower)
            case .uncompressed:
                candidate = try await download(manifest.contentName, size: manifest.contentSize, md5: manifest.contentMD5,
                                               manifestURL: manifestURL, manifest: manifest).file
            }
            let record = try await checkAndInstall(candidate, version: manifest.version, contentName: manifest.contentName,
                                                   size: manifest.contentSize, md5: manifest.contentMD5, origin: .download)
            await finishRemovals()
            await report(InstallProgress(phase: .done, version: record.version, message: "Installed version \(record.version)"))
            return .installed(record)
        } catch {
            throw await fail(error)
        }
    }

    func performImport(_ file: URL) async throws -> InstallOutcome {
        meter = TransferRateMeter()
        let lock = try await lockOut()
        defer { lock.release() }
        await library.removeLeftovers(holding: lock)
        do {
            library.cleanIncoming()
            let copy = library.incomingFolder.appendingPathComponent("import-\(UUID().uuidString).db")
            let total = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)??.int64Value
            if let total { try DiskSpace.check(total, in: library.incomingFolder, probe: settings.freeSpace) }
            await report(InstallProgress(phase: .verifying, totalBytes: total))
            let copied = try await copyHashing(file, to: copy, total: total)
            let record = try await checkAndInstall(copy, version: "imported", contentName: file.lastPathComponent,
                                                   size: copied.byteCount, md5: copied.md5, origin: .import)
            await report(InstallProgress(phase: .done, version: record.version, message: "Imported \(file.lastPathComponent)"))
            return .installed(record)
        } catch {
            throw await fail(error)
        }
    }

    /// Takes the cross-process install lock. Failing here touches nothing: the temporary files
    /// belong to the process that holds the lock.
    func lockOut() async throws -> InstallLock {
        do {
            return try await InstallLock.acquire(in: library.folder)
        } catch {
            await report(InstallProgress(phase: .failed(error.description)))
            throw error
        }
    }

    /// Cleans up after a failure and says why, once. A download that broke off (the connection
    /// dropped, the server stalled) is kept, so the next run resumes it with `Range`.
    func fail(_ error: any Error) async -> ConferenceError {
        let failure = Self.conferenceError(error)
        await finishRemovals()
        await library.discardStaged()
        if case .downloadFailed = failure {
            library.cleanIncoming(keeping: library.resumableDownloads())
        } else {
            library.cleanIncoming()
        }
        await report(InstallProgress(phase: .failed(failure.description), version: latest.version))
        return failure
    }

    func checkAndInstall(_ candidate: URL, version: String, contentName: String, size: Int64, md5: String,
                         origin: InstallOrigin) async throws -> InstalledDatabase {
        await report(InstallProgress(phase: .checkingDatabase, version: latest.version))
        // The digest is built while quick_check reads the same file, so on two cores the check
        // costs the install little. Its verdict comes first, so a damaged file is reported as
        // damaged, whatever the digest build made of it. The search index is built once the file
        // is current (`ConferenceLibrary.prepareSearch`), off this path.
        let library = library
        let staging = Task { try await library.stage(candidate) }
        do {
            _ = try await DatabaseVerifier.verify(candidate)
        } catch {
            _ = await staging.result
            throw error
        }
        try await staging.value
        // Three threads checked and digested the file: give back what their arenas keep.
        ProcessMemory.releaseFreedMemory()
        // Last chance to cancel: once the swap starts it runs to the end.
        if Task.isCancelled { throw ConferenceError.cancelled }
        await report(InstallProgress(phase: .installing, version: latest.version))
        let record = try await library.install(candidate, version: version, contentName: contentName,
                                               contentSize: size, contentMD5: md5, origin: origin)
        library.cleanIncoming()
        return record
    }

    func fetchManifest(_ url: URL) async throws -> SCIManifest {
        let resource: FetchedResource
        do {
            resource = try await fetcher.fetch(url, maxBytes: settings.maximumManifestBytes, timeout: settings.manifestTimeout)
        } catch {
            throw ConferenceError(manifest: error)
        }
        let manifest = try SCIManifest.parse(resource.data)
        latest.version = manifest.version
        return manifest
    }

    /// Reports a phase change (always published) or a new value in the same phase.
    func report(_ value: InstallProgress) async {
        let phaseChanged = value.phase != latest.phase
        latest = value
        let now = ContinuousClock.now
        if phaseChanged || value.bytesDone == value.totalBytes || lastPublished.map({ now - $0 >= settings.progressInterval }) ?? true {
            lastPublished = now
            await progress.publish(value)
        }
    }

    /// Reports bytes done in a transfer step, with the measured speed and time left.
    func reportBytes(_ phase: InstallProgress.Phase, done: Int64, total: Int64?) async {
        if phase != latest.phase { meter = TransferRateMeter() }
        let rate = meter.record(done, at: .now)
        var remaining: Double?
        if let rate, rate > 0, let total { remaining = Double(max(0, total - done)) / rate }
        await report(InstallProgress(phase: phase, bytesDone: done, totalBytes: total, bytesPerSecond: rate,
                               secondsRemaining: remaining, version: latest.version))
    }

    static func conferenceError(_ error: any Error) -> ConferenceError {
        switch error {
        case let error as ConferenceError: return error
        case let error as DownloadError: return ConferenceError(error)
        case is CancellationError: return .cancelled
        default: return .fileSystem(String(describing: error))
        }
    }
}

/// Runs blocking file work (unzipping, copying) off the cooperative thread pool.
func runBlocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async {
            continuation.resume(with: Result { try work() })
        }
    }
}
