import Crypto
import Foundation

/// The page's import map: every ES module below `/static/js/` mapped to its versioned URL.
///
/// Pocket's client is split into small modules that import each other by relative path
/// (`./core/dom.js`). Without the map those imports would load unversioned URLs, which a browser
/// or the service worker may keep stale after an update, and which the service worker's
/// precache (versioned URLs) would not have offline. The map is an inline script, so the
/// Content-Security-Policy allows exactly its hash and no other inline script.
struct ImportMap: Sendable {
    /// The JSON inside `<script type="importmap">`.
    let json: String
    /// `'sha256-…'`, the CSP source that allows this script and nothing else.
    let cspSource: String

    /// The map of every `js/…` module in `assets` but the service worker.
    init(assets: AssetCatalog) throws {
        var imports: [String: String] = [:]
        for path in assets.paths where path.hasPrefix("js/") && path.hasSuffix(".js") && path != ServiceWorker.scriptPath {
            imports[AssetCatalog.folder + path] = assets.url(path)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        json = String(decoding: try encoder.encode(["imports": imports]), as: UTF8.self)
        cspSource = "'sha256-\(Data(SHA256.hash(data: Data(json.utf8))).base64EncodedString())'"
    }
}
