import CompressNIO
import Converter
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PocketCore
import Testing
@testable import PocketWeb

@Suite("Compressed responses and the module graph (#37)")
struct CompressionTests {
    @Test func gzipIsAcceptedByNameOrWildcardUnlessRefused() {
        #expect(Compression.acceptsGzip(["gzip, deflate, br, zstd"]))
        #expect(Compression.acceptsGzip(["br;q=1.0, GZIP;q=0.5"]))
        #expect(Compression.acceptsGzip(["*"]))
        #expect(Compression.acceptsGzip(["identity", "x-gzip"]))
        #expect(!Compression.acceptsGzip([]))
        #expect(!Compression.acceptsGzip(["identity"]))
        #expect(!Compression.acceptsGzip(["gzip;q=0, *"]), "refused by name beats the wildcard")
        #expect(!Compression.acceptsGzip(["*;q=0"]))
        #expect(!Compression.acceptsGzip(["br"]))
    }

    @Test func onlyTextTypesAreCompressedAndEventStreamsNever() {
        for type in ["text/html; charset=utf-8", "text/css; charset=utf-8", "text/javascript; charset=utf-8", "application/json",
                     "application/manifest+json", "image/svg+xml", "application/gpx+xml", "text/plain; charset=utf-8"] {
            #expect(Compression.isCompressible(contentType: type), "\(type)")
        }
        for type in ["text/event-stream", "image/png", "image/jpeg", "application/zip", "application/octet-stream", "audio/wav", "font/woff2"] {
            #expect(!Compression.isCompressible(contentType: type), "\(type)")
        }
        #expect(!Compression.isCompressible(contentType: nil))
    }

    @Test func personalResponsesAreCompressedOnlyForPocketsOwnPagesOrThePersonsOwnAction() {
        #expect(Compression.mayCompressPersonal(secFetchSite: "same-origin") && Compression.mayCompressPersonal(secFetchSite: "none"))
        for other in ["cross-site", "same-site", nil] as [String?] {
            #expect(!Compression.mayCompressPersonal(secFetchSite: other), "\(other ?? "no header")")
        }
        #expect(Compression.isPersonal(cacheControl: "private, no-cache") && Compression.isPersonal(cacheControl: "no-store"))
        #expect(!Compression.isPersonal(cacheControl: "public, max-age=31536000, immutable") && !Compression.isPersonal(cacheControl: nil))
    }

