import Foundation
import PocketCore

/// Keeps plate pictures on disk so a state's page shows its plate even offline, and so the
/// browser only ever loads them from Pocket (the originals are plain HTTP on another host).
public actor PlateImageCache {
    /// A picture ready to serve.
    public struct Image: Sendable, Equatable {
        /// The bytes.
        public let data: Data
        /// Its MIME type.
        public let contentType: String
    }

    private let folder: URL
    private let fetcher: any HTTPFetching
    private let base: URL?
    private var failures: [String: (Date, String)] = [:]
    private var inFlight: [String: Task<Image?, Never>] = [:]
    private let retryAfter: TimeInterval
    private let patience: Duration

    /// Caches below `folder`; `base`, when set, replaces the scheme, host and port of every
    /// image URL (a mirror, or a fixture server in tests). `patience` is how long a page waits
    /// for a download before it renders without the picture.
    public init(folder: URL, fetcher: any HTTPFetching, base: URL? = nil, retryAfter: TimeInterval = 300, patience: Duration = .seconds(3)) {
        self.folder = folder
        self.fetcher = fetcher
        self.base = base
        self.retryAfter = retryAfter
        self.patience = patience
    }

    /// The cached picture, fetching it first if needed; nil when it cannot be had right now.
    ///
    /// A page waits at most the cache's patience for a download: after that it renders without the
    /// picture while the download carries on, so a slow or dead host never holds a screen for long.
    public func image(for state: USState) async -> Image? {
        if let cached = cached(state) { return cached }
        if let (when, _) = failures[state.code], Date().timeIntervalSince(when) < retryAfter { return nil }
        let task = inFlight[state.code] ?? startDownload(state)
        return await withTaskGroup(of: Image?.self) { group in
            group.addTask { await task.value }
            group.addTask { [patience] in
                try? await Task.sleep(for: patience)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// The picture if it is on disk; otherwise nil at once, with a download started in the background
    /// (unless one is under way or the last one failed recently). For pages: a slow or unreachable
    /// host must never hold a screen, not even for the cache's patience, visit after visit.
    public func imageIfCached(_ state: USState) -> Image? {
        if let cached = cached(state) { return cached }
        if let (when, _) = failures[state.code], Date().timeIntervalSince(when) < retryAfter { return nil }
        if inFlight[state.code] == nil {
            _ = startDownload(state)
        }
        return nil
    }

    /// Whether a download for this state is still under way.
    public func isDownloading(_ state: USState) -> Bool {
        inFlight[state.code] != nil
    }

    private func startDownload(_ state: USState) -> Task<Image?, Never> {
        let task = Task { await self.download(state) }
        inFlight[state.code] = task
        Task {
            _ = await task.value
            self.finished(state.code)
        }
        return task
    }

    private func finished(_ code: String) {
        inFlight[code] = nil
    }

    /// Why the last attempt failed, for the page's message.
    public func lastFailure(for state: USState) -> String? {
        failures[state.code]?.1
    }

    /// The picture if it is already on disk.
    public func cached(_ state: USState) -> Image? {
        for (suffix, type) in Self.kinds {
            let file = folder.appendingPathComponent("\(state.code).\(suffix)")
            if let data = try? Data(contentsOf: file), !data.isEmpty { return Image(data: data, contentType: type) }
        }
        return nil
    }

    /// The host pictures are fetched from: the mirror's when one is set, else the data's own.
    public nonisolated func sourceHost(for state: USState) -> String? {
        sourceURL(for: state).host
    }

    /// The URL actually fetched for a state.
    public nonisolated func sourceURL(for state: USState) -> URL {
        guard let base, var parts = URLComponents(url: state.plateImageURL, resolvingAgainstBaseURL: false) else {
            return state.plateImageURL
        }
        parts.scheme = base.scheme
        parts.host = base.host
        parts.port = base.port
        return parts.url ?? state.plateImageURL
    }

    private static let kinds: [(String, String)] = [("jpg", "image/jpeg"), ("png", "image/png"), ("gif", "image/gif"), ("webp", "image/webp")]

    private func download(_ state: USState) async -> Image? {
        do {
            let resource = try await fetcher.fetch(sourceURL(for: state), maxBytes: 4 << 20, timeout: .seconds(8))
            guard let kind = Self.kinds.first(where: { $0.1 == resource.contentType }) ?? Self.sniff(resource.data) else {
                failures[state.code] = (Date(), "the server sent something that is not a picture")
                return nil
            }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // Write then rename, so a killed process never leaves half a picture to serve.
            let final = folder.appendingPathComponent("\(state.code).\(kind.0)")
            let temporary = folder.appendingPathComponent(".\(state.code).\(UUID().uuidString).part")
            try resource.data.write(to: temporary)
            _ = try? FileManager.default.removeItem(at: final)
            try FileManager.default.moveItem(at: temporary, to: final)
            failures[state.code] = nil
            return Image(data: resource.data, contentType: kind.1)
        } catch let error as FetchError {
            failures[state.code] = (Date(), error.description)
        } catch {
            failures[state.code] = (Date(), "it could not be saved (\(error.localizedDescription))")
        }
        return nil
    }

    /// Recognises JPEG and PNG by their first bytes when the server's Content-Type is vague.
    private static func sniff(_ data: Data) -> (String, String)? {
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return ("jpg", "image/jpeg") }
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return ("png", "image/png") }
        return nil
    }
}
