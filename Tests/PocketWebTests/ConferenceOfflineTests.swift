import Conference
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import PocketCore
import TestSupport
import Testing
@testable import PocketWeb

/// Talk texts served from Pocket's origin (fetched from a loopback stand-in for their site) and
/// the list of what to keep offline for a conference, through the real router.
@Suite("Conference offline")
struct ConferenceOfflineTests {
    private func app(texts base: URL) async throws -> (some ApplicationProtocol, ConferenceLibrary) {
        let library = try await ConferenceFixtures.library()
        let conference = ConferenceApp(library: library, manifestURL: URL(fileURLWithPath: "/"), talkTextBase: base)
        return (try await makeApplication(apps: [conference]), library)
    }

    @Test func aTalksTextIsFetchedOnFirstViewStoredAndServedSandboxed() async throws {
        let site = TalkTexts()
        site.set(8769, .text("<p>Become as a little child <img src=\"/images/x.png\"></p>"))
        try await site.serving { base in
            let (app, library) = try await app(texts: base)
            try await app.test(.router) { client in
                try await client.execute(uri: "/conference/talks/8769/text", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.text.contains("<body>\n<p>Become as a little child <img src=\"/images/x.png\"></p>\n</body>"))
                    #expect(response.text.contains("<base href=\"\(base.absoluteString)/\" target=\"_blank\">"))
                    let csp = response.headers[.contentSecurityPolicy] ?? ""
                    #expect(csp.hasPrefix("sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; style-src 'unsafe-inline'; "))
                    #expect(csp.contains("img-src \(base.absoluteString) data:"))
                    #expect(csp.contains("frame-ancestors 'self'"))
                    #expect(!csp.contains("script-src"))
                    #expect(response.headers[.xFrameOptions] == "SAMEORIGIN")
                }
                // The second view answers from the store: the site is asked once.
                #expect(try await client.text("/conference/talks/8769/text").status == .ok)
                #expect(site.requests(for: 8769) == 1)
            }
            let archive = TalkTextArchive(library: library, base: URL(fileURLWithPath: "/"))
            let sizes = try await archive.storedSizes(talkIDs: [8769])
            #expect(sizes == [8769: Data("<p>Become as a little child <img src=\"/images/x.png\"></p>".utf8).count])
        }
    }

    /// Issue #34: a talk is opened when a page shown asks for its text, not when its page is
    /// answered (a service worker may show the saved copy or the Offline page instead, and a hung
    /// server answers when it wakes), and never by keeping it offline.
    @Test func aTalkIsOpenedWhenItsTextIsAskedForNotItsPageNorByKeeping() async throws {
        let site = TalkTexts()
        try await site.serving { base in
            let (app, _) = try await app(texts: base)
            try await app.test(.router) { client in
                #expect(try await client.text("/conference/talks/8769?from=conference-202504").status == .ok)
                #expect(try await client.text("/conference/talks/8770").status == .ok)
                try await client.execute(uri: "/conference/talks/8771/text", method: .get, headers: [.pocketKeep: "1"]) { response in
                    #expect(response.status == .ok)
                }
                let before = try await client.text("/conference")
                #expect(!before.text.contains(#"id="conference-recent""#))

                #expect(try await client.text("/conference/talks/8769/text").status == .ok)
                let after = try await client.text("/conference").text
                let recent = try #require(after.range(of: #"id="conference-recent""#))
                let section = String(after[recent.upperBound...]).components(separatedBy: "</section>")[0]
                #expect(section.contains(#"href="/conference/talks/8769""#))
                #expect(!section.contains("/conference/talks/8770") && !section.contains("/conference/talks/8771"))
            }
        }
    }

    @Test func aFailingSourceGivesAnEscapedErrorDocumentInsideTheFrame() async throws {
        let site = TalkTexts()
        site.set(8770, .status(503))
        try await site.serving { base in
            let (app, _) = try await app(texts: base)
            try await app.test(.router) { client in
                try await client.execute(uri: "/conference/talks/8770/text", method: .get) { response in
                    #expect(response.status == .badGateway)
                    #expect(response.text.contains(#"<p class="unavailable" id="talk-text-error" role="alert">The text of talk 8770 could not be fetched: 127.0.0.1: the server answered 503.</p>"#))
                    // Its own small document under the sandbox policy, not Pocket's error page.
                    #expect(!response.text.contains("navbar"))
                    #expect(response.headers[.contentSecurityPolicy]?.hasPrefix("sandbox ") == true)
                }
                // A talk the database lacks is never fetched from the site.
                #expect(try await client.text("/conference/talks/123456/text").status == .notFound)
                #expect(site.requests(for: 123456) == 0)
            }
        }
        let failure = ConferenceTalkText.failure("<script>alert(\"x\")</script> & more").description
        #expect(failure.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more"))
        #expect(!failure.contains("<script>"))
    }

    @Test func theKeepListNamesTheListTalksAndStoredTextsWithSizes() async throws {
        let site = TalkTexts()
        site.set(8771, .status(500))
        try await site.serving { base in
            let (app, library) = try await app(texts: base)
            let talks = try await library.conference(id: 202504).sessions.flatMap(\.talks).map(\.id)
            try await app.test(.router) { client in
                let (status, body) = try await client.text("/conference/conferences/202504/keep")
                #expect(status == .ok)
                let list = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
                #expect(list["conference"] as? Int == 202504)
                let items = try #require(list["items"] as? [[String: Any]])
                #expect(items.first?["url"] as? String == "/conference/conferences/202504")
                let pages = items.filter { $0["kind"] as? String == "talk" }.compactMap { $0["url"] as? String }
                // Each talk page under both its addresses: from the list, and from recent talks and bookmarks.
                #expect(pages == talks.flatMap { ["/conference/talks/\($0)?from=conference-202504", "/conference/talks/\($0)"] })
                let texts = items.filter { $0["kind"] as? String == "text" }
                #expect(texts.compactMap { $0["url"] as? String } == talks.filter { $0 != 8771 }.map { "/conference/talks/\($0)/text" })
                #expect(texts.first?["size"] as? Int == Data("<p>Text of talk \(talks[0])</p>".utf8).count)
                let missing = try #require(list["missing"] as? [[String: Any]])
                #expect(missing.compactMap { $0["talk"] as? Int } == [8771])
                for id in talks { #expect(site.requests(for: id) == 1) }
                // Again: stored texts are not fetched a second time; the failed one is tried again.
                _ = try await client.text("/conference/conferences/202504/keep")
                #expect(site.requests(for: talks[0]) == 1)
                #expect(site.requests(for: 8771) == 2)
                #expect(try await client.text("/conference/conferences/999/keep").status == .notFound)
                // The conference page offers it.
                let page = try await client.text("/conference/conferences/202504")
                #expect(page.text.contains(#"data-keep-list="/conference/conferences/202504/keep" data-keep-page="/conference/conferences/202504""#))
                #expect(page.text.contains(#"data-module="/static/js/conference/app.js?v="#))
            }
        }
    }

    @Test func theKeepListAndTextsNeedSignIn() async throws {
        let library = try await ConferenceFixtures.library()
        let app = try await makeApplication(apps: [ConferenceFixtures.app(library)], signedIn: false)
        try await app.test(.router) { client in
            for uri in ["/conference/conferences/202504/keep", "/conference/talks/8769/text"] {
                let status = try await client.text(uri).status
                #expect(status != .ok, "\(uri) answered a stranger")
            }
        }
    }
}