    @Test func staticFilesAreCompressedOnceAndEachEncodingHasItsOwnTag() async throws {
        let app = try await makeApplication()
        let assets = try PageRenderer(resources: WebResources.bundled()).assets
        let css = try #require(assets.asset(at: "css/pocket.css"))
        #expect(assets.asset(at: "icons/favicon-32.png")?.gzip == nil, "a PNG is compressed already")
        try await app.test(.router) { client in
            let compressed = try await client.execute(uri: assets.url("css/pocket.css"), method: .get, headers: [.acceptEncoding: "gzip, br"])
            #expect(compressed.headers[.contentEncoding] == "gzip")
            #expect(compressed.headers[.vary]?.lowercased().contains("accept-encoding") == true)
            #expect(compressed.body.readableBytes * 3 < css.data.count, "the stylesheet shrinks to under a third")
            #expect(try gunzip(compressed.body) == css.buffer)
            let tag = try #require(compressed.headers[.eTag])

            let plain = try await client.execute(uri: assets.url("css/pocket.css"), method: .get)
            #expect(plain.headers[.contentEncoding] == nil && plain.body == css.buffer)
            #expect(plain.headers[.vary]?.lowercased().contains("accept-encoding") == true)
            #expect(plain.headers[.eTag] != tag)

            let again = try await client.execute(uri: assets.url("css/pocket.css"), method: .get, headers: [.acceptEncoding: "gzip", .ifNoneMatch: tag])
            #expect(again.status == .notModified)
            let png = try await client.execute(uri: assets.url("icons/favicon-32.png"), method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(png.headers[.contentEncoding] == nil)
        }
    }

    /// A navigation the service worker preloaded (its header) names no module to preload and links
    /// its stylesheets, which the worker answers from its cache; a navigation without the worker
    /// carries its stylesheets inside itself, allowed by their hashes alone; anything else (a screen
    /// swapped in) links them. Both but the worker's name every module; the worker's has its module
    /// script after its content.
    @Test func whatAPageLoadsFollowsWhoAskedForIt() async throws {
        let app = try await makeApplication(apps: [ConverterApp(database: try ConverterDatabase.inMemory())])
        try await app.test(.router) { client in
            let worker = try await client.execute(uri: "/converter", method: .get, headers: [.serviceWorkerNavigationPreload: "true", .secFetchMode: "navigate"])
            #expect(worker.status == .ok && worker.text.contains("<script type=\"module\" src=\""))
            #expect(!worker.text.contains("modulepreload") && !worker.text.contains("<style"))
            #expect(worker.text.contains("<link rel=\"stylesheet\" href=\"/static/css/apps/converter.css?v="))
            #expect(try scriptComesAfterContent(worker.text), "its modules come from the worker's cache: compiled after the first paint")

            let first = try await client.execute(uri: "/converter", method: .get, headers: [.secFetchMode: "navigate"])
            #expect(first.text.contains("<link rel=\"modulepreload\"") && !first.text.contains("<link rel=\"stylesheet\""))
            let policy = try #require(first.headers[.contentSecurityPolicy])
            let styles = first.text.components(separatedBy: "<style data-href=\"").dropFirst()
            #expect(styles.count == 2, "the design system and the app's stylesheet")
            for style in styles {
                let text = try #require(style.split(separator: ">", maxSplits: 1).last?.components(separatedBy: "</style>").first)
                #expect(text.count > 1000)
                let hash = "'sha256-\(Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString())'"
                #expect(policy.contains("style-src 'self' ") && policy.contains(hash), "the policy allows exactly the inline stylesheets")
            }
            #expect(!policy.contains("unsafe-inline"))
            #expect(try !scriptComesAfterContent(first.text), "its modules cross the network: asked for from the head")

            let swap = try await client.execute(uri: "/converter", method: .get, headers: [.pocketSwap: "1", .secFetchMode: "cors"])
            #expect(swap.text.contains("<link rel=\"modulepreload\"") && swap.text.contains("<link rel=\"stylesheet\" href=\"/static/css/pocket.css?v="))
            #expect(!swap.text.contains("<style"))
        }
    }

    /// Whether `page`'s module script comes after its content (else in its head).
    private func scriptComesAfterContent(_ page: String) throws -> Bool {
        let script = try #require(page.range(of: "<script type=\"module\" src=\"")), content = try #require(page.range(of: "</main>"))
        let headEnd = try #require(page.range(of: "</head>"))
        #expect(script.lowerBound < headEnd.lowerBound || script.lowerBound > content.upperBound)
        return script.lowerBound > content.upperBound
    }

    @Test func pagesAreCompressedForPocketsOwnRequestsOnlyAndEventStreamsFlowAsTheyAre() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let own = try await client.execute(uri: "/", method: .get, headers: [.acceptEncoding: "gzip", .secFetchSite: "same-origin"])
            #expect(own.status == .ok && own.headers[.contentEncoding] == "gzip")
            let page = String(buffer: try gunzip(own.body))
            #expect(page.hasPrefix("<!doctype html>") && page.contains("<link rel=\"modulepreload\""))
            #expect(own.headers[.contentLength] == String(own.body.readableBytes))

            // Another site's navigation could carry text it chose beside the page's CSRF token: sent as it is.
            for site in ["cross-site", "same-site"] {
                let other = try await client.execute(uri: "/", method: .get, headers: [.acceptEncoding: "gzip", .secFetchSite: site])
                #expect(other.headers[.contentEncoding] == nil && other.text.hasPrefix("<!doctype html>"), "\(site)")
            }
            let unsaid = try await client.execute(uri: "/", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(unsaid.headers[.contentEncoding] == nil)
            #expect(unsaid.headers[.vary]?.lowercased().contains("accept-encoding") == true)

            // The service worker is the same for everyone: compressed for anyone who accepts it.
            let worker = try await client.execute(uri: "/sw.js", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(worker.headers[.contentEncoding] == "gzip")
            #expect(String(buffer: try gunzip(worker.body)).hasPrefix("const VERSION = "))
            // Too small to pay (a JSON answer of a few bytes): sent as it is.
            let health = try await client.execute(uri: "/healthz", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(health.status == .ok && health.headers[.contentEncoding] == nil)
        }
    }

    @Test func aPageAskedForAgainIsCompressedHardOnceAndSentCompressedFromTheMemo() throws {
        let memo = PageMemo<String>()
        let key = PageMemo<String>.Key(frame: PageFrame(title: "T"), pageContext: Self.memoPageContext, model: "m")
        var renders = 0
        let page = Self.memoPage
        let first = try #require(memo.compressedPage(key) { renders += 1; return page })
        let second = try #require(memo.compressedPage(key) { renders += 1; return page })
        let third = try #require(memo.compressedPage(key) { renders += 1; return page })
        #expect(renders == 1, "rendered once")
        #expect(second == third, "the second request's compression is kept")
        #expect(first.readableBytes > second.readableBytes, "a page just rendered is compressed fast, one asked for again hard")
        for body in [first, second] { #expect(String(buffer: try gunzip(body)) == page) }
        #expect(memo.compressedPage(PageMemo<String>.Key(frame: PageFrame(title: "T"), pageContext: key.pageContext, model: "small")) { "<p>hi</p>" } == nil,
                "a page under the minimum goes as it is")
    }

    @Test func aNavigationIsCompressedHardFromItsFirstRequest() throws {
        let memo = PageMemo<String>()
        let key = PageMemo<String>.Key(frame: PageFrame(title: "T"), pageContext: Self.memoPageContext, model: "m")
        let fast = try #require(PageMemo<String>().compressedPage(key) { Self.memoPage })
        let first = try #require(memo.compressedPage(key, hard: true) { Self.memoPage })
        let second = try #require(memo.compressedPage(key) { Self.memoPage })
        #expect(first == second && first.readableBytes < fast.readableBytes)
        #expect(String(buffer: try gunzip(first)) == Self.memoPage)
    }

    /// A screen swapped in (or searched) may be one of thousands never asked for again: its first
    /// answer is compressed fast, its second hard and kept; a navigation is compressed hard at once.
    @Test func theRendererCompressesANavigationHardAndAnyOtherPageJustRenderedFast() async throws {
        let household = try await TestHousehold.make()
        let web = WebPeople(store: household.people, throttle: AttemptThrottle(), setupToken: RandomToken.make())
        let app = Application(router: buildRouter(renderer: try PageRenderer(resources: WebResources.bundled()), apps: [], people: web))
        try await app.test(.router) { client in
            func home(_ mode: String) async throws -> ByteBuffer {
                let response = try await client.execute(uri: "/", method: .get, headers: [.cookie: household.owner.cookie, .acceptEncoding: "gzip",
                                                                                         .secFetchSite: "same-origin", .secFetchMode: mode])
                #expect(response.headers[.contentEncoding] == "gzip")
                return response.body
            }
            let navigations = [try await home("navigate"), try await home("navigate")]
            let swaps = [try await home("cors"), try await home("cors"), try await home("cors")]
            #expect(navigations[0] == navigations[1], "a navigation's hard compression is kept from its first request")
            #expect(swaps[0].readableBytes > swaps[1].readableBytes && swaps[1] == swaps[2], "compressed fast, then hard and kept")
            #expect(String(buffer: try gunzip(swaps[0])) == String(buffer: try gunzip(swaps[1])))
        }
    }

    private static let memoPageContext = PageContext(csrfToken: "token", stylesheet: "/s.css", script: "/p.js", favicon: "/f.svg", faviconPNG: "/f.png",
                                                     appleTouchIcon: "/a.png", appStylesheet: nil, version: "1", importMap: "{}")
    private static let memoPage = (0..<200).map { "<li class=\"cell\"><a href=\"/plates/\($0)\">State \($0 * 7919 % 1000)</a></li>\n" }.joined()

    @Test func theModuleGraphReadsStaticImportsOnly() {
        #expect(ModuleGraph.specifier("import { a, b } from './core/dom.js';") == "./core/dom.js")
        #expect(ModuleGraph.specifier("import './live.js';") == "./live.js")
        #expect(ModuleGraph.specifier("  import \"../outbox.js\";") == "../outbox.js")
        #expect(ModuleGraph.specifier("export { x } from './y.js';") == "./y.js")
        #expect(ModuleGraph.specifier("    import(new URL(el.dataset.module, location.href).href)") == nil)
        #expect(ModuleGraph.specifier("// import x from './nope.js'") == nil)
        #expect(ModuleGraph.specifier("export function f() {}") == nil)
        #expect(ModuleGraph.resolve("../core/dom.js", from: "js/plates/app.js") == "js/core/dom.js")
        #expect(ModuleGraph.resolve("./x.js", from: "js/pocket.js") == "js/x.js")
        #expect(ModuleGraph.resolve("../../../x.js", from: "js/plates/app.js") == nil)
        #expect(ModuleGraph.resolve("https://example.com/x.js", from: "js/pocket.js") == nil)
    }

    @Test func everyPageNamesPocketsModulesAndItsAppsOnceEach() throws {
        let renderer = try PageRenderer(resources: WebResources.bundled())
        let plates = PageRenderer.modulePreloads(app: "plates", modules: renderer.modules, assets: renderer.assets)
        #expect(plates.first == renderer.assets.url("js/pocket.js"))
        #expect(plates.contains(renderer.assets.url("js/plates/app.js")) && plates.contains(renderer.assets.url("js/outbox.js")))
        #expect(Set(plates).count == plates.count)
        let shell = PageRenderer.modulePreloads(app: nil, modules: renderer.modules, assets: renderer.assets)
        #expect(!shell.contains(renderer.assets.url("js/plates/app.js")) && shell.contains(renderer.assets.url("js/core/dom.js")))
        #expect(!plates.contains { $0.contains("service-worker") })
    }

    @Test func eachAppsOwnModuleLivesInItsFolderAndItsPagesNameItUpFront() throws {
        let renderer = try PageRenderer(resources: WebResources.bundled())
        let apps = Set(renderer.assets.paths.compactMap(PageRenderer.app(ofModule:)))
        #expect(apps == ["conference", "converter", "murals", "plates"])
        #expect(!renderer.assets.paths.contains { $0.hasPrefix("js/apps/") })
        for app in apps {
            let preloads = PageRenderer.modulePreloads(app: app, modules: renderer.modules, assets: renderer.assets)
            #expect(preloads.contains(renderer.appModuleURL(app)), "\(app)")
        }
        #expect(PageRenderer.modulePreloads(app: "converter", modules: renderer.modules, assets: renderer.assets)
            .contains(renderer.assets.url("js/converter/engine.js")))
        #expect(PageRenderer.app(ofModule: "js/plates/app.js") == "plates")
        for path in ["js/app.js", "js/plates/game.js", "js/a/b/app.js", "js//app.js", "css/plates/app.js"] {
            #expect(PageRenderer.app(ofModule: path) == nil, "\(path)")
        }
    }

    private func gunzip(_ buffer: ByteBuffer) throws -> ByteBuffer {
        var input = buffer
        return try input.decompress(with: .gzip())
    }
}
