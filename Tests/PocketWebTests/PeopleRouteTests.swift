import Foundation
import Hummingbird
import HummingbirdTesting
import PocketCore
import Synchronization
import Testing
@testable import PocketWeb

/// Signing in, setup, pairing and Settings through the real router and real stored sessions.
@Suite("People routes")
struct PeopleRouteTests {
    private static let html: HTTPFields = [.accept: "text/html"]

    private func app(_ household: TestHousehold, throttle: AttemptThrottle = AttemptThrottle(), setupToken: String = RandomToken.make()) async throws -> some ApplicationProtocol {
        let renderer = try PageRenderer(resources: WebResources.bundled())
        let people = WebPeople(store: household.people, throttle: throttle, setupToken: setupToken)
        return Application(router: buildRouter(renderer: renderer, apps: [], people: people))
    }

    /// A stranger's anonymous token, from its cookie (as the sign-in form carries it).
    private func anonymousToken(_ client: some TestClientProtocol) async throws -> String {
        try await client.execute(uri: "/signin", method: .get) { response in
            try #require(response.csrfCookie)
        }
    }

    private func form(_ client: some TestClientProtocol, _ uri: String, cookie: String, token: String, _ fields: [String: String]) async throws -> TestResponse {
        let body = (fields.merging(["_csrf": token]) { a, _ in a }).map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        return try await client.execute(uri: uri, method: .post, headers: [.contentType: "application/x-www-form-urlencoded", .cookie: cookie], body: ByteBuffer(string: body))
    }

    private func sessionCookie(_ response: TestResponse) -> String? {
        response.headers[values: .setCookie].first { $0.hasPrefix(WebPeople.cookieName + "=") }
            .flatMap { $0.split(separator: ";").first.map(String.init) }
    }