/// A loopback stand-in for the talk-text site, counting requests per talk.
private final class TalkTexts: @unchecked Sendable {
    enum Answer: Sendable {
        case text(String)
        case status(Int)
    }

    private let lock = NSLock()
    private var answers: [Int: Answer] = [:]
    private var counts: [Int: Int] = [:]

    func set(_ id: Int, _ answer: Answer) {
        lock.withLock { answers[id] = answer }
    }

    func requests(for id: Int) -> Int {
        lock.withLock { counts[id] ?? 0 }
    }

    func serving(_ body: @Sendable (URL) async throws -> Void) async throws {
        try await LoopbackServer.serving(addRoutes, body)
    }

    private func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("content/talks_ajax/:id") { [self] _, context -> Response in
            let id = try context.parameters.require("id", as: Int.self)
            let answer = lock.withLock { () -> Answer in
                counts[id, default: 0] += 1
                return answers[id] ?? .text("<p>Text of talk \(id)</p>")
            }
            switch answer {
            case .text(let html): return Response(status: .ok, headers: [.contentType: "text/html"], body: .init(byteBuffer: ByteBuffer(string: html)))
            case .status(let code): return Response(status: .init(code: code), body: .init(byteBuffer: ByteBuffer(string: "no")))
            }
        }
    }
}
