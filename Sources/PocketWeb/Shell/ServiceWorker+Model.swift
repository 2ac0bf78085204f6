/// Values injected into the service worker script.
enum ServiceWorker {
    struct Model: Sendable {
        struct Entry: Sendable {
            let url: String
        }

        let version: String
        let precache: [Entry]

        /// The shell's own files plus the offline page: enough to open Pocket with no network.
        init(assets: AssetCatalog) {
            version = assets.version
            let shellFiles = assets.paths.filter { path in
                path.hasPrefix("css/") || path.hasPrefix("js/") || path.hasSuffix(".svg")
                    || path == "icons/apple-touch-icon.png" || path == "icons/favicon-32.png" || path == "icons/pocket-192.png"
            }
            precache = shellFiles.map { Entry(url: assets.url($0)) } + [Entry(url: ShellRoute.offline.href), Entry(url: ShellRoute.manifest.href)]
        }
    }
}
