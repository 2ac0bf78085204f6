import Foundation
import PocketCore

/// A mural picture ready to serve.
public struct CachedImage: Sendable, Equatable {
    /// The bytes.
    public let data: Data
    /// Its MIME type, always `image/…`.
    public let contentType: String

    /// Creates a picture.
    public init(data: Data, contentType: String) {
        self.data = data
        self.contentType = contentType
    }
}

/// Keeps mural pictures on disk, so a mural seen once still shows offline, within a size cap.
///
/// A picture is fetched once and then always served from disk (the service never changes a
/// file in place). Files are named by a hash of their URL, with the URL and content type kept
/// beside them; when the folder grows past the cap, the least recently used pictures go first.
public actor MuralImageCache {
    private let folder: URL
    private let fetcher: any HTTPFetching
    private let capacityBytes: Int
    private let timeout: Duration
    private let acceptsVectorPictures: Bool
    private var index: [String: Entry]?
    private var inFlight: [String: Task<Result<CachedImage, MuralsError>, Never>] = [:]
    private var clock = 0

    /// Caches below `folder` (created when needed), keeping at most `capacityBytes` of pictures.
    /// Only raster pictures are taken, unless `acceptsVectorPictures` (the demo service, whose
    /// SVG pictures Pocket draws itself).
    public init(folder: URL, fetcher: any HTTPFetching, capacityBytes: Int = 64 << 20, timeout: Duration = .seconds(15), acceptsVectorPictures: Bool = false) {
        self.folder = folder
        self.fetcher = fetcher
        self.capacityBytes = max(1, capacityBytes)
        self.timeout = timeout
        self.acceptsVectorPictures = acceptsVectorPictures
    }

    /// The picture at `url`: from disk when saved, otherwise fetched and saved.
    public func image(at url: URL) async throws(MuralsError) -> CachedImage {
        let key = Self.key(for: url)
        if let image = cached(key: key, url: url) { return image }
        let task: Task<Result<CachedImage, MuralsError>, Never>
        if let running = inFlight[key] {
            task = running
        } else {
            task = Task { await self.download(url, key: key) }
            inFlight[key] = task
        }
        let result = await task.value
        inFlight[key] = nil
        return try result.get()
    }

    /// The picture at `url` if it is already on disk (never fetches).
    public func cached(at url: URL) -> CachedImage? {
        cached(key: Self.key(for: url), url: url)
    }

    /// The size of the picture at `url` when it is saved (never fetches, never reads the picture),
    /// so the "Keep offline" list can say how much the phone will hold before it asks.
    public func savedSize(at url: URL) -> Int? {
        guard let entry = loadedIndex()[Self.key(for: url)], entry.url == url.absoluteString else { return nil }
        return entry.size
    }

    /// The bytes of pictures kept now.
    public func totalBytes() -> Int {
        loadedIndex().values.reduce(0) { $0 + $1.size }
    }
}

// MARK: - Private

private extension MuralImageCache {
    struct Entry {
        let url: String
        let contentType: String
        let size: Int
        var lastUse: Int
        var modified: Date
    }

    /// What is written beside each picture.
    struct Metadata: Codable {
        let url: String
        let contentType: String
    }

    /// Reads the folder once, ordering old pictures by their files' modification times.
    func loadedIndex() -> [String: Entry] {
        if let index { return index }
        var found: [String: Entry] = [:]
        let manager = FileManager.default
        let names = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasSuffix(".meta") {
            let key = String(name.dropLast(5))
            guard let data = try? Data(contentsOf: metaURL(key)),
                  let metadata = try? JSONDecoder().decode(Metadata.self, from: data),
                  let attributes = try? manager.attributesOfItem(atPath: bodyURL(key).path),
                  let size = (attributes[.size] as? NSNumber)?.intValue else { continue }
            let modified = attributes[.modificationDate] as? Date ?? .distantPast
            // A picture kept by an older Pocket that is not a raster image (an SVG) is never served again.
            guard let type = Self.rasterType(metadata.contentType) ?? (acceptsVectorPictures ? Self.vectorType(metadata.contentType) : nil) else {
                try? manager.removeItem(at: metaURL(key))
                try? manager.removeItem(at: bodyURL(key))
                continue
            }
            found[key] = Entry(url: metadata.url, contentType: type, size: size, lastUse: 0, modified: modified)
        }
        let oldestFirst = found.sorted { ($0.value.modified, $0.key) < ($1.value.modified, $1.key) }.map(\.key)
        for (rank, key) in oldestFirst.enumerated() {
            found[key]?.lastUse = rank - oldestFirst.count
        }
        index = found
        return found
    }

