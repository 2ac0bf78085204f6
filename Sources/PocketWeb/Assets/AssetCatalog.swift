import Foundation
import NIOCore

/// Pocket's static files (CSS, JS, icons), read once at start-up and served from memory.
///
/// Each asset has a content hash so pages can link `?v=HASH` and browsers cache it for good.
public struct AssetCatalog: Sendable {
    /// One served file.
    public struct Asset: Sendable {
        /// Path below `/static/`, e.g. `css/pocket.css`.
        public let path: String
        /// The bytes.
        public let data: Data
        /// The same bytes, ready to send: every response shares this one copy.
        public let buffer: ByteBuffer
        /// MIME type sent as Content-Type.
        public let contentType: String
        /// Hex FNV-1a hash of the bytes.
        public let hash: String
        /// The bytes gzip-compressed at the smallest setting, made once at start-up (as nginx's
        /// `gzip_static` serves files compressed ahead); nil when compressing would not pay.
        public let gzip: ByteBuffer?
    }

    private let assets: [String: Asset]

    /// A hash over every asset, used as the service worker's cache version.
    public let version: String

    /// Reads every file below `root`.
    public init(root: URL) throws {
        var assets: [String: Asset] = [:]
        let rootPath = root.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let fullPath = url.standardizedFileURL.path
            guard fullPath.hasPrefix(rootPath + "/") else { continue }
            let relative = String(fullPath.dropFirst(rootPath.count + 1))
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
            let data = try Data(contentsOf: url)
            let buffer = ByteBuffer(bytes: data), contentType = Self.contentType(for: relative)
            assets[relative] = Asset(path: relative, data: data, buffer: buffer, contentType: contentType, hash: Self.hash(data),
                                     gzip: try Self.compressed(buffer, contentType: contentType))
        }
        self.assets = assets
        self.version = Self.hash(Data(assets.keys.sorted().map { "\($0)=\(assets[$0]?.hash ?? "")" }.joined(separator: "\n").utf8))
    }

    /// The asset at `path` (below `/static/`), if any.
    public func asset(at path: String) -> Asset? {
        assets[path]
    }

    /// Every asset path, sorted.
    public var paths: [String] { assets.keys.sorted() }

    /// The folder every asset is served below (`/static/`), from the shell's route.
    static let folder = ShellRoute.asset.folder

    /// The versioned URL for an asset; an unknown path still yields a plain URL so a typo shows as a 404, not a crash.
    public func url(_ path: String) -> String {
        guard let asset = assets[path] else { return Self.folder + path }
        return Self.folder + path + "?v=" + asset.hash
    }

    /// `buffer` gzip-compressed, when it is text of at least `Compression.minimumSize` and gets
    /// smaller by a tenth or more.
    static func compressed(_ buffer: ByteBuffer, contentType: String) throws -> ByteBuffer? {
        guard Compression.isCompressible(contentType: contentType), buffer.readableBytes >= Compression.minimumSize else { return nil }
        let gzip = try Compression.gzip(buffer, level: .startUp)
        return gzip.readableBytes * 10 <= buffer.readableBytes * 9 ? gzip : nil
    }

    /// 64-bit FNV-1a as 16 hex digits: cache busting needs stability, not secrecy.
    static func hash(_ data: Data) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    static func contentType(for path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "webp": return "image/webp"
        case "ico": return "image/x-icon"
        case "json": return "application/json"
        case "webmanifest": return "application/manifest+json"
        case "wav": return "audio/wav"
        case "mp3": return "audio/mpeg"
        case "woff2": return "font/woff2"
        case "txt": return "text/plain; charset=utf-8"
        case "html": return "text/html; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
