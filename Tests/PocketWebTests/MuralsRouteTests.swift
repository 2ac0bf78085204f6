import Foundation
import Hummingbird
import HummingbirdTesting
import Murals
import PocketCore
import Testing
@testable import PocketWeb

/// The Murals screens through the real router, on an in-memory store filled with `apply(...)`.
@Suite("Murals routes")
struct MuralsRouteTests {
    private struct Fixture {
        let store: MuralsDatabase
        let app: MuralsApp
    }

    /// A dead endpoint on loopback (nothing listens on port 9), so a sync fails as offline would.
    private static let deadService = MuralsService(
        endpoint: URL(string: "http://127.0.0.1:9/nbm/data2.php?class=newbrighton_murals") ?? MuralsSynchronizer.defaultEndpoint,
        imageBase: URL(string: "http://127.0.0.1:9/nbm_images/") ?? MuralsSynchronizer.defaultImageBase
    )

    private func fixture(murals: [Mural] = MuralsSamples.three, service: MuralsService = deadService, leaflet: LeafletAssets? = nil) async throws -> Fixture {
        let store = try MuralsDatabase.inMemory()
        if !murals.isEmpty {
            _ = try await store.apply(murals, fetchedAt: Date(), wasIncremental: false)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("murals-web-\(UUID().uuidString)")
        // Unreachable hosts are retried until the timeout, so tests keep it short.
        let app = MuralsApp(store: store, service: service, imageFolder: folder, timeout: .seconds(1), leaflet: leaflet)
        return Fixture(store: store, app: app)
    }

    private func post(_ client: some TestClientProtocol, _ uri: String, token: String?, body: String = "", accept: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let token { headers[.cookie] = "pocket_csrf=\(token)" }
        if let accept { headers[.accept] = accept }
        let form = (token.map { "_csrf=\($0)&" } ?? "") + body
        return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: form))
    }

    private func order(_ html: String) -> [String] {
        html.components(separatedBy: #"<li class="cell murals-cell"#).dropFirst().compactMap { chunk in
            chunk.range(of: #"data-id=""#).map { String(chunk[$0.upperBound...].prefix { $0 != "\"" }) }
        }
    }

    @Test func homeListsMuralsAndTheMainScreenOrdersThemByPosition() async throws {
        let fixture = try await fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.text.contains(#"<a class="app-tile" href="/murals""#))
            }
            try await client.execute(uri: "/murals?at=53.4340,-3.0420", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text.contains("<title>Murals · Pocket</title>"))
                #expect(order(response.text) == ["3", "2", "1"])
                #expect(response.text.contains("Unknown artist"))
                #expect(response.text.contains(#"href="/static/css/apps/murals.css?v="#))
                #expect(response.text.contains(#"data-module="/static/js/murals/app.js?v="#))
                // No Leaflet here: the map says so in one line, and the list still works.
                #expect(response.text.contains("The map library (Leaflet) is not installed"))
                #expect(response.headers[.contentSecurityPolicy]?.contains("img-src 'self' data: https://tile.openstreetmap.org") == true)
                // The service worker fetches the tiles it keeps, so they are allowed as fetches too.
                #expect(response.headers[.contentSecurityPolicy]?.contains("connect-src 'self' https://tile.openstreetmap.org") == true)
            }
            // The worker knows which addresses are the map's tiles, and the placeholder for the rest.
            try await client.execute(uri: "/sw.js", method: .get) { response in
                let placeholder = try PageRenderer(resources: WebResources.bundled()).assets.url("img/map-tile-offline.svg")
                #expect(response.text.contains(#"const TILES = {"placeholder":"\#(placeholder)","templates":["https://tile.openstreetmap.org/{z}/{x}/{y}.png"]};"#))
                #expect(response.headers[.contentSecurityPolicy]?.contains("connect-src 'self' https://tile.openstreetmap.org") == true)
            }
            try await client.execute(uri: "/murals", method: .get, headers: [.cookie: "murals_at=53.4420%2C-3.0420"]) { response in
                #expect(order(response.text) == ["1", "2", "3"])
                #expect(response.text.contains("Distances from you"))
            }
        }
    }

    @Test func hostileTitlesArtistsAndInfoAreEscapedEverywhere() async throws {
        let evil = MuralsSamples.mural(5, #"<script>alert("t")</script>"#, artist: #""><img src=x onerror=alert(1)>"#, info: "<b>bold</b> & <i>info</i>", latitude: 53.44)
        let fixture = try await fixture(murals: [evil])
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            for uri in ["/murals", "/murals/mural/5", "/murals/trail"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(!response.text.contains("<script>alert"), "\(uri) shows the title unescaped")
                    #expect(!response.text.contains("<img src=x"), "\(uri) shows the artist unescaped")
                    #expect(!response.text.contains("<b>bold</b>"), "\(uri) shows the info unescaped")
                    #expect(response.text.contains("&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt;"), "\(uri) lacks the escaped title")
                }
            }
        }
    }

    @Test func theDetailShowsPicturesAndUnknownIdsAre404() async throws {
        let fixture = try await fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            try await client.execute(uri: "/murals/mural/1", method: .get, headers: [.userAgent: "Mozilla/5.0 (iPhone)"]) { response in
                #expect(response.status == .ok)
                #expect(response.text.contains("<title>Alpha · Pocket</title>"))
                #expect(response.text.components(separatedBy: #"class="mural-gallery__item""#).count - 1 == 2)
                #expect(response.text.components(separatedBy: #"<dialog class="mural-viewer""#).count - 1 == 2)
                #expect(response.text.contains("https://maps.apple.com/?daddr=53.441500,-3.042000&amp;dirflg=w"))
            }
            for uri in ["/murals/mural/999", "/murals/mural/abc", "/murals/mural/1/images/7", "/murals/mural/999/thumbnail"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                }
            }
        }
    }

    @Test func favouritesNeedTheTokenPersistAndFilter() async throws {
        let fixture = try await fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            let refused = try await post(client, "/murals/mural/2/favourite", token: nil, body: "favourite=1")
            #expect(refused.status == .forbidden)
            #expect(try await fixture.store.favouriteIDs(of: .firstOwner).isEmpty)

            let saved = try await post(client, "/murals/mural/2/favourite", token: token, body: "favourite=1&return=/murals?show=favourites")
            #expect(saved.status == .seeOther)
            #expect(saved.headers[.location] == "/murals?show=favourites")
            #expect(try await fixture.store.favouriteIDs(of: .firstOwner) == [2])

            let escape = try await post(client, "/murals/mural/3/favourite", token: token, body: "favourite=1&return=//evil.example/")
            #expect(escape.headers[.location] == "/murals")

            let json = try await post(client, "/murals/mural/3/favourite", token: token, body: "favourite=0", accept: "application/json")
            #expect(json.status == .ok)
            #expect(json.text == #"{"favourite":false,"id":3}"#)
            #expect(try await fixture.store.favouriteIDs(of: .firstOwner) == [2])

            let bad = try await post(client, "/murals/mural/2/favourite", token: token, body: "favourite=maybe")
            #expect(bad.status == .badRequest)
            let unknown = try await post(client, "/murals/mural/404/favourite", token: token, body: "favourite=1")
            #expect(unknown.status == .notFound)

            try await client.execute(uri: "/murals?show=favourites", method: .get) { response in
                #expect(order(response.text) == ["2"])
                #expect(response.text.contains(#"aria-pressed="true""#))
                #expect(response.text.contains(#"id="murals-filter-favourites" checked"#))
            }
        }
    }

    @Test func theWalkTheTrailAndVisits() async throws {
        let fixture = try await fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            try await client.execute(uri: "/murals/walk.json", method: .get) { response in
                let walk = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect((walk?["points"] as? [Any])?.count == 313)
            }
            try await client.execute(uri: "/murals/trail.json?at=53.4420,-3.0420", method: .get) { response in
                let trail = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(trail?["stops"] as? [Int] == [1, 2, 3])
                #expect((trail?["path"] as? [Any])?.count == 4)
                #expect((trail?["summary"] as? String)?.hasSuffix("through 3 murals") == true)
            }
            try await client.execute(uri: "/murals/trail?at=53.4420,-3.0420", method: .get) { response in
                #expect(response.text.contains("Starts where you are."))
                #expect(response.text.components(separatedBy: "murals-trail__number").count - 1 == 3)
            }
            let token = try await client.sessionToken()
            // A walk from the north end to just past Bravo passes Alpha and Bravo, not Charlie.
            let walked = try await post(client, "/murals/visited", token: token, body: "path=53.4420,-3.0420;53.4375,-3.0420;junk")
            #expect(walked.status == .ok)
            #expect(walked.text == #"{"visited":[1,2]}"#)
            #expect(try await fixture.store.visitedIDs(of: .firstOwner) == [1, 2])
            let empty = try await post(client, "/murals/visited", token: token, body: "path=nonsense")
            #expect(empty.status == .badRequest)
            let cleared = try await post(client, "/murals/visited/clear", token: token, body: "return=/murals/trail")
            #expect(cleared.status == .seeOther)
            #expect(try await fixture.store.visitedIDs(of: .firstOwner).isEmpty)
        }
    }

    @Test func anotherPersonsFavouritesAndVisitsAreNeitherShownNorChanged() async throws {
        let fixture = try await fixture()
        let other = PersonID(rawValue: 2)
        try await fixture.store.setFavourite(true, muralID: 2, for: other)
        try await fixture.store.markVisited([1, 3], for: other)
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            // Route tests run as the owner, who has no favourites or visits of their own.
            let token = try await client.sessionToken()
            try await client.execute(uri: "/murals/trail.json?show=favourites&at=53.4420,-3.0420", method: .get) { response in
                let trail = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(trail?["stops"] as? [Int] == [])
            }
            let walked = try await post(client, "/murals/visited", token: token, body: "path=53.4420,-3.0420;53.4375,-3.0420")
            #expect(walked.text == #"{"visited":[1,2]}"#)
            _ = try await post(client, "/murals/mural/2/favourite", token: token, body: "favourite=0")
            _ = try await post(client, "/murals/visited/clear", token: token, body: "return=/murals/trail")
        }
        #expect(try await fixture.store.favouriteIDs(of: other) == [2])
        #expect(try await fixture.store.visitedIDs(of: other) == [1, 3])
        #expect(try await fixture.store.visitedIDs(of: .firstOwner).isEmpty)
    }

    @Test func anUnreachableServiceShowsTheQuietOfflineLineAndKeepsTheMurals() async throws {
        let fixture = try await fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            let refreshed = try await post(client, "/murals/refresh", token: token, body: "return=/murals")
            #expect(refreshed.status == .seeOther)
            try await client.execute(uri: "/murals", method: .get) { response in
                #expect(response.text.contains("Offline — showing saved murals"))
                #expect(order(response.text).count == 3)
            }
            // A picture never saved cannot be fetched: it says so in a picture, never a broken one.
            try await client.execute(uri: "/murals/mural/1/thumbnail", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/svg+xml")
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(response.text.contains("No picture saved yet"))
            }
        }
    }

    @Test func theDemoServiceFillsTheAppAndIsLabelled() async throws {
        let fixture = try await fixture(murals: [], service: .demo)
        let app = try await makeApplication(apps: [fixture.app])
        await fixture.app.runInBackground(logger: .init(label: "test"))
        try await app.test(.router) { client in
            try await client.execute(uri: "/murals", method: .get) { response in
                #expect(response.text.contains(#"<span class="murals-badge" id="murals-demo">Demo data</span>"#))
                #expect(order(response.text).count == 24)
            }
            try await client.execute(uri: "/murals/demo-service/data2.php?class=newbrighton_murals", method: .get) { response in
                let feed = try MuralFeed.decode(Data(buffer: response.body))
                #expect(feed.murals.count == 24)
                #expect(feed.murals.first?.thumbnail?.absoluteString.contains("/murals/demo-service/images/demo-") == true)
            }
            let first = try #require(try await fixture.store.murals().first)
            let file = try #require(first.images.first?.filename)
            try await client.execute(uri: "/murals/demo-service/images/\(file)", method: .get) { response in
                #expect(response.headers[.contentType] == "image/svg+xml")
            }
            try await client.execute(uri: "/murals/mural/\(first.id)/images/0", method: .get) { response in
                #expect(response.headers[.contentType] == "image/svg+xml")
                #expect(response.headers[.cacheControl] == "public, max-age=86400")
                #expect(response.text.contains("Demo"))
            }
        }
    }

    @Test func leafletIsServedFromItsFolderAndNothingElse() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("leaflet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
        try Data("window.L = {};".utf8).write(to: folder.appendingPathComponent("leaflet.js"))
        try Data(".leaflet-container{}".utf8).write(to: folder.appendingPathComponent("leaflet.css"))
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: folder.appendingPathComponent("images/marker-icon.png"))
        try Data("secret".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let leaflet = try #require(LeafletAssets.load(from: folder))
        #expect(LeafletAssets.load(from: folder.appendingPathComponent("missing")) == nil)
        let fixture = try await fixture(leaflet: leaflet)
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            try await client.execute(uri: "/murals", method: .get) { response in
                #expect(response.text.contains(#"data-leaflet-js="/murals/leaflet/leaflet.js?v="#))
                #expect(!response.text.contains("is not installed"))
            }
            try await client.execute(uri: "/murals/leaflet/leaflet.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(response.text == "window.L = {};")
            }
            try await client.execute(uri: "/murals/leaflet/images/marker-icon.png", method: .get) { response in
                #expect(response.headers[.contentType] == "image/png")
            }
            for uri in ["/murals/leaflet/notes.txt", "/murals/leaflet/../leaflet.js", "/murals/leaflet/images/../../etc/passwd"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                }
            }
        }
    }

    @Test func theMinifiedLeafletIsServedCompressedWhereThePackageHasIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("leaflet-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let full = String(repeating: "/* the whole library, with its comments */\nwindow.L = { version: '1.9' };\n", count: 200)
        let minified = String(repeating: "window.L={version:'1.9'};", count: 100)
        try Data(full.utf8).write(to: folder.appendingPathComponent("leaflet.js"))
        try Data(minified.utf8).write(to: folder.appendingPathComponent("leaflet.min.js"))
        try Data(".leaflet-container{}".utf8).write(to: folder.appendingPathComponent("leaflet.css"))
        let leaflet = try #require(LeafletAssets.load(from: folder))
        let fixture = try await fixture(leaflet: leaflet)
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            try await client.execute(uri: "/murals/leaflet/leaflet.js", method: .get) { response in
                #expect(response.text == minified && response.headers[.contentEncoding] == nil)
                #expect(response.headers[.vary] == "Accept-Encoding")
            }
            try await client.execute(uri: "/murals/leaflet/leaflet.js", method: .get, headers: [.acceptEncoding: "gzip"]) { response in
                #expect(response.headers[.contentEncoding] == "gzip")
                #expect(response.body.readableBytes < minified.utf8.count / 4)
                #expect(response.headers[.contentLength] == String(response.body.readableBytes))
            }
        }
    }
}
