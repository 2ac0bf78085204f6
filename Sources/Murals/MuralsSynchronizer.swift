import Foundation
import Logging
import PocketCore

/// Brings the saved murals up to date with the murals service, one sync at a time.
///
/// The first sync fetches everything; later ones ask only for records changed since the day
/// before the last successful sync (a day of overlap, so a change made while a sync ran is never
/// missed, and repeats are harmless because murals are upserted by id). A failure of any kind
/// is recorded and changes no mural.
public actor MuralsSynchronizer {
    /// The University of Liverpool's COMP228 murals service (`Settings.muralsURL`'s default).
    public static let defaultEndpoint: URL = {
        guard let url = Settings.muralsURL.defaultURL else {
            preconditionFailure("the default murals endpoint is a valid URL literal")
        }
        return url
    }()

    /// Where the service's mural pictures live (`<base>/<filename>`; `Settings.muralsImagesURL`'s default).
    public static let defaultImageBase: URL = {
        guard let url = Settings.muralsImagesURL.defaultURL else {
            preconditionFailure("the default murals image base is a valid URL literal")
        }
        return url
    }()

    /// The query parameter for incremental fetches.
    public static let lastModifiedParameter = "lastModified"

    private let store: MuralsDatabase
    private let fetcher: any HTTPFetching
    private let endpoint: URL
    private let now: @Sendable () -> Date
    private let timeout: Duration
    private let maxBytes: Int
    private let logger: Logger?
    private var running: Task<Result<MuralsSyncSummary, MuralsError>, Never>?

    /// Syncs `store` from `endpoint`; `timeout` and `maxBytes` bound one response, and skipped
    /// records are logged to `logger` when one is given.
    public init(
        store: MuralsDatabase,
        fetcher: any HTTPFetching,
        endpoint: URL,
        now: @escaping @Sendable () -> Date = Date.init,
        timeout: Duration = .seconds(20),
        maxBytes: Int = 32 << 20,
        logger: Logger? = nil
    ) {
        self.store = store
        self.fetcher = fetcher
        self.endpoint = endpoint
        self.now = now
        self.timeout = timeout
        self.maxBytes = maxBytes
        self.logger = logger
    }

    /// Syncs now, or waits for the sync already running and returns its outcome.
    public func sync() async throws(MuralsError) -> MuralsSyncSummary {
        let task: Task<Result<MuralsSyncSummary, MuralsError>, Never>
        if let running {
            task = running
        } else {
            task = Task { await self.performSync() }
            running = task
        }
        let result = await task.value
        if running == task { running = nil }
        return try result.get()
    }

    /// Whether a sync is under way.
    public var isSyncing: Bool {
        running != nil
    }

    /// The address asked for, given the last successful sync (nil for a full fetch).
    public nonisolated func requestURL(lastSuccess: Date?) -> URL {
        guard let lastSuccess, var parts = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else { return endpoint }
        var items = (parts.queryItems ?? []).filter { $0.name != Self.lastModifiedParameter }
        items.append(URLQueryItem(name: Self.lastModifiedParameter, value: Self.sinceDay(lastSuccess: lastSuccess)))
        parts.queryItems = items
        return parts.url ?? endpoint
    }

    /// `YYYY-MM-DD`: the UTC day before `lastSuccess`.
    public nonisolated static func sinceDay(lastSuccess: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let dayBefore = calendar.date(byAdding: .day, value: -1, to: lastSuccess) ?? lastSuccess.addingTimeInterval(-86_400)
        let parts = calendar.dateComponents([.year, .month, .day], from: dayBefore)
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }
}

// MARK: - Private

private extension MuralsSynchronizer {
    func performSync() async -> Result<MuralsSyncSummary, MuralsError> {
        let started = now()
        let state: MuralsSyncState
        do {
            state = try await store.syncState()
        } catch {
            return .failure(Self.storeError(error))
        }
        let url = requestURL(lastSuccess: state.lastSuccess)
        let wasIncremental = state.lastSuccess != nil
        do {
            let resource: FetchedResource
            do {
                resource = try await fetcher.fetch(url, maxBytes: maxBytes, timeout: timeout)
            } catch {
                throw MuralsError.serviceUnavailable(error)
            }
            let feed = try MuralFeed.decode(resource.data)
            for skipped in feed.skipped {
                logger?.warning("Skipped a mural record", metadata: [
                    "index": "\(skipped.index)", "id": "\(skipped.id ?? "none")", "reason": "\(skipped.reason)",
                ])
            }
            let summary: MuralsSyncSummary
            do {
                summary = try await store.apply(feed.murals, fetchedAt: started, wasIncremental: wasIncremental)
            } catch {
                throw Self.storeError(error)
            }
            logger?.debug("Synced murals", metadata: [
                "received": "\(summary.received)", "inserted": "\(summary.inserted)", "updated": "\(summary.updated)",
                "hidden": "\(summary.hidden)", "skipped": "\(feed.skipped.count)", "incremental": "\(wasIncremental)",
            ])
            return .success(summary.with(skipped: feed.skipped.count))
        } catch let error as MuralsError {
            logger?.debug("Murals sync failed", metadata: ["reason": "\(error.description)"])
            try? await store.recordSyncFailure(error.description, at: started)
            return .failure(error)
        } catch {
            return .failure(Self.storeError(error))
        }
    }

    static func storeError(_ error: any Error) -> MuralsError {
        if let error = error as? MuralsError { return error }
        return .storeFailed(String(describing: error))
    }
}