    @Test func aStrangerGetsTheSignInPageOr401AndNothingElse() async throws {
        let household = try await TestHousehold.make()
        let app = try await app(household)
        try await app.test(.router) { client in
            for uri in ["/", "/design", "/settings"] {
                try await client.execute(uri: uri, method: .get, headers: Self.html) { response in
                    #expect(response.status == .unauthorized, "\(uri)")
                    #expect(response.text.contains(#"id="signin-form""#), "\(uri)")
                    #expect(response.text.contains(#"name="next" value="\#(uri)""#), "\(uri)")
                }
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .unauthorized, "\(uri)")
                    #expect(!response.text.contains("<html"), "\(uri)")
                }
            }
            let token = try await anonymousToken(client)
            let post = try await form(client, "/settings/people", cookie: "pocket_csrf=\(token)", token: token, ["name": "Mallory", "password": "12345678901"])
            #expect(post.status == .unauthorized)
            #expect(try await household.people.person(named: "Mallory") == nil)
            for uri in ["/static/css/pocket.css", "/manifest.webmanifest", "/sw.js", "/offline", "/signin", "/join"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(uri)")
                }
            }
        }
    }

    @Test func signingInGivesAYearLongHttpOnlySessionThatSurvivesAndSignsOut() async throws {
        let household = try await TestHousehold.make()
        let app = try await app(household)
        try await app.test(.router) { client in
            let token = try await anonymousToken(client)
            let response = try await form(client, "/signin", cookie: "pocket_csrf=\(token)", token: token, ["name": "bea", "password": "correct horse battery", "next": "/design"])
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/design")
            let setCookie = try #require(response.headers[values: .setCookie].first { $0.hasPrefix("pocket_session=") })
            #expect(setCookie.contains("HttpOnly"))
            #expect(setCookie.contains("SameSite=Lax"))
            let cookie = try #require(sessionCookie(response))
            let deviceToken = try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie]) { page in
                #expect(page.status == .ok)
                #expect(page.text.contains("Settings (Bea)"))
                return try #require(page.pageToken)
            }
            #expect(deviceToken != token)
            let devices = try await household.people.devices(of: household.member.person.id).devices
            #expect(devices.count == 2)
            // The device token, not the stranger's cookie token, is what its forms must carry.
            let refused = try await form(client, "/signout", cookie: cookie, token: token, [:])
            #expect(refused.status == .forbidden)
            let signedOut = try await form(client, "/signout", cookie: cookie, token: deviceToken, [:])
            #expect(signedOut.status == .seeOther)
            #expect(signedOut.headers[.clearSiteData] == #""cache", "storage""#)
            try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie]) { page in
                #expect(page.status == .unauthorized)
            }
        }
    }

    @Test func nextCanOnlyBeALocalPath() {
        #expect(SignInPage.safeNext("/plates?x=1") == "/plates?x=1")
        for hostile in ["//evil.example", "https://evil.example", "/\\evil.example", "evil", nil, "/signin", "/a\nb"] {
            #expect(SignInPage.safeNext(hostile) == "/", "\(String(describing: hostile))")
        }
    }

    @Test func theSixthWrongPasswordGets429AndTheRightOneWorksAfterTheWait() async throws {
        let household = try await TestHousehold.make()
        // The throttle's time moves only when the test moves it: on a loaded machine the five
        // bcrypt checks can take longer than any real wait, which then passed before the sixth.
        let clock = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let app = try await app(household, throttle: AttemptThrottle(baseDelay: 1, now: { clock.withLock { $0 } }))
        try await app.test(.router) { client in
            let token = try await anonymousToken(client)
            for attempt in 1...5 {
                let response = try await form(client, "/signin", cookie: "pocket_csrf=\(token)", token: token, ["name": "Owner", "password": "wrong password \(attempt)"])
                #expect(response.status == .unauthorized, "attempt \(attempt)")
                #expect(response.text.contains("That name and password do not match."))
            }
            let sixth = try await form(client, "/signin", cookie: "pocket_csrf=\(token)", token: token, ["name": "Owner", "password": "correct horse battery"])
            #expect(sixth.status == .tooManyRequests)
            let wait = try #require(sixth.headers[.retryAfter].flatMap(Int.init))
            #expect(wait >= 1)
            #expect(sixth.text.contains("Too many failed sign-ins"))
            clock.withLock { $0.addTimeInterval(Double(wait) - 0.2) }
            let early = try await form(client, "/signin", cookie: "pocket_csrf=\(token)", token: token, ["name": "Owner", "password": "correct horse battery"])
            #expect(early.status == .tooManyRequests)
            clock.withLock { $0.addTimeInterval(0.4) }
            let right = try await form(client, "/signin", cookie: "pocket_csrf=\(token)", token: token, ["name": "Owner", "password": "correct horse battery"])
            #expect(right.status == .seeOther)
        }
    }

    @Test func aNewPocketServesOnlyItsSetupLinkWhichWorksOnce() async throws {
        let people = try PeopleDatabase.inMemory()
        let renderer = try PageRenderer(resources: WebResources.bundled())
        let setup = RandomToken.make()
        let router = buildRouter(renderer: renderer, apps: [], people: WebPeople(store: people, setupToken: setup))
        try await Application(router: router).test(.router) { client in
            for uri in ["/", "/signin", "/join", "/settings"] {
                try await client.execute(uri: uri, method: .get, headers: Self.html) { response in
                    #expect(response.status == .serviceUnavailable, "\(uri)")
                    #expect(response.text.contains("This Pocket has no owner yet"), "\(uri)")
                }
            }
            try await client.execute(uri: "/setup/\(RandomToken.make())", method: .get) { response in
                #expect(response.status == .notFound)
            }
            let token = try await client.execute(uri: "/setup/\(setup)", method: .get) { response in
                #expect(response.status == .ok)
                return try #require(response.csrfCookie)
            }
            let mismatch = try await form(client, "/setup/\(setup)", cookie: "pocket_csrf=\(token)", token: token, ["name": "Ann", "password": "long enough", "confirm": "different!"])
            #expect(mismatch.status == .badRequest)
            let made = try await form(client, "/setup/\(setup)", cookie: "pocket_csrf=\(token)", token: token, ["name": "Ann", "password": "long enough", "confirm": "long enough"])
            #expect(made.status == .seeOther)
            #expect(made.headers[.location] == "/welcome", "the owner's phone gets the Home Screen guidance too")
            let owner = try #require(try await people.person(named: "ann"))
            #expect(owner.isOwner)
            #expect(owner.id == .firstOwner)
            let cookie = try #require(sessionCookie(made))
            try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/setup/\(setup)", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func aPairingLinkSignsAPhoneInOnceAndAnExpiredOneIsRefused() async throws {
        let household = try await TestHousehold.make()
        let app = try await app(household)
        try await app.test(.router) { client in
            let page = try await form(client, "/settings/pair", cookie: household.member.cookie, token: household.member.token, [:])
            #expect(page.status == .ok)
            #expect(page.text.contains(#"<img id="pair-qr" src="data:image/svg+xml;base64,"#))
            let link = try #require(page.text.firstMatch(of: #/id="pair-link" href="([^"]+)"/#)?.1)
            let path = try #require(URL(string: String(link))?.path)
            #expect(path.hasPrefix("/join/"))
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text.contains("Continue as Bea"))
            }
            let token = try await anonymousToken(client)
            let joined = try await form(client, path, cookie: "pocket_csrf=\(token)", token: token, [:])
            #expect(joined.status == .seeOther)
            let cookie = try #require(sessionCookie(joined))
            try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.text.contains("Settings (Bea)"))
            }
            let again = try await form(client, path, cookie: "pocket_csrf=\(token)", token: token, [:])
            #expect(again.status == .notFound)
            #expect(sessionCookie(again) == nil)

            // The short code, typed with a hyphen and in lower case, works once too.
            let short = try await household.people.makePairingCode(for: household.member.person.id)
            let typed = try await form(client, "/join", cookie: "pocket_csrf=\(token)", token: token, ["code": short.displayedShortCode.lowercased()])
            #expect(typed.status == .seeOther)
            // An expired one does not.
            let old = try await household.people.makePairingCode(for: household.member.person.id, at: Date().addingTimeInterval(-301))
            let expired = try await form(client, "/join/\(old.linkCode)", cookie: "pocket_csrf=\(token)", token: token, [:])
            #expect(expired.status == .notFound)
            #expect(expired.text.contains("may have expired"))
        }
    }

    @Test func theJoinPageNamesBothWaysToAPairingCode() async throws {
        let household = try await TestHousehold.make()
        let app = try await app(household)
        try await app.test(.router) { client in
            try await client.execute(uri: "/join", method: .get, headers: Self.html) { response in
                #expect(response.status == .ok)
                #expect(response.text.contains("Settings → Pair a Phone"))
                #expect(response.text.contains("<code>pocket pair</code>"))
            }
        }
    }

    @Test func aSignedOutDeviceIsRefusedOnItsNextRequest() async throws {
        let household = try await TestHousehold.make()
        let app = try await app(household)
        try await app.test(.router) { client in
            let second = try await household.people.addDevice(for: household.member.person.id, userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1")
            try await client.execute(uri: "/settings", method: .get, headers: [.cookie: household.member.cookie]) { response in
                #expect(response.text.contains("Safari on iPhone"))
                #expect(response.text.contains("Pocket tests (this device)") || response.text.contains("(this device)"))
            }
            // Bea cannot sign out the owner's device; she can sign out her own.
            let foreign = try await form(client, "/settings/devices/\(household.owner.device.id)/signout", cookie: household.member.cookie, token: household.member.token, [:])
            #expect(foreign.status == .notFound)
            let own = try await form(client, "/settings/devices/\(household.member.device.id)/signout", cookie: household.member.cookie, token: household.member.token, [:])
            #expect(own.status == .seeOther)
            try await client.execute(uri: "/", method: .get, headers: [.cookie: household.member.cookie]) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/", method: .get, headers: [.cookie: household.owner.cookie]) { response in
                #expect(response.status == .ok)
            }
            #expect(try await household.people.devices(of: household.member.person.id).devices.map(\.id) == [second.id])
        }
    }

    @Test func removeAsksFirstInSettingsAndOnItsOwnPageAndOnlyAnOwnerIsAsked() async throws {
        let household = try await TestHousehold.make()
        let app = try await app(household)
        let bea = household.member.person.id.rawValue
        try await app.test(.router) { client in
            try await client.execute(uri: "/settings", method: .get, headers: [.cookie: household.owner.cookie]) { response in
                let page = response.text
                // Remove is a link to the question (no form posts from the list), and the question is in the page for scripts.
                #expect(page.contains("<a class=\"button button--destructive\" href=\"/settings/people/\(bea)/remove\" data-dialog=\"remove-person-\(bea)\""))
                #expect(page.contains("<dialog class=\"alert\" id=\"remove-person-\(bea)\""))
                #expect(page.contains("<h2 class=\"alert__title\" id=\"remove-person-\(bea)-title\">Remove Bea?</h2>"))
                #expect(page.contains("<form class=\"alert__actions\" method=\"post\" action=\"/settings/people/\(bea)/remove\">"))
                #expect(!page.contains("remove-person-\(household.owner.person.id.rawValue)"), "the owner is asked to remove themselves")
            }
            try await client.execute(uri: "/settings/people/\(bea)/remove", method: .get, headers: [.cookie: household.owner.cookie]) { response in
                #expect(response.status == .ok)
                #expect(response.text.contains("<h2 class=\"alert__title\" id=\"confirm-title\">Remove Bea?</h2>"))
                #expect(response.text.contains("everything they keep in Pocket is deleted"))
                #expect(response.text.contains("<form class=\"alert__actions\" method=\"post\" action=\"/settings/people/\(bea)/remove\">"))
            }
            try await client.execute(uri: "/settings/people/\(household.owner.person.id.rawValue)/remove", method: .get, headers: [.cookie: household.member.cookie]) { response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(uri: "/settings/people/999/remove", method: .get, headers: [.cookie: household.owner.cookie]) { response in
                #expect(response.status == .notFound)
            }
            // Asking removed no one.
            #expect(try await household.people.person(named: "Bea") != nil)
        }
    }

    @Test func onlyOwnersManagePeopleAndPairOthers() async throws {
        let household = try await TestHousehold.make()
        let app = try await app(household)
        try await app.test(.router) { client in
            let added = try await form(client, "/settings/people", cookie: household.member.cookie, token: household.member.token, ["name": "Cal", "password": "long enough"])
            #expect(added.status == .forbidden)
            let pairOwner = try await form(client, "/settings/pair", cookie: household.member.cookie, token: household.member.token, ["person": "\(household.owner.person.id.rawValue)"])
            #expect(pairOwner.status == .forbidden)
            let removed = try await form(client, "/settings/people/\(household.owner.person.id.rawValue)/remove", cookie: household.member.cookie, token: household.member.token, [:])
            #expect(removed.status == .forbidden)
            try await client.execute(uri: "/settings", method: .get, headers: [.cookie: household.member.cookie]) { response in
                #expect(!response.text.contains("settings-add-person"))
            }

            let ownerAdds = try await form(client, "/settings/people", cookie: household.owner.cookie, token: household.owner.token, ["name": "Cal", "password": "long enough"])
            #expect(ownerAdds.status == .seeOther)
            let duplicate = try await form(client, "/settings/people", cookie: household.owner.cookie, token: household.owner.token, ["name": "cal", "password": "long enough"])
            #expect(duplicate.status == .badRequest)
            #expect(duplicate.text.contains("Someone is already called"))
            let lastOwner = try await form(client, "/settings/people/\(household.owner.person.id.rawValue)/remove", cookie: household.owner.cookie, token: household.owner.token, [:])
            #expect(lastOwner.status == .badRequest)
            let removeBea = try await form(client, "/settings/people/\(household.member.person.id.rawValue)/remove", cookie: household.owner.cookie, token: household.owner.token, [:])
            #expect(removeBea.status == .seeOther)
            try await client.execute(uri: "/", method: .get, headers: [.cookie: household.member.cookie]) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }
}
