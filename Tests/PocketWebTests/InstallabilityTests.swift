import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import PocketWeb

@Suite("Installability and static files")
struct InstallabilityTests {
    private struct Manifest: Decodable {
        struct Icon: Decodable { let src: String; let sizes: String; let type: String; let purpose: String }
        struct Shortcut: Decodable { let name: String; let url: String }
        let name: String
        let display: String
        let start_url: String
        let icons: [Icon]
        let shortcuts: [Shortcut]
    }

    /// Width and height from a PNG's IHDR chunk.
    private func pngSize(_ data: ByteBuffer) -> (Int, Int)? {
        let bytes = Array(data.readableBytesView)
        guard bytes.count > 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return nil }
        func int(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (int(16), int(20))
    }

    @Test func manifestListsIconsThatExistAtTheirDeclaredSizes() async throws {
        let app = try await makeApplication(apps: [FixtureApp()])
        try await app.test(.router) { client in
            let manifest = try await client.execute(uri: "/manifest.webmanifest", method: .get) { response in
                #expect(response.headers[.contentType] == "application/manifest+json")
                return try JSONDecoder().decode(Manifest.self, from: Data(response.text.utf8))
            }
            #expect(manifest.name == "Pocket")
            #expect(manifest.display == "standalone")
            #expect(manifest.start_url == "/")
            #expect(manifest.shortcuts.map(\.url) == ["/fixture"])
            #expect(manifest.icons.contains { $0.purpose == "maskable" })
            #expect(Set(manifest.icons.map(\.sizes)).isSuperset(of: ["192x192", "512x512"]))
            for icon in manifest.icons {
                try await client.execute(uri: icon.src, method: .get) { response in
                    #expect(response.status == .ok, "\(icon.src)")
                    #expect(response.headers[.contentType] == icon.type, "\(icon.src)")
                    if icon.type == "image/png", let size = pngSize(response.body) {
                        #expect("\(size.0)x\(size.1)" == icon.sizes, "\(icon.src)")
                    }
                }
            }
        }
    }

    @Test func appleTouchIconIs180Pixels() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            try await client.execute(uri: "/static/icons/apple-touch-icon.png", method: .get) { response in
                let size = pngSize(response.body)
                #expect(size?.0 == 180 && size?.1 == 180)
            }
        }
    }

    @Test func serviceWorkerIsVersionedAndPrecachesTheShell() async throws {
        let app = try await makeApplication()
        let renderer = try PageRenderer(resources: WebResources.bundled())
        try await app.test(.router) { client in
            try await client.execute(uri: "/sw.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(response.headers[.cacheControl] == "no-cache")
                #expect(response.text.contains(renderer.assets.version))
                #expect(response.text.contains(renderer.assets.url("css/pocket.css")))
                #expect(response.text.contains(renderer.assets.url("js/pocket.js")))
                #expect(response.text.contains("\"/offline\""))
                #expect(response.text.contains(#"const ROUTES = {"assets":"/static/","manifest":"/manifest.webmanifest","offline":"/offline","serviceWorker":"/sw.js"};"#))
            }
        }
    }

    /// The worker takes the shell's addresses from `ROUTES`, which `ShellRoute` fills: a route spelled
    /// in the script itself would go on being asked for after the route moved.
    /// Every address a script uses comes from the server (the page's data attributes, the head's
    /// `pocket-routes`, the service worker's `ROUTES`), so a route is never spelled in JavaScript.
    @Test func noScriptSpellsARouteOfItsOwn() throws {
        let renderer = try PageRenderer(resources: WebResources.bundled())
        var spelled: [String] = []
        for path in renderer.assets.paths where path.hasSuffix(".js") {
            let script = try #require(renderer.assets.asset(at: path)).data
            let code = String(decoding: script, as: UTF8.self).split(separator: "\n").filter { line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                return !trimmed.hasPrefix("*") && !trimmed.hasPrefix("/*") && !trimmed.hasPrefix("//")
            }
            // A literal that starts with a slash and a letter is a path; `/` alone and regexes are not.
            for line in code {
                for match in line.matches(of: /["'`](\/[a-z][^"'`]*)["'`]/) {
                    spelled.append("\(path): \(match.output.1)")
                }
            }
        }
        // Only the tile index's cache key, which is no route (nothing is served there), may be a path.
        #expect(spelled == ["\(ServiceWorker.scriptPath): /pocket-tile-index"], "paths spelled in scripts: \(spelled)")
    }

    @Test func versionedAssetsAreImmutableAndRevalidate() async throws {
        let app = try await makeApplication()
        let renderer = try PageRenderer(resources: WebResources.bundled())
        let url = renderer.assets.url("css/pocket.css")
        let hash = renderer.assets.asset(at: "css/pocket.css")?.hash ?? ""
        try await app.test(.router) { client in
            try await client.execute(uri: url, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/css; charset=utf-8")
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
                #expect(response.text.contains("prefers-color-scheme: dark"))
            }
            try await client.execute(uri: "/static/css/pocket.css?v=stale", method: .get) { response in
                #expect(response.headers[.cacheControl] == "no-cache")
            }
            try await client.execute(uri: "/static/css/pocket.css", method: .get, headers: [.ifNoneMatch: "\"\(hash)\""]) { response in
                #expect(response.status == .notModified)
            }
        }
    }

    @Test(arguments: ["/static/nope.css", "/static/../Package.swift", "/static/%2e%2e/Templates/layout.mustache", "/static/css/.hidden"])
    func unknownOrEscapingAssetPathsAre404(_ uri: String) async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func everyAssetTheLayoutLinksExists() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let html = try await client.execute(uri: "/design", method: .get) { $0.text }
            // Every file below /static/ (the folder itself is named once, for the scripts).
            let links = html.components(separatedBy: "\"").filter { $0.hasPrefix("/static/") && $0 != "/static/" }
            #expect(links.count >= 5)
            for link in Set(links) {
                try await client.execute(uri: link, method: .get) { response in
                    #expect(response.status == .ok, "\(link)")
                }
            }
        }
    }
}
