import Foundation
import NIOCore
import PocketCore

/// The Leaflet map library, read from the folder the system package installed it in
/// (Debian's `libjs-leaflet`: /usr/share/javascript/leaflet), so Pocket serves it itself and
/// never commits it or loads it from a CDN.
public struct LeafletAssets: Sendable {
    /// Where Debian's `libjs-leaflet` puts the library (`Settings.leafletDirectory`'s default).
    public static let defaultFolder = URL(fileURLWithPath: Settings.leafletDirectory.defaultText ?? "", isDirectory: true)

    /// One served file.
    struct File: Sendable {
        let data: Data
        let contentType: String
        /// The bytes ready to send, and gzip-compressed once here (nil when that does not pay).
        let buffer: ByteBuffer
        let gzip: ByteBuffer?

        init(data: Data, contentType: String) {
            self.data = data
            self.contentType = contentType
            buffer = ByteBuffer(bytes: data)
            gzip = try? AssetCatalog.compressed(buffer, contentType: contentType)
        }
    }

    private let files: [String: File]
    /// A hash over the files, so links can be cached for good and change when the package does.
    let version: String

    /// Reads `leaflet.js`, `leaflet.css` and `images/*.png` from `folder`; nil when the library is
    /// not installed there (the map then says so and the list still works). Where the package has
    /// the minified script beside it (Debian's does), that is served as `leaflet.js`: the same
    /// library in a third of the bytes (141 kB for 431 kB).
    public static func load(from folder: URL) -> LeafletAssets? {
        var files: [String: File] = [:]
        for (name, sources) in [("leaflet.js", ["leaflet.min.js", "leaflet.js"]), ("leaflet.css", ["leaflet.css"])] {
            let read = sources.lazy.compactMap { try? Data(contentsOf: folder.appendingPathComponent($0)) }.first { !$0.isEmpty }
            guard let data = read else { return nil }
            files[name] = File(data: data, contentType: AssetCatalog.contentType(for: name))
        }
        let images = folder.appendingPathComponent("images", isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: images.path)) ?? []
        for name in names where name.hasSuffix(".png") && isSafeName(name) {
            if let data = try? Data(contentsOf: images.appendingPathComponent(name)) {
                files["images/\(name)"] = File(data: data, contentType: "image/png")
            }
        }
        let digest = files.keys.sorted().map { "\($0)=\(AssetCatalog.hash(files[$0]?.data ?? Data()))" }.joined(separator: "\n")
        return LeafletAssets(files: files, version: AssetCatalog.hash(Data(digest.utf8)))
    }

    /// The file at `path` below the library folder (`leaflet.js`, `images/marker-icon.png`), if served.
    func file(at path: String) -> File? {
        files[path]
    }

    /// The versioned link to a file of the library.
    func url(_ path: String) -> String {
        MuralsRoute.leaflet.href(path) + "?v=\(version)"
    }

    /// Only plain file names: no hidden files, no path tricks.
    private static func isSafeName(_ name: String) -> Bool {
        !name.hasPrefix(".") && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
    }
}
