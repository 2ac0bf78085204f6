import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import PocketCore
import PocketTLS
import Testing
@testable import PocketWeb

@Suite("Pocket's own HTTPS: settings, pairing links, and a renewed certificate on a live server")
struct OwnHTTPSTests {
    private func signedInApp(_ household: TestHousehold, trust: TestTrust) throws -> some ApplicationProtocol {
        let renderer = try PageRenderer(resources: WebResources.bundled())
        let router = Router(context: PocketRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: SignInAs(member: household.owner))
        let people = WebPeople(store: household.people, throttle: AttemptThrottle(), setupToken: RandomToken.make(), trust: trust.web)
        return Application(router: buildRouter(renderer: renderer, apps: [], people: people, isTLS: true, router: router))
    }

    @Test func pairingLinksAreNameFirstThroughTheTrustPageAndOwnersSeeTheCertificate() async throws {
        let household = try await TestHousehold.make()
        let trust = try TestTrust(names: ServedNames(names: ["pocket.test", "laptop.local", "localhost"], addresses: ["192.168.1.20", "127.0.0.1", "::1"]))
        trust.setPorts(https: 8443, http: 8080)
        try await signedInApp(household, trust: trust).test(.router) { client in
            let token = household.owner.token
            let page = try await client.execute(uri: "/settings/pair", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                                                body: ByteBuffer(string: "_csrf=\(token)"))
            #expect(page.status == .ok)
            var links: [String] = []
            for match in page.text.matches(of: #/http://([a-z0-9.\[\]:]+):8080/trust#/join/([A-Za-z0-9_-]{43})/#) where !links.contains(String(match.1)) {
                links.append(String(match.1))
            }
            // The pairing code is only ever in the fragment, which a browser never sends over plain HTTP.
            #expect(links == ["pocket.test", "laptop.local", "192.168.1.20"])
            #expect(!page.text.contains(":8080/join/"))

            let settings = try await client.execute(uri: "/settings", method: .get)
            #expect(settings.text.contains(#"id="certificate-names">pocket.test, laptop.local, localhost<"#))
            #expect(settings.text.contains(#"id="certificate-addresses">192.168.1.20, 127.0.0.1, ::1<"#))
            #expect(settings.text.replacingOccurrences(of: "<wbr>", with: "").contains(trust.keeper.authority.fingerprint))
            #expect(settings.text.contains("http://pocket.test:8080/trust"))
        }
        // A member does not see it.
        let renderer = try PageRenderer(resources: WebResources.bundled())
        let router = Router(context: PocketRequestContext.self)
        router.add(middleware: SignInAs(member: household.member))
        let people = WebPeople(store: household.people, trust: trust.web)
        try await Application(router: buildRouter(renderer: renderer, apps: [], people: people, router: router)).test(.router) { client in
            let settings = try await client.execute(uri: "/settings", method: .get)
            #expect(settings.status == .ok && !settings.text.contains("certificate-names"))
        }
    }

    @Test func aPairedPhoneIsOfferedTheHomeScreen() async throws {
        let household = try await TestHousehold.make()
        let trust = try TestTrust()
        try await signedInApp(household, trust: trust).test(.router) { client in
            try await client.execute(uri: TrustRoute.welcome.href(), method: .get, headers: [.userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)"]) { response in
                #expect(response.status == .ok)
                #expect(response.text.contains("This phone is signed in as Owner"))
                #expect(response.text.contains("Tap Add to Home Screen"))
            }
        }
    }

    @Test func aLiveServerServesTheLeafAndNewConnectionsGetARenewedOneWithoutARestart() async throws {
        let household = try await TestHousehold.make()
        let trust = try TestTrust()
        var configuration = PocketConfiguration(host: "127.0.0.1", port: 0, dataDirectory: trust.folder)
        configuration.usesOwnCertificateAuthority = true
        configuration.httpPort = 0
        let (bound, continuation) = AsyncStream.makeStream(of: Void.self)
        let app = try await buildApplication(
            configuration: configuration, apps: [], people: WebPeople(store: household.people, trust: trust.web),
            resources: WebResources.bundled(), logger: Application(router: Router()).logger,
            onServerRunning: { port in trust.setPorts(https: port); continuation.yield() },
            onPlainServerRunning: { port in trust.setPorts(http: port); continuation.yield() }
        )
        // Hummingbird's live test runs the application with its services (the plain listener among
        // them); its own client speaks plain HTTP, so openssl and AsyncHTTPClient do the talking.
        try await app.test(.live) { _ in
            var listening = 0
            for await _ in bound {
                listening += 1
                if listening == 2 { break }
            }
            let httpsPort = trust.web.httpsPort(), httpPort = trust.web.httpPort()
            let caFile = trust.folder.appendingPathComponent("tls/ca.pem")

            let first = try openSSLClient(port: httpsPort, hostname: "pocket.test", caFile: caFile,
                                          request: "GET /signin HTTP/1.1\r\nHost: pocket.test\r\nConnection: close\r\n\r\n")
            #expect(first.verified, "\(first.output)")
            #expect(first.certificate == (try trust.keeper.current.pem).trimmingCharacters(in: .newlines))
            #expect(first.output.contains("HTTP/1.1 200 OK"))
            // The cookie is Secure; there is no HSTS: it would hold for every port of the host and
            // turn the trust page's plain-HTTP links (a later pairing QR code) into broken HTTPS ones.
            let headers = first.output.lowercased()
            #expect(headers.split(whereSeparator: \.isNewline).contains { $0.hasPrefix("set-cookie: pocket_csrf=") && $0.contains("secure") })
            #expect(!headers.contains("strict-transport-security"))
            #expect(try !openSSLClient(port: httpsPort, hostname: "renewed.test", caFile: caFile).verified)

            // A phone offers HTTP/2 beside HTTP/1.1 (ALPN) and gets it; a client offering none gets HTTP/1.1 (above).
            let offered = try openSSLClient(port: httpsPort, hostname: "pocket.test", caFile: caFile, alpn: "h2,http/1.1")
            #expect(offered.verified && offered.output.contains("ALPN protocol: h2"), "\(offered.output)")

            // A new name (as a new address would): the keeper renews, and the next connection has it,
            // whichever protocol it chooses.
            trust.setNames(ServedNames(names: ["pocket.test", "renewed.test", "localhost"], addresses: ["127.0.0.1", "::1"]))
            #expect(try trust.keeper.refresh() != nil)
            let renewed = try openSSLClient(port: httpsPort, hostname: "renewed.test", caFile: caFile, alpn: "h2,http/1.1")
            #expect(renewed.verified, "\(renewed.output)")
            #expect(renewed.output.contains("ALPN protocol: h2"), "\(renewed.output)")
            #expect(renewed.certificate == (try trust.keeper.current.pem).trimmingCharacters(in: .newlines))
            #expect(renewed.certificate != first.certificate)

            // The plain listener beside it: the trust page, and HTTPS for everything else.
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
            let page = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(httpPort)/trust"), timeout: .seconds(30))
            #expect(page.status == .ok)
            #expect(String(buffer: try await page.body.collect(upTo: 1 << 20)).replacingOccurrences(of: "<wbr>", with: "").contains(trust.keeper.authority.fingerprint))
            let other = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(httpPort)/plates"), timeout: .seconds(30))
            #expect(other.status == .temporaryRedirect)
            #expect(other.headers.first(name: "Location") == "https://127.0.0.1:\(httpsPort)/plates")
            try await client.shutdown()
        }
    }
}