    func cached(key: String, url: URL) -> CachedImage? {
        var entries = loadedIndex()
        guard var entry = entries[key], entry.url == url.absoluteString,
              let data = try? Data(contentsOf: bodyURL(key)), data.count == entry.size else { return nil }
        clock += 1
        entry.lastUse = clock
        entry.modified = Date()
        entries[key] = entry
        index = entries
        // The file's date carries the recency across restarts.
        try? FileManager.default.setAttributes([.modificationDate: entry.modified], ofItemAtPath: bodyURL(key).path)
        return CachedImage(data: data, contentType: entry.contentType)
    }

    /// Pictures are re-served from Pocket's own origin, so only raster types are taken: an SVG
    /// (or anything else) can carry script. Parameters such as `; charset=` are dropped.
    static let rasterTypes: Set<String> = ["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"]

    static func rasterType(_ contentType: String) -> String? {
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return rasterTypes.contains(type) ? type : nil
    }

    static func vectorType(_ contentType: String) -> String? {
        contentType.lowercased().hasPrefix("image/svg+xml") ? "image/svg+xml" : nil
    }

    func download(_ url: URL, key: String) async -> Result<CachedImage, MuralsError> {
        let resource: FetchedResource
        do {
            resource = try await fetcher.fetch(url, maxBytes: min(capacityBytes, 16 << 20), timeout: timeout)
        } catch {
            return .failure(.imageUnavailable(error.description))
        }
        guard let type = Self.rasterType(resource.contentType) ?? (acceptsVectorPictures ? Self.vectorType(resource.contentType) : nil) else {
            return .failure(.notAnImage(contentType: resource.contentType))
        }
        let image = CachedImage(data: resource.data, contentType: type)
        // A full or read-only disk still shows the picture; it is just not kept for offline use.
        try? store(image, url: url, key: key)
        return .success(image)
    }

    func store(_ image: CachedImage, url: URL, key: String) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        let metadata = try JSONEncoder().encode(Metadata(url: url.absoluteString, contentType: image.contentType))
        // Write then rename, so a killed process never leaves half a picture to serve.
        let temporary = folder.appendingPathComponent(".\(key).\(UUID().uuidString).part")
        try image.data.write(to: temporary)
        _ = try? manager.removeItem(at: bodyURL(key))
        try manager.moveItem(at: temporary, to: bodyURL(key))
        try metadata.write(to: metaURL(key), options: .atomic)
        var entries = loadedIndex()
        clock += 1
        entries[key] = Entry(url: url.absoluteString, contentType: image.contentType, size: image.data.count, lastUse: clock, modified: Date())
        index = entries
        evict(keeping: key)
    }

    func evict(keeping newest: String) {
        var entries = loadedIndex()
        var total = entries.values.reduce(0) { $0 + $1.size }
        let oldestFirst = entries.sorted { ($0.value.lastUse, $0.key) < ($1.value.lastUse, $1.key) }.map(\.key)
        for key in oldestFirst where total > capacityBytes && key != newest {
            guard let entry = entries.removeValue(forKey: key) else { continue }
            try? FileManager.default.removeItem(at: bodyURL(key))
            try? FileManager.default.removeItem(at: metaURL(key))
            total -= entry.size
        }
        index = entries
    }

    func bodyURL(_ key: String) -> URL { folder.appendingPathComponent("\(key).img") }
    func metaURL(_ key: String) -> URL { folder.appendingPathComponent("\(key).meta") }

    /// Two 64-bit FNV-1a hashes of the URL with different seeds, as 32 hex digits. The URL is
    /// also kept in the metadata and compared, so a collision costs a refetch, never a wrong picture.
    static func key(for url: URL) -> String {
        let bytes = Array(url.absoluteString.utf8)
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
        let first = fnv(0xcbf2_9ce4_8422_2325), second = fnv(0x84222325_cbf29ce4)
        return String(format: "%016llx%016llx", first, second)
    }
}
