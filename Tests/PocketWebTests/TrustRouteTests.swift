import Foundation
import Hummingbird
import HummingbirdTesting
import PocketCore
import PocketTLS
import Testing
@testable import PocketWeb

@Suite("The plain-HTTP listener: trust page, CA downloads, redirects")
struct TrustRouteTests {
    private func plainApp(_ trust: TestTrust?) throws -> some ApplicationProtocol {
        let renderer = try PageRenderer(resources: WebResources.bundled())
        return Application(router: buildPlainRouter(renderer: renderer, trust: trust?.web, httpsPort: { 8443 }))
    }

    @Test func theTrustPageExplainsOffersTheRightDownloadAndShowsTheFingerprint() async throws {
        let trust = try TestTrust()
        let iPhone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile/15E148 Safari/604.1"
        try await plainApp(trust).test(.router) { client in
            try await client.execute(uri: "/trust", method: .get, headers: [.userAgent: iPhone]) { response in
                #expect(response.status == .ok)
                let page = response.text
                #expect(page.replacingOccurrences(of: "<wbr>", with: "").contains(trust.keeper.authority.fingerprint))
                #expect(page.contains("“Pocket on testhost”"))
                #expect(page.contains(#"data-https-port="8443""#))
                // The test client asks for localhost: the same host name on the HTTPS port.
                #expect(page.contains(#"<a href="https://localhost:8443/" id="trust-continue">"#))
                // The iPhone's steps come first and open; the others follow, closed.
                let apple = try #require(page.range(of: #"id="trust-apple" data-platform="apple" open>"#))
                let android = try #require(page.range(of: #"id="trust-android" data-platform="android">"#))
                #expect(apple.lowerBound < android.lowerBound)
                #expect(page.contains("Certificate Trust Settings"))
                #expect(page.contains(#"href="/trust/Pocket.mobileconfig" download"#))
                // Pocket's client (service worker, outbox) is not on plain HTTP; the page's own script is.
                #expect(!page.contains("js/pocket.js"))
                #expect(page.contains("/static/js/trust.js?v="))
                #expect(response.headers[values: .setCookie].isEmpty)
                #expect(response.headers[.contentSecurityPolicy]?.contains("connect-src 'self' https://localhost:8443;") == true)
                #expect(response.headers[.cacheControl] == "no-store")
            }
            try await client.execute(uri: "/trust", method: .get, headers: [.userAgent: "Mozilla/5.0 (Linux; Android 14)"]) { response in
                #expect(response.text.contains(#"id="trust-android" data-platform="android" open>"#))
            }
        }
    }

    @Test func eachDevicesStepsAndDownloadComeFirstAndOpen() {
        let downloads: [PhonePlatform: TrustDownload] = [.apple: .appleProfile, .android: .der, .other: .pem]
        for platform in PhonePlatform.allCases {
            let model = TrustPage.Model(authorityName: "Pocket on laptop", fingerprint: "AB:CD", platform: platform, host: "[fd00::5]",
                                        httpsPort: 8443, probePath: "/p")
            #expect(model.sections.map(\.platform).first == platform)
            #expect(Set(model.sections.map(\.platform)) == Set(PhonePlatform.allCases))
            #expect(model.sections.filter(\.isOpen).map(\.platform) == [platform])
            #expect(model.sections.first?.downloadHref == downloads[platform].map { TrustRoute.download($0).href() })
            #expect(model.sections.first?.steps.last == "Come back to this page: it notices and carries on by itself.")
            #expect(model.httpsURL == "https://[fd00::5]:8443/")
        }
        #expect(PhonePlatform(userAgent: "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X)") == .apple)
        #expect(PhonePlatform(userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8)") == .android)
        #expect(PhonePlatform(userAgent: nil) == .other)
        #expect(Welcome.Model(personName: "Bea", platform: .android).steps.contains { $0.contains("Add to Home screen") })
    }

    @Test func theDownloadsAreTheCAInEachForm() async throws {
        let trust = try TestTrust()
        try await plainApp(trust).test(.router) { client in
            for file in TrustDownload.allCases {
                try await client.execute(uri: TrustRoute.download(file).href(), method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == file.contentType)
                    #expect(response.headers[.contentDisposition] == "attachment; filename=\"\(file.fileName)\"")
                    let expected = try file.bytes(for: trust.keeper.authority)
                    #expect(Array(response.body.readableBytesView) == expected)
                    #expect(response.headers[values: .setCookie].isEmpty)
                }
            }
            try await client.execute(uri: TrustRoute.download(.der).href(), method: .get) { response in
                #expect(Array(response.body.readableBytesView) == trust.keeper.authority.derBytes)
            }
            // The key is never served, under any name.
            for path in ["/tls/ca.key", "/trust/ca.key", "/static/../tls/ca.key"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(!response.text.contains("PRIVATE KEY"))
                }
            }
        }
    }

    @Test func everythingElseIsRedirectedToTheSameHostOnHTTPSWithoutACookie() async throws {
        let trust = try TestTrust()
        try await plainApp(trust).test(.router) { client in
            for (method, uri) in [(HTTPRequest.Method.get, "/plates?show=all"), (.get, "/"), (.post, "/signin"), (.get, "/join/abc"), (.get, "/setup/xyz")] {
                try await client.execute(uri: uri, method: method) { response in
                    #expect(response.status == .temporaryRedirect, "\(uri)")
                    #expect(response.headers[.location] == "https://localhost:8443\(uri)")
                    #expect(response.headers[values: .setCookie].isEmpty)
                }
            }
            try await client.execute(uri: "/static/js/trust.js", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func besideThePersonsOwnCertificateThePlainListenerOnlyRedirects() async throws {
        try await plainApp(nil).test(.router) { client in
            for uri in ["/trust", TrustRoute.download(.pem).href(), "/static/css/pocket.css"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .temporaryRedirect)
                    #expect(response.headers[.location] == "https://localhost:8443\(uri)")
                }
            }
        }
    }
}
