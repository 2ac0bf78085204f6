import Conference
import Foundation
import Logging
import PocketCore

/// The Conference database's updates as the web front end runs them: the manifest check (at start-up
/// and on request), one install at a time (a download, or an uploaded file) running independently of
/// the request that started it, and the outcome of the last one for every page to show.
actor ConferenceUpdates {
    /// Where what is too long for the page (a damaged database's report) is written.
    private static let logger = Logger(label: "pocket.conference")

    /// What is being installed.
    enum Job: Sendable, Equatable {
        case download
        case importing(String)
    }

    /// How the last install ended.
    enum Outcome: Sendable, Equatable {
        case succeeded(String)
        case failed(String)
    }

    /// Everything a page shows about updates.
    struct Snapshot: Sendable {
        let manifestURL: URL
        let manifest: SCIManifest?
        let checkProblem: String?
        let checkedAt: Date?
        /// Whether a manifest check is under way (at start-up it can take the fetch's whole timeout).
        let isChecking: Bool
        let installed: InstalledDatabase?
        let job: Job?
        let progress: InstallProgress
        let outcome: Outcome?
        /// How many installs and manifest checks have ended; a page rendered at an older count has missed one.
        let revision: Int

        /// The event stream a page rendered now listens to while a manifest check runs, so it
        /// re-renders when the check ends; nil when none runs.
        var checkEvents: String? {
            isChecking ? ConferenceRoute.events.href() + "?since=\(revision)" : nil
        }

        /// The download on offer: the manifest names a database other than the one installed.
        var offer: UpdateOffer? {
            guard let manifest, installed?.matches(manifest) != true else { return nil }
            return UpdateOffer(manifest)
        }
    }

    /// Refused because another install is running.
    struct Busy: Error {}

    /// The largest database file accepted as an upload.
    static let uploadLimit: Int64 = 1 << 30

    nonisolated let library: ConferenceLibrary
    nonisolated let installer: DatabaseInstaller
    nonisolated let manifestURL: URL
    nonisolated let autoUpdate: Bool
    /// Told whenever an install or a manifest check ends, so open Settings pages re-render with the
    /// new database, the failure, or what the check found.
    nonisolated let finished = Broadcaster<Void>(buffer: 4)
    /// Uploaded files wait here while they are imported (outside `incoming`, which the installer empties).
    nonisolated let uploadsFolder: URL

    private let fetcher: any HTTPFetching
    private var manifest: SCIManifest?
    private var checkProblem: String?
    private var checkedAt: Date?
    /// Checks under way (the start-up one and the owner's may overlap).
    private var checksRunning = 0
    private var job: Job?
    private var task: Task<Void, Never>?
    private var outcome: Outcome?
    private var revision = 0

    /// Creates the update centre for `library`; leftover uploads from an earlier run are removed.
    init(library: ConferenceLibrary, installer: DatabaseInstaller, manifestURL: URL, autoUpdate: Bool,
         fetcher: any HTTPFetching = LiveHTTPFetcher()) {
        self.library = library
        self.installer = installer
        self.manifestURL = manifestURL
        self.autoUpdate = autoUpdate
        self.fetcher = fetcher
        uploadsFolder = library.folder.appendingPathComponent("uploads", isDirectory: true)
        try? FileManager.default.removeItem(at: uploadsFolder)
    }

    // MARK: Checking

    /// Fetches the manifest; a failure is kept as a message (`checkProblem`), never thrown.
    @discardableResult
    func check() async -> SCIManifest? {
        checksRunning += 1
        do {
            let resource = try await fetcher.fetch(manifestURL, maxBytes: 64 * 1024, timeout: .seconds(15))
            let parsed = try SCIManifest.parse(resource.data)
            manifest = parsed
            checkProblem = nil
        } catch let error as ConferenceError {
            checkProblem = error.description
        } catch let error as FetchError {
            checkProblem = ConferenceError(manifestFetch: error).description
        } catch {
            checkProblem = "The database manifest could not be fetched: \(error)"
        }
        checkedAt = Date()
        checksRunning -= 1
        revision += 1
        await finished.publish(())
        return checkProblem == nil ? manifest : nil
    }

    /// The start-up check: quiet when offline; with `autoUpdate`, installs what it offers.
    func startupCheck(logger: Logger) async {
        guard await check() != nil else {
            logger.debug("Conference: no update check (\(checkProblem ?? "unknown problem"))")
            return
        }
        guard let offer = await snapshot().offer else { return }
        logger.info("Conference: database version \(offer.version) is available (\(ConferenceFormat.bytes(offer.downloadSize)))")
        if autoUpdate {
            startDownload()
            await task?.value
            if case .failed(let message)? = outcome { logger.warning("Conference: automatic update failed: \(message)") }
        }
    }

    // MARK: Installing

    /// Starts downloading the database the manifest names; while an install runs, this joins it.
    func startDownload() {
        guard job == nil else { return }
        let installer = installer, url = manifestURL
        begin(.download) {
            switch try await installer.update(manifestURL: url) {
            case .alreadyInstalled(let record): return "Version \(record.version) is already installed."
            case .installed(let record): return "Installed version \(record.version)."
            }
        }
    }

    /// Starts importing an uploaded file (then deletes it); refused while another install runs.
    func startImport(_ file: URL, name: String) throws(Busy) {
        guard job == nil else { throw Busy() }
        let installer = installer
        begin(.importing(name)) {
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            _ = try await installer.importDatabase(at: file)
            return "Imported \(name)."
        }
    }

    /// Stops a running install (its temporary files go, the previous database stays) and waits for it.
    func shutdown() async {
        await installer.cancel()
        await task?.value
    }

    /// Waits for the running install, if any, to end.
    func waitUntilIdle() async {
        await task?.value
    }

    /// What the pages show.
    func snapshot() async -> Snapshot {
        // Read this actor's own state before the awaits: an install may end while they wait, and a
        // page must then carry the older revision, so its event stream sends the reload it needs.
        // (Read after, the new revision beside the old database left the page stale for good.)
        let revision = revision, job = job, outcome = outcome, isChecking = checksRunning > 0
        let installed = await library.installedDatabase()
        let progress = await installer.latest
        return Snapshot(manifestURL: manifestURL, manifest: manifest, checkProblem: checkProblem, checkedAt: checkedAt, isChecking: isChecking,
                        installed: installed, job: job, progress: progress, outcome: outcome, revision: revision)
    }

    /// Whether an install is running.
    var isRunning: Bool { job != nil }

    private func begin(_ job: Job, work: @escaping @Sendable () async throws -> String) {
        self.job = job
        outcome = nil
        task = Task {
            let result: Outcome
            do {
                result = .succeeded(try await work())
            } catch let error as ConferenceError {
                if let detail = error.logDetail { Self.logger.warning("Conference install failed: \(detail)") }
                result = .failed(error.description)
            } catch {
                result = .failed("The database could not be installed: \(error)")
            }
            await self.end(result)
        }
    }

    private func end(_ result: Outcome) async {
        job = nil
        task = nil
        outcome = result
        revision += 1
        await finished.publish(())
    }
}

private extension ConferenceError {
    /// The installer's wording for a manifest that could not be fetched.
    init(manifestFetch error: FetchError) {
        switch error {
        case .tooLarge: self = .invalidManifest("it is too large to be a manifest")
        default: self = .manifestUnavailable(error.description)
        }
    }
}
