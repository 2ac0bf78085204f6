import Foundation
import Hummingbird
import HummingbirdTesting
import PocketCore
import Testing
@testable import PocketWeb

@Suite("Security baseline")
struct SecurityTests {
    static let payloads = [
        "<script>alert(1)</script>",
        #""><img src=x onerror="alert(2)">"#,
        "<svg onload=alert(3)>",
        "' onmouseover='alert(4)",
    ]

    @Test func everyResponseCarriesSecurityHeaders() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            for uri in ["/", "/design", "/no/such/page", "/static/css/pocket.css"] {
                try await client.execute(uri: uri, method: .get) { response in
                    let csp = response.headers[.contentSecurityPolicy] ?? ""
                    #expect(csp.contains("script-src 'self'"), "\(uri)")
                    #expect(!csp.contains("unsafe-inline"), "\(uri)")
                    #expect(csp.contains("frame-ancestors 'none'"), "\(uri)")
                    #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(uri)")
                    #expect(response.headers[.referrerPolicy] == "same-origin", "\(uri)")
                    #expect(response.headers[.requestID]?.isEmpty == false, "\(uri)")
                }
            }
        }
    }

    /// The one inline script, the import map, is allowed by its hash alone, and maps every module
    /// to its versioned URL (so offline, the precached versions are the ones imported).
    @Test func theImportMapIsTheOnlyInlineScriptAndMapsEveryModule() async throws {
        let app = try await makeApplication()
        let renderer = try PageRenderer(resources: WebResources.bundled())
        try await app.test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                let html = response.text
                let open = #"<script type="importmap">"#
                guard let start = html.range(of: open), let end = html.range(of: "</script>", range: start.upperBound..<html.endIndex) else {
                    Issue.record("no import map in the page")
                    return
                }
                let json = String(html[start.upperBound..<end.lowerBound])
                let csp = response.headers[.contentSecurityPolicy] ?? ""
                #expect(json == renderer.importMap.json)
                #expect(csp.contains("script-src 'self' \(renderer.importMap.cspSource)"))
                #expect(renderer.importMap.cspSource.hasPrefix("'sha256-") && renderer.importMap.cspSource.count == 53)
                #expect(html.components(separatedBy: "<script").count == 3, "the import map and pocket.js, nothing else")
                let map = try JSONDecoder().decode([String: [String: String]].self, from: Data(json.utf8))
                let imports = map["imports"] ?? [:]
                for path in ["js/core/dom.js", "js/nav/navigation.js", "js/outbox.js", "js/offline/status.js", "js/murals/app.js"] {
                    #expect(imports["/static/\(path)"] == renderer.assets.url(path), "\(path)")
                    #expect(imports["/static/\(path)"]?.contains("?v=") == true, "\(path)")
                }
                #expect(imports["/static/js/service-worker.js"] == nil, "the service worker is not a page module")
            }
        }
    }

    @Test func appsWidenTheExternalSources() async throws {
        let app = try await makeApplication(apps: [FixtureApp()])
        try await app.test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                let csp = response.headers[.contentSecurityPolicy] ?? ""
                #expect(csp.contains("img-src 'self' data: https://images.example"))
                #expect(csp.contains("frame-src https://frames.example"))
            }
        }
    }

    @Test func sessionCookieIsHttpOnlyAndReused() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let header = try await client.execute(uri: "/", method: .get) { $0.headers[.setCookie] ?? "" }
            #expect(header.contains("HttpOnly"))
            #expect(header.contains("SameSite=Lax"))
            let token = try await client.sessionToken()
            try await client.execute(uri: "/", method: .get, headers: [.cookie: "pocket_csrf=\(token)"]) { response in
                #expect(response.headers[.setCookie] == nil)
                #expect(response.text.contains(#"<meta name="csrf-token" content="\#(token)">"#))
            }
        }
    }

    @Test(arguments: payloads)
    func outsideTextIsEscapedInPages(_ payload: String) async throws {
        let app = try await makeApplication()
        let query = payload.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        try await app.test(.router) { client in
            try await client.execute(uri: "/design?q=\(query)", method: .get) { response in
                #expect(response.status == .ok)
                #expect(!response.text.contains(payload))
                let escaped = payload.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                    .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
                #expect(response.text.contains(escaped) || response.text.contains(escaped.replacingOccurrences(of: "'", with: "&#39;")))
            }
        }
    }

    @Test func postWithoutTokenIsRefusedWithAFriendlyPage() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            try await client.execute(uri: "/design", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: "message=hi")) { response in
                #expect(response.status == .forbidden)
                #expect(response.text.contains("This page has expired"))
                #expect(response.text.contains(#"class="empty-state""#))
                #expect(!response.text.contains("design-post-echo"))
            }
        }
    }

    @Test func postWithWrongTokenIsRefused() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            let other = RandomToken.make()
            try await client.execute(uri: "/design", method: .post, headers: [.contentType: "application/x-www-form-urlencoded", .cookie: "pocket_csrf=\(token)"], body: ByteBuffer(string: "_csrf=\(other)&message=hi")) { response in
                #expect(response.status == .forbidden)
            }
        }
    }

    @Test func postFromAnotherOriginIsRefusedEvenWithTheToken() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            for foreign: HTTPFields in [[.origin: "https://evil.example"], [.origin: "null"], [.referer: "https://evil.example/page"]] {
                var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
                headers.append(contentsOf: foreign)
                try await client.execute(uri: "/design", method: .post, headers: headers, body: ByteBuffer(string: "_csrf=\(token)&message=hi")) { response in
                    #expect(response.status == .forbidden, "\(foreign)")
                }
            }
        }
    }

    @Test func postWithMatchingFieldIsAcceptedAndEchoedEscaped() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            let body = "_csrf=\(token)&message=%3Cb%3Ehello%3C%2Fb%3E+world"
            try await client.execute(uri: "/design", method: .post, headers: [.contentType: "application/x-www-form-urlencoded", .cookie: "pocket_csrf=\(token)"], body: ByteBuffer(string: body)) { response in
                #expect(response.status == .ok)
                #expect(response.text.contains(#"<span class="cell__title" id="design-post-echo">&lt;b&gt;hello&lt;/b&gt; world</span>"#))
            }
        }
    }

    @Test func postWithHeaderTokenIsAccepted() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            let headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .cookie: "pocket_csrf=\(token)", .csrfToken: token]
            try await client.execute(uri: "/design", method: .post, headers: headers, body: ByteBuffer(string: "message=ok")) { response in
                #expect(response.status == .ok)
                #expect(response.text.contains(#"id="design-post-echo">ok<"#))
            }
        }
    }

    @Test func crossSitePostIsRefusedEvenWithToken() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            let headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .cookie: "pocket_csrf=\(token)", .secFetchSite: "cross-site"]
            try await client.execute(uri: "/design", method: .post, headers: headers, body: ByteBuffer(string: "_csrf=\(token)&message=x")) { response in
                #expect(response.status == .forbidden)
            }
        }
    }

    @Test func oversizedFormIsRefused() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            let body = "_csrf=\(token)&message=" + String(repeating: "a", count: 1 << 21)
            try await client.execute(uri: "/design", method: .post, headers: [.contentType: "application/x-www-form-urlencoded", .cookie: "pocket_csrf=\(token)"], body: ByteBuffer(string: body)) { response in
                #expect(response.status == .contentTooLarge)
                #expect(response.text.contains("too large"))
            }
        }
    }
}
