import Foundation

/// The service worker script: `js/service-worker.js` after the constants that tie it to this
/// build and its apps, its imports pointed at the modules' versioned URLs.
enum ServiceWorker {
    /// Where the script lives among the static files.
    static let scriptPath = "js/service-worker.js"
    /// The tile shown where the map has no tile online or kept: says the map needs the network there.
    static let placeholderTilePath = "img/map-tile-offline.svg"

    /// Values the script needs from the running build.
    struct Model: Sendable {
        /// The cache version: changes with any static file.
        let version: String
        /// The shell's own files plus the offline page: enough to open Pocket with no network.
        let precache: [String]
        /// Map tiles the worker keeps as they are viewed: the apps' tile templates and the placeholder.
        let tiles: Tiles
        /// The shell's addresses the worker treats apart, from `ShellRoute`: it spells none itself.
        let routes = Routes()

        /// The worker's `ROUTES` constant.
        struct Routes: Encodable, Sendable {
            /// The page shown offline with nothing saved.
            var offline = ShellRoute.offline.href()
            /// The worker's own script, never intercepted.
            var serviceWorker = ShellRoute.serviceWorker.href()
            /// The web app manifest, served from the cache and refreshed behind it.
            var manifest = ShellRoute.manifest.href()
            /// The folder of versioned static files, cache-first.
            var assets = AssetCatalog.folder
        }

        /// The worker's `TILES` constant.
        struct Tiles: Encodable, Sendable {
            let templates: [String]
            let placeholder: String
        }

        /// The shell's files among `assets`, and the tile templates the apps declare.
        init(assets: AssetCatalog, tileTemplates: [String]) {
            version = assets.version
            let shellFiles = assets.paths.filter { path in
                path != ServiceWorker.scriptPath
                    && (path.hasPrefix("css/") || path.hasPrefix("js/") || path.hasSuffix(".svg")
                        || path == "icons/apple-touch-icon.png" || path == "icons/favicon-32.png" || path == "icons/pocket-192.png")
            }
            precache = shellFiles.map { assets.url($0) } + [ShellRoute.offline.href(), ShellRoute.manifest.href()]
            tiles = Tiles(templates: tileTemplates, placeholder: assets.url(ServiceWorker.placeholderTilePath))
        }
    }

    /// `js/service-worker.js` with its imports resolved: what does not change with the apps.
    ///
    /// It is served from `/` (a worker's scope cannot be wider than its folder), so its imports,
    /// written relative to `js/` like every module's, are rewritten to the modules' versioned
    /// URLs: a worker has no import map, and the versioned URLs are the ones precached.
    static func body(assets: AssetCatalog) throws -> String {
        guard let file = assets.asset(at: scriptPath) else { throw WebError.resourcesMissing(scriptPath) }
        guard assets.asset(at: placeholderTilePath) != nil else { throw WebError.resourcesMissing(placeholderTilePath) }
        return try String(decoding: file.data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in try importResolved(String(line), assets: assets) }.joined(separator: "\n")
    }

    /// The script served at `/sw.js`: the constants as JSON (so any character is escaped for
    /// JavaScript), then `body`.
    static func script(body: String, model: Model) -> String {
        "const VERSION = \(json(model.version));\nconst PRECACHE = \(json(model.precache));\nconst TILES = \(json(model.tiles));\nconst ROUTES = \(json(model.routes));\n" + body
    }

    /// `value` as JSON; strings and lists of them always encode, so `null` is never written in practice.
    private static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// `line` with the relative path of an `import … from "./x.js"` replaced by the module's
    /// versioned URL; any other line as it is. An import of a file that is not there stops
    /// Pocket from starting, rather than serving a worker that cannot load.
    static func importResolved(_ line: String, assets: AssetCatalog) throws -> String {
        guard line.hasPrefix("import "), let from = line.range(of: " from \"./"), let end = line[from.upperBound...].firstIndex(of: "\"") else {
            return line
        }
        let path = "js/" + line[from.upperBound..<end]
        guard assets.asset(at: path) != nil else { throw WebError.resourcesMissing(path) }
        return line[..<from.lowerBound] + " from \"" + assets.url(path) + "\"" + line[line.index(after: end)...]
    }
}
