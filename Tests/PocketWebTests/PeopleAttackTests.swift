import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import PocketCore
import Testing
@testable import PocketWeb

/// The people routes under attack, over real HTTP on loopback and many requests at once (issue
/// #23's D4, D5, D6, D9, D10, D11 and DNS rebinding). Requests come through a trusted proxy on
/// loopback, so each can say which client address it is from (`X-Forwarded-For`).
@Suite("People under attack")
struct PeopleAttackTests {
    /// The real router on a live server whose trusted proxy is loopback.
    private func app(_ people: PeopleDatabase, setupToken: String = RandomToken.make(), hosts: ServedHosts = .any,
                     trustedProxy: String? = "127.0.0.1") throws -> some ApplicationProtocol {
        let renderer = try PageRenderer(resources: WebResources.bundled())
        let web = WebPeople(store: people, throttle: AttemptThrottle(), setupToken: setupToken, trustedProxy: trustedProxy)
        return Application(router: buildRouter(renderer: renderer, apps: [], people: web, hosts: hosts))
    }

    /// The attackers' client: no redirect followed, and forty requests at once really go at once.
    /// AsyncHTTPClient keeps 8 connections to a host by default and fails a request that waits
    /// 10 s for one, which the full suite on a loaded machine once made a queued request do.
    private static let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(
        redirectConfiguration: .disallow, timeout: .init(connect: .seconds(60)),
        connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)))

    /// A request as a browser at `address` sends it, with no redirect followed.
    private struct Browser {
        let base: String
        let address: String

        func send(_ path: String, form: [String: String]? = nil, cookie: String? = nil,
                  host: String? = nil) async throws -> (status: Int, body: String, cookies: [String]) {
            var request = HTTPClientRequest(url: base + path)
            if form != nil { request.method = .POST }
            request.headers.add(name: "X-Forwarded-For", value: address)
            request.headers.add(name: "Accept", value: "text/html")
            if let host { request.headers.replaceOrAdd(name: "Host", value: host) }
            if let cookie { request.headers.add(name: "Cookie", value: cookie) }
            if let form {
                request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                let text = form.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
                request.body = .bytes(ByteBuffer(string: text))
            }
            let response = try await PeopleAttackTests.client.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 4 << 20)
            return (Int(response.status.code), String(buffer: body), response.headers["Set-Cookie"])
        }

        /// The stranger's CSRF cookie and token, as the sign-in form carries them.
        func anonymousToken() async throws -> (cookie: String, token: String) {
            let page = try await send("/signin")
            let cookie = try #require(page.cookies.first { $0.hasPrefix("pocket_csrf=") }?.split(separator: ";").first.map(String.init))
            return (cookie, String(cookie.dropFirst("pocket_csrf=".count)))
        }
    }

    private func run(_ app: some ApplicationProtocol, _ body: @escaping @Sendable (String) async throws -> Void) async throws {
        try await app.test(.live) { client in
            try await body("http://127.0.0.1:\(try #require(client.port))")
        }
    }

    @Test func fortyWrongPasswordsAtOnceGetNoMoreThanTheFreeChecks() async throws {
        let people = try PeopleDatabase.inMemory()
        _ = try await people.addPerson(name: "ann", password: "correct horse battery", isOwner: true)
        try await run(try app(people)) { base in
            let browser = Browser(base: base, address: "10.0.0.66")
            let (cookie, token) = try await browser.anonymousToken()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for attempt in 0..<40 {
                    group.addTask {
                        try await browser.send("/signin", form: ["name": "ann", "password": "guess \(attempt)", "_csrf": token], cookie: cookie).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 401 }.count == 5, "password checks: \(statuses.sorted())")
            #expect(statuses.filter { $0 == 429 }.count == 35)
        }
    }

    @Test func wrongPasswordsFromOneAddressNeverLockThePersonOutElsewhere() async throws {
        let people = try PeopleDatabase.inMemory()
        _ = try await people.addPerson(name: "ann", password: "correct horse battery", isOwner: true)
        try await run(try app(people)) { base in
            let attacker = Browser(base: base, address: "10.0.0.66"), ann = Browser(base: base, address: "10.0.0.7")
            let (cookie, token) = try await attacker.anonymousToken()
            for attempt in 0..<6 {
                _ = try await attacker.send("/signin", form: ["name": "ann", "password": "guess \(attempt)", "_csrf": token], cookie: cookie)
            }
            let blocked = try await attacker.send("/signin", form: ["name": "ann", "password": "correct horse battery", "_csrf": token], cookie: cookie)
            #expect(blocked.status == 429)
            let (annCookie, annToken) = try await ann.anonymousToken()
            let signedIn = try await ann.send("/signin", form: ["name": "ann", "password": "correct horse battery", "_csrf": annToken], cookie: annCookie)
            #expect(signedIn.status == 303)
        }
    }

    @Test func theSetupLinkPostedEightTimesAtOnceMakesOneOwner() async throws {
        let people = try PeopleDatabase.inMemory()
        let setup = RandomToken.make()
        try await run(try app(people, setupToken: setup)) { base in
            let browser = Browser(base: base, address: "10.0.0.8")
            let page = try await browser.send("/setup/\(setup)")
            let cookie = try #require(page.cookies.first { $0.hasPrefix("pocket_csrf=") }?.split(separator: ";").first.map(String.init))
            let token = String(cookie.dropFirst("pocket_csrf=".count))
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await browser.send("/setup/\(setup)",
                                               form: ["name": "owner\(index)", "password": "long enough", "confirm": "long enough", "_csrf": token], cookie: cookie).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 303 }.count == 1, "\(statuses)")
            #expect(try await people.people().count == 1)
        }
    }

    @Test func aPairingLinkPageAnswersOnlyLongCodesAndIsThrottled() async throws {
        let people = try PeopleDatabase.inMemory()
        let bea = try await people.addPerson(name: "Bea Ng", password: "correct horse battery", isOwner: true)
        let code = try await people.makePairingCode(for: bea.id)
        try await run(try app(people)) { base in
            let guesser = Browser(base: base, address: "10.0.0.66"), phone = Browser(base: base, address: "10.0.0.9")
            // A valid short code in the address is not looked up, so it names no one. (The name has a
            // space, which no random token in the page can hold: "Bea" alone was once inside its CSRF token.)
            let short = try await guesser.send("/join/\(code.shortCode)")
            #expect(short.status == 404)
            #expect(!short.body.contains("Bea Ng"))
            // Guessing at once: after the free attempts, every look-up waits.
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<40 { group.addTask { try await guesser.send("/join/\(RandomToken.make())").status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 429 }.count >= 35, "\(statuses.sorted())")
            #expect(try await guesser.send("/join/\(code.linkCode)").status == 429, "the right code waits too, from the guessing address")
            // The phone the code was made for, elsewhere, still pairs.
            let page = try await phone.send("/join/\(code.linkCode)")
            #expect(page.status == 200)
            #expect(page.body.contains("Continue as Bea Ng"))
        }
    }

    @Test func theCurrentPasswordCheckIsThrottledPerPerson() async throws {
        let household = try await TestHousehold.make()
        try await run(try app(household.people)) { base in
            let member = household.member
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for attempt in 0..<12 {
                    let address = "10.0.1.\(attempt)"
                    group.addTask {
                        try await Browser(base: base, address: address).send(
                            "/settings/password",
                            form: ["current": "guess \(attempt)", "password": "a new password", "_csrf": member.token], cookie: member.cookie).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 400 }.count == 5, "\(statuses.sorted())")
            #expect(statuses.filter { $0 == 429 }.count == 7)
            let right = try await Browser(base: base, address: "10.0.2.1").send(
                "/settings/password", form: ["current": "correct horse battery", "password": "a new password", "_csrf": member.token],
                cookie: member.cookie)
            #expect(right.status == 429, "the right password waits too, once guessing started")
            #expect(try await household.people.verify(name: member.person.name, password: "correct horse battery") != nil)
        }
    }

    @Test func signingInAgainAndAgainKeepsTheDeviceListBounded() async throws {
        let people = try PeopleDatabase.inMemory()
        let ann = try await people.addPerson(name: "ann", password: "correct horse battery", isOwner: true)
        for index in 0..<60 {
            _ = try await people.addDevice(for: ann.id, userAgent: "phone \(index)", at: Date(timeIntervalSince1970: 1_800_000_000 + Double(index)))
        }
        let (devices, total) = try await people.devices(of: ann.id)
        #expect(total == PeopleDatabase.devicesPerPerson)
        // The ones kept are the most recently used.
        #expect(devices.first?.name == "Unknown browser" || devices.map(\.lastSeen).sorted(by: >) == devices.map(\.lastSeen))
        #expect(devices.map(\.lastSeen).min() == Date(timeIntervalSince1970: 1_800_000_000 + Double(60 - PeopleDatabase.devicesPerPerson)))
    }

    @Test func settingsListsAFewDevicesAndOffersTheRest() async throws {
        let household = try await TestHousehold.make()
        for index in 0..<9 {
            _ = try await household.people.addDevice(for: household.owner.person.id, userAgent: "phone \(index)")
        }
        try await run(try app(household.people)) { base in
            let browser = Browser(base: base, address: "10.0.0.10")
            let page = try await browser.send("/settings", cookie: household.owner.cookie)
            #expect(page.body.components(separatedBy: "/signout\" data-signout").count + page.body.components(separatedBy: "/signout\">").count - 2 == SettingsPage.Model.devicesShown)
            #expect(page.body.contains("Show all 10 devices"))
            let all = try await browser.send("/settings?devices=all", cookie: household.owner.cookie)
            #expect(!all.body.contains("Show all"))
            #expect(all.body.contains("phone 0") || all.body.contains("Unknown browser"))
        }
    }

    @Test func aNameThisPocketDoesNotServeIsRefused() async throws {
        let household = try await TestHousehold.make()
        // No proxy in front: a proxy's requests are left to the proxy, which chose the name.
        try await run(try app(household.people, hosts: .thisMachine(bind: "0.0.0.0", extra: ["pocket.example"]), trustedProxy: nil)) { base in
            let port = base.split(separator: ":").last.map(String.init) ?? ""
            let browser = Browser(base: base, address: "10.0.0.11")
            // A page on another site whose name points at Pocket (DNS rebinding) sends that name.
            let rebound = try await browser.send("/signin", host: "attacker.example:\(port)")
            #expect(rebound.status == 421)
            #expect(!rebound.body.contains("signin-form"))
            for host in ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)", "192.168.1.20:\(port)", "pocket.example", "POCKET.EXAMPLE:\(port)"] {
                #expect(try await browser.send("/signin", host: host).status == 200, "\(host)")
            }
        }
    }
}
