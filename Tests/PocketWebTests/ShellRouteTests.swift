import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import PocketCore
import Testing
@testable import PocketWeb

@Suite("Shell pages")
struct ShellRouteTests {
    /// The home screen is kept rendered (`PageMemo`), yet each person gets the one naming them and
    /// their own device's token, however the requests interleave; asking again gives the same bytes.
    @Test func aKeptHomeScreenIsEachPersonsOwn() async throws {
        let household = try await TestHousehold.make()
        let web = WebPeople(store: household.people, throttle: AttemptThrottle(), setupToken: RandomToken.make())
        let app = Application(router: buildRouter(renderer: try PageRenderer(resources: WebResources.bundled()), apps: [], people: web))
        try await app.test(.router) { client in
            let pages = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for index in 0..<40 {
                    let member = index.isMultiple(of: 2) ? household.owner : household.member
                    group.addTask { (index, try await client.execute(uri: "/", method: .get, headers: [.cookie: member.cookie]).text) }
                }
                return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
            }
            for (index, page) in pages {
                let (me, other) = index.isMultiple(of: 2) ? (household.owner, household.member) : (household.member, household.owner)
                #expect(page.contains("Settings (\(me.person.name))") && !page.contains("Settings (\(other.person.name))"))
                #expect(page.contains(me.token) && !page.contains(other.token))
                #expect(page == pages[index % 2], "the same person's home screen, byte for byte")
            }
        }
    }

    @Test func homeShowsEmptySpringboardWithoutApps() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.text.contains("<title>Pocket</title>"))
                #expect(response.text.contains("No apps are registered"))
                #expect(response.text.contains(#"viewport-fit=cover"#))
                #expect(response.text.contains(#"<link rel="manifest" href="/manifest.webmanifest">"#))
                #expect(response.text.contains(#"name="apple-mobile-web-app-capable" content="yes""#))
                #expect(response.text.contains(#"rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png?v="#))
            }
        }
    }

    @Test func registeredAppAppearsOnHomeAndServesBelowItsPrefix() async throws {
        let app = try await makeApplication(apps: [FixtureApp()])
        try await app.test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.text.contains(#"<a class="app-tile" href="/fixture" title="A test app &amp; more">"#))
                #expect(response.text.contains("Fixture &lt;App&gt;"))
                #expect(response.text.contains("/static/icons/apps/plates.svg?v="))
                #expect(!response.text.contains("No apps are registered"))
            }
            try await client.execute(uri: "/fixture", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text.contains("<title>Fixture · Pocket</title>"))
            }
        }
    }

    @Test func designPageShowsEveryComponent() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            try await client.execute(uri: "/design", method: .get) { response in
                #expect(response.status == .ok)
                let components = ["navbar", "list", "section-index", "controls", "segmented", "switch", "slider", "stepper", "wheel", "progress", "buttons", "alert", "action-sheet", "form", "split", "toolbar", "live"]
                for component in components {
                    #expect(response.text.contains(#"data-component="\#(component)""#), "missing \(component)")
                }
                for letter in ["A", "M", "Z"] {
                    #expect(response.text.contains(##"<a href="#section-\##(letter)">\##(letter)</a>"##))
                }
                #expect(response.text.contains(#"class="navbar__back" href="/" data-nav="back""#))
                #expect(response.text.contains(#"data-sse="/design/events""#))
                #expect(response.text.contains(#"<progress class="progress" id="demo-progress-bar" max="100" value="42">"#))
            }
        }
    }

    @Test func splitViewMarksTheSelectedDetail() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            try await client.execute(uri: "/design?planet=mars", method: .get) { response in
                #expect(response.text.contains("split--detail"))
                #expect(response.text.contains(#"<h3 class="split__title">Mars</h3>"#))
                #expect(response.text.contains(#"aria-current="page""#))
            }
            try await client.execute(uri: "/design?planet=pluto", method: .get) { response in
                #expect(!response.text.contains("split--detail"))
                #expect(response.text.contains("Select a planet"))
            }
        }
    }

    @Test func offlinePageAndHEADWork() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            try await client.execute(uri: "/offline", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text.contains("can’t reach its server"))
            }
            try await client.execute(uri: "/", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.text.isEmpty)
            }
        }
    }
}

@Suite("Live updates")
struct LiveUpdateTests {
    @Test func designEventsStreamPatchesTheClock() async throws {
        let app = try await makeApplication()
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/design/events"), timeout: .seconds(60))
            #expect(response.headers.first(name: "Content-Type") == "text/event-stream; charset=utf-8")
            var text = ""
            for try await chunk in response.body {
                text += String(buffer: chunk)
                if text.contains("\n\n") { break }
            }
            let lines = text.split(separator: "\n").map(String.init)
            #expect(lines.first == "event: patch")
            #expect(lines.last?.hasPrefix(#"data: <output class="cell__detail" id="design-clock""#) == true)
        }
    }
}

/// `GET /healthz`: for a monitor, with no sign-in and nothing personal in it.
@Suite("Health check route")
struct HealthRouteTests {
    /// An app whose store cannot be read.
    private struct Unwell: PocketApp {
        var descriptor: AppDescriptor { AppDescriptor(id: "unwell", name: "Unwell", icon: "icons/apps/plates.svg", summary: "A sick app") }
        func addRoutes(to group: RouterGroup<PocketRequestContext>, environment: WebEnvironment) {}
        func healthProblem() async -> String? { "the database cannot be read (SQLITE_NOTADB)" }
    }

    @Test func everyStoreWellIs200WithTheVersionEvenBeforeSetUpAndWithoutSignIn() async throws {
        let people = try PeopleDatabase.inMemory()
        let renderer = try PageRenderer(resources: WebResources.bundled())
        let router = buildRouter(renderer: renderer, apps: [FixtureApp()], people: WebPeople(store: people))
        try await Application(router: router).test(.router) { client in
            let response = try await client.execute(uri: "/healthz", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let answer = try JSONDecoder().decode([String: String].self, from: Data(buffer: response.body))
            #expect(answer == ["status": "ok", "version": PocketVersion.current])
        }
    }

    @Test func anUnwellStoreIs503NamingIt() async throws {
        let app = try await makeApplication(apps: [Unwell()], signedIn: false)
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/healthz", method: .get)
            #expect(response.status == .serviceUnavailable)
            #expect(response.text == #"{"status":"unwell","unwell":{"unwell":"the database cannot be read (SQLITE_NOTADB)"},"version":"\#(PocketVersion.current)"}"#)
        }
    }
}
