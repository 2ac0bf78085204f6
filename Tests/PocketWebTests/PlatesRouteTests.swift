import Foundation
import Hummingbird
import HummingbirdTesting
import Plates
import PocketCore
import TestSupport
import Testing
@testable import PocketWeb

/// The Plates screens through the real router, on an in-memory game, with plate pictures
/// fetched from a fixture server on loopback.
@Suite("Plates routes")
struct PlatesRouteTests {
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x17, count: 64))

    private struct Fixture {
        let database: PlatesDatabase
        /// The owner's game: route tests run as the owner until sign-in lands.
        let store: PlatesGame
        let catalog: StateCatalog
        let images: PlateImageCache
        let app: PlatesApp
    }

    /// `imageBase` is a fixture picture server; the page then waits for its answer however slow the
    /// machine is. Without one, pictures come from a port nothing listens on.
    private func fixture(imageBase: URL? = nil) throws -> Fixture {
        let catalog = try StateCatalog.bundled()
        let database = try PlatesDatabase.inMemory(catalog: catalog)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plates-web-\(UUID().uuidString)")
        let images = PlateImageCache(folder: folder, fetcher: LiveHTTPFetcher(), base: imageBase ?? URL(string: "http://127.0.0.1:9"), patience: imageBase == nil ? .seconds(3) : .seconds(60))
        let app = PlatesApp(database: database, catalog: catalog, images: images)
        return Fixture(database: database, store: database.game(for: .firstOwner), catalog: catalog, images: images, app: app)
    }

    private func post(_ client: some TestClientProtocol, _ uri: String, token: String, body: String = "") async throws -> TestResponse {
        try await client.execute(uri: uri, method: .post, headers: [.contentType: "application/x-www-form-urlencoded", .cookie: "pocket_csrf=\(token)"], body: ByteBuffer(string: "_csrf=\(token)&" + body))
    }

    @Test func homeListsPlatesAndTheListShowsSectionsScoreAndToolbar() async throws {
        let fixture = try fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.text.contains(#"<a class="app-tile" href="/plates""#))
            }
            try await client.execute(uri: "/plates", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.text.contains("<title>US States · Pocket</title>"))
                #expect(response.text.contains(#"<span class="toolbar__item" id="plates-score" role="status" data-score-text="Score: {} / 50">Score: 0 / 50</span>"#))
                #expect(response.text.contains("Reset Game"))
                let headers = response.text.components(separatedBy: #"<h2 class="list-section__header" id="section-"#).dropFirst().map { String($0.prefix(1)) }
                #expect(headers.joined() == "ACDFGHIKLMNOPRSTUVW")
                #expect(response.text.contains(#"href="/static/css/apps/plates.css?v="#))
                #expect(response.text.components(separatedBy: #"class="cell__info""#).count - 1 == 50)
            }
        }
    }

    @Test func aStatePageCarriesTheListForTheIPadSplitView() async throws {
        let fixture = try fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            _ = try await post(client, "/plates/states/AL/spot", token: token)
            _ = try await post(client, "/plates/states/OR/spot", token: token)
            try await client.execute(uri: "/plates/states/OR", method: .get) { response in
                let html = response.text
                // The list is beside the state (CSS shows both from 48rem, the state alone on a phone) ...
                #expect(html.contains(#"<div class="split split--pane plates-split split--detail" data-module="/static/js/plates/app.js?v="#))
                #expect(html.contains(#"<li class="cell cell--bg-green cell--spotted plates-cell--selected" id="state-OR" data-state="OR" data-name="Oregon""#))
                #expect(html.contains(#"data-alert="unspot-OR" aria-current="true">"#))
                // ... with one un-spot alert per state: Oregon's own page has it, the list keeps Alabama's.
                #expect(html.components(separatedBy: #"id="unspot-OR""#).count == 2)
                #expect(html.components(separatedBy: #"id="unspot-AL""#).count == 2)
                // The game's toolbar belongs to the list alone.
                #expect(!html.contains(#"id="plates-toolbar""#))
                #expect(html.contains(#"<h1 class="navbar__title" tabindex="-1">Oregon</h1>"#))
            }
            try await client.execute(uri: "/plates", method: .get) { response in
                #expect(response.text.contains(#"<div class="split split--pane plates-split" data-module="/static/js/plates/app.js?v="#))
                #expect(response.text.contains(#"id="plates-toolbar""#))
                #expect(!response.text.contains("plates-cell--selected"))
            }
        }
    }

    @Test func spottingUnspottingAndResettingChangeTheScore() async throws {
        let fixture = try fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            let spotted = try await post(client, "/plates/states/AL/spot", token: token)
            #expect(spotted.status == .seeOther)
            #expect(spotted.headers[.location] == "/plates")
            _ = try await post(client, "/plates/states/tx/spot", token: token)
            try await client.execute(uri: "/plates", method: .get) { response in
                #expect(response.text.contains("Score: 2 / 50"))
                #expect(response.text.contains(#"<li class="cell cell--bg-green cell--spotted" id="state-AL" data-state="AL" data-name="Alabama""#))
                #expect(response.text.contains(#"<dialog class="alert" id="unspot-AL""#))
                #expect(response.text.contains("Reset Alabama?"))
                // The alerts' buttons are verbs, as iOS alerts are, never Yes and No.
                #expect(response.text.contains(#"command="close">Cancel</button>"#))
                #expect(response.text.contains(">Un-spot</button>"))
                #expect(response.text.contains(">Reset</button>"))
                #expect(!response.text.contains(">Yes</button>"))
                #expect(!response.text.contains(">No</button>"))
            }
            _ = try await post(client, "/plates/states/AL/unspot", token: token)
            #expect(try await fixture.store.snapshot().score == 1)
            _ = try await post(client, "/plates/reset", token: token)
            #expect(try await fixture.store.snapshot().score == 0)
        }
    }

    @Test func changesNeedTheTokenAndUnknownStatesAre404() async throws {
        let fixture = try fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            try await client.execute(uri: "/plates/states/AL/spot", method: .post) { response in
                #expect(response.status == .forbidden)
            }
            #expect(try await fixture.store.snapshot().score == 0)
            let token = try await client.sessionToken()
            #expect(try await post(client, "/plates/states/ZZ/spot", token: token).status == .notFound)
            try await client.execute(uri: "/plates/states/ZZ", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.text.contains("There is no state with the code “ZZ”."))
            }
        }
    }

    @Test func returnTargetsStayInsideTheApp() async throws {
        let fixture = try fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            #expect(try await post(client, "/plates/states/AL/spot", token: token, body: "return=%2Fplates%2Fstates%2FAL%3Ffrom%3Dmap").headers[.location] == "/plates/states/AL?from=map")
            for evil in ["https%3A%2F%2Fevil.example", "%2F%2Fevil.example", "%2Fplates%2F..%2F%2Fevil", "%2Fdesign"] {
                #expect(try await post(client, "/plates/states/AK/spot", token: token, body: "return=\(evil)").headers[.location] == "/plates")
            }
        }
    }

    @Test func confirmationPagesWorkWithoutJavaScript() async throws {
        let fixture = try fixture()
        _ = try await fixture.store.spot("CO", at: Date(), location: nil)
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            try await client.execute(uri: "/plates/states/CO/unspot", method: .get) { response in
                #expect(response.text.contains(#"<h2 class="alert__title" id="confirm-title">Reset Colorado?</h2>"#))
                #expect(response.text.contains(#"action="/plates/states/CO/unspot""#))
                #expect(response.text.contains(#"data-nav="back">Cancel</a>"#))
                #expect(response.text.contains(">Un-spot</button>"))
                #expect(!response.text.contains(">Yes</button>"))
            }
            // A state that is not spotted has nothing to confirm.
            try await client.execute(uri: "/plates/states/CA/unspot", method: .get) { response in
                #expect(response.status == .seeOther || response.status == .found)
            }
            try await client.execute(uri: "/plates/reset", method: .get) { response in
                #expect(response.text.contains("Reset Game?"))
                #expect(response.text.contains(#"data-nav="back">Cancel</a>"#))
                #expect(response.text.contains(">Reset</button>"))
                #expect(!response.text.contains(">Yes</button>"))
            }
            try await client.execute(uri: "/plates/trips/new", method: .get) { response in
                #expect(response.text.contains("Start a New Trip?"))
            }
        }
    }

    @Test func statePageShowsThePlateFromTheFixtureServerAndHasNoToolbar() async throws {
        let pictureHost = { (router: Router<BasicRequestContext>) -> Void in
            router.get("us1/al09a.jpg") { _, _ in
                Response(status: .ok, headers: [.contentType: "image/jpeg"], body: .init(byteBuffer: ByteBuffer(bytes: Self.jpeg)))
            }
        }
        try await LoopbackServer.serving(pictureHost) { base in
            let fixture = try fixture(imageBase: base)
            let app = try await makeApplication(apps: [fixture.app])
            let catalog = try StateCatalog.bundled()
            let alabama = try #require(catalog.state(code: "AL"))
            let arizona = try #require(catalog.state(code: "AZ"))
            try await app.test(.router) { client in
                // The first visit starts the download and renders at once.
                try await client.execute(uri: "/plates/states/AL", method: .get) { response in
                    #expect(response.text.contains("it is still on its way"))
                }
                _ = await fixture.images.image(for: alabama)
                try await client.execute(uri: "/plates/states/AL", method: .get) { response in
                    #expect(response.text.contains("<title>Alabama · Pocket</title>"))
                    #expect(response.text.contains(#"<img class="plate__image" src="/plates/states/AL/plate" alt="Alabama license plate" id="plate-image">"#))
                    #expect(response.text.contains(#"class="navbar__back" href="/plates" data-nav="back""#))
                    #expect(!response.text.contains("plates-toolbar"))
                }
                try await client.execute(uri: "/plates/states/AL/plate", method: .get) { response in
                    #expect(response.headers[.contentType] == "image/jpeg")
                    #expect(Data(response.body.readableBytesView) == Self.jpeg)
                }
                // Arizona's picture is not on the fixture server: a friendly message, never a broken image,
                // naming the host really asked (the mirror), not the data's www.15q.net.
                _ = try await client.execute(uri: "/plates/states/AZ?from=map", method: .get)
                _ = await fixture.images.image(for: arizona)
                try await client.execute(uri: "/plates/states/AZ?from=map", method: .get) { response in
                    #expect(!response.text.contains("plate__image"))
                    #expect(response.text.contains("The picture of Arizona’s plate can’t be shown right now: the server answered 404. It will appear once Pocket can reach 127.0.0.1."))
                    #expect(!response.text.contains("15q.net"))
                    #expect(!response.text.contains("data-refresh-after"), "nothing is on its way any more")
                    #expect(response.text.contains(#"class="navbar__back" href="/plates/map""#))
                }
                try await client.execute(uri: "/plates/states/AZ/plate", method: .get) { response in
                    #expect(response.status == .notFound)
                }
            }
        }
    }

    @Test func aStatePageRendersAtOnceWhileThePictureHostDoesNotAnswer() async throws {
        let catalog = try StateCatalog.bundled()
        let database = try PlatesDatabase.inMemory(catalog: catalog)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plates-web-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let gate = PictureGate()
        // The host hangs until the gate opens, and a page would be patient for an hour.
        let images = PlateImageCache(folder: folder, fetcher: GatedFetcher(gate: gate, data: Self.jpeg), base: URL(string: "http://mirror.example"), patience: .seconds(3600))
        let app = try await makeApplication(apps: [PlatesApp(database: database, catalog: catalog, images: images)])
        let ohio = try #require(catalog.state(code: "OH"))
        try await app.test(.router) { client in
            for _ in 0..<2 {
                // Every visit while the host hangs: the words at once, saying the picture is on its way.
                try await client.execute(uri: "/plates/states/OH", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.text.contains("<figcaption class=\"plate__caption\">\(ohio.nickname)</figcaption>"))
                    #expect(response.text.contains("it is still on its way, so look again in a moment. It will appear once Pocket can reach mirror.example."))
                    #expect(response.text.contains(#"id="plate-missing" role="note" data-refresh-after="1000""#))
                }
            }
            await gate.open()
            _ = await images.image(for: ohio)
            try await client.execute(uri: "/plates/states/OH", method: .get) { response in
                #expect(response.text.contains(#"<img class="plate__image" src="/plates/states/OH/plate""#))
            }
        }
    }

    @Test func mapTripsSettingsAndSounds() async throws {
        let fixture = try fixture()
        _ = try await fixture.store.spot("WA", at: Date(), location: nil)
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            try await client.execute(uri: "/plates/map", method: .get) { response in
                #expect(response.text.contains(#"<a class="tile tile--r2 tile--c0 tile--spotted" href="/plates/states/WA?from=map" aria-label="Washington, spotted" title="Washington">WA</a>"#))
                #expect(response.text.contains("1 of 50 states"))
            }
            let token = try await client.sessionToken()
            _ = try await post(client, "/plates/trips", token: token)
            try await client.execute(uri: "/plates/trips", method: .get) { response in
                #expect(response.text.contains("Current trip"))
                // The finished trip's score stays; the current one's changes as the phone spots.
                #expect(response.text.contains(#"<span class="cell__detail">1 / 50</span>"#))
                #expect(response.text.contains(#"<span class="cell__detail" data-score-text="{} / 50">0 / 50</span>"#))
            }
            #expect(try await fixture.store.snapshot().score == 0)
            // Sounds off (the switch is absent from the form), location on.
            _ = try await post(client, "/plates/settings", token: token, body: "location=on&return=%2Fplates")
            let game = try await fixture.store.snapshot()
            #expect(game.isMuted && game.recordsLocation)
            try await client.execute(uri: "/plates", method: .get) { response in
                #expect(!response.text.contains("data-sound="))
                #expect(response.text.contains("data-geolocate"))
            }
            try await client.execute(uri: "/plates/sounds/spot.wav", method: .get) { response in
                #expect(response.headers[.contentType] == "audio/wav")
                #expect(String(decoding: response.body.readableBytesView.prefix(4), as: UTF8.self) == "RIFF")
            }
            #expect(try await client.execute(uri: "/plates/sounds/nope.wav", method: .get).status == .notFound)
        }
    }

    @Test func theMapNamesTheLastStatesStillToFindAndAnEmptyTripSaysSo() async throws {
        let fixture = try fixture()
        let trip = try await fixture.store.snapshot().trip.id
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            try await client.execute(uri: "/plates/trips/\(trip)", method: .get) { response in
                #expect(response.text.contains("No plates were spotted on this trip."))
                #expect(!response.text.contains(#"<ul class="list""#))
            }
            // Eleven left is too many to name; ten are named, in the catalog's order.
            for state in fixture.catalog.states.dropLast(11) { _ = try await fixture.store.spot(state.code, at: Date(), location: nil) }
            try await client.execute(uri: "/plates/map", method: .get) { response in
                #expect(!response.text.contains("Still to find"))
            }
            _ = try await fixture.store.spot(fixture.catalog.states[39].code, at: Date(), location: nil)
            try await client.execute(uri: "/plates/map", method: .get) { response in
                let names = fixture.catalog.states.suffix(10).map { #"<span class="plates-map__remaining">\#($0.name)</span>"# }.joined()
                #expect(response.text.contains(#"<p class="list-section__footer">Still to find: "# + names + "</p>"))
            }
            try await client.execute(uri: "/plates/trips/\(trip)", method: .get) { response in
                #expect(response.text.components(separatedBy: #"<li class="cell"><a class="cell__main" href="/plates/states/"#).count - 1 == 40)
            }
        }
    }

    @Test func anotherPersonsTripIsNotFoundAndTheirSpotsAreNotShown() async throws {
        let fixture = try fixture()
        // Someone else's finished trip and current spots, on the same database.
        let other = fixture.database.game(for: PersonID(rawValue: 2))
        _ = try await other.spot("HI", at: Date(), location: nil)
        let theirTrip = try await other.snapshot().trip.id
        _ = try await other.startNewTrip(at: Date())
        _ = try await other.spot("AK", at: Date(), location: nil)
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            // Route tests run as the owner: their id is as unknown as one that never existed.
            try await client.execute(uri: "/plates/trips/\(theirTrip)", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(!response.text.contains("Hawaii"))
            }
            try await client.execute(uri: "/plates", method: .get) { response in
                #expect(response.text.contains("Score: 0 / 50"))
            }
            try await client.execute(uri: "/plates/trips", method: .get) { response in
                #expect(!response.text.contains("/plates/trips/\(theirTrip)"))
            }
        }
        #expect(try await other.snapshot().score == 1)
    }

    @Test func spotsRecordALocationOnlyWhenAllowed() async throws {
        let fixture = try fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            _ = try await post(client, "/plates/states/OK/spot", token: token, body: "latitude=36.1&longitude=-97.06")
            #expect(try await fixture.store.snapshot().spots["OK"]?.location == nil)
            _ = try await fixture.store.setRecordsLocation(true)
            _ = try await post(client, "/plates/states/KS/spot", token: token, body: "latitude=38.5&longitude=-98.0")
            _ = try await post(client, "/plates/states/NE/spot", token: token, body: "latitude=500&longitude=-98.0")
            let game = try await fixture.store.snapshot()
            #expect(game.spots["KS"]?.location == (try Location(latitude: 38.5, longitude: -98.0)))
            #expect(game.spots["NE"] != nil && game.spots["NE"]?.location == nil)
            try await client.execute(uri: "/plates/states/KS", method: .get) { response in
                #expect(response.text.contains(#"<span class="cell__subtitle"><a href="https://www.openstreetmap.org/?mlat=38.50000&amp;mlon=-98.00000#map=13/38.50000/-98.00000" rel="noopener noreferrer" target="_blank">Near 38.5000, -98.0000</a></span>"#))
                #expect(response.text.contains("Spotted today at"))
            }
        }
    }
}

/// Holds the picture host's answer until opened.
actor PictureGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        waiters.forEach { $0.resume() }
        waiters = []
    }
}

/// A picture host that answers only once its gate opens.
struct GatedFetcher: HTTPFetching {
    let gate: PictureGate
    let data: Data

    func fetch(_ url: URL, maxBytes: Int, timeout: Duration) async throws(FetchError) -> FetchedResource {
        await gate.wait()
        return FetchedResource(data: data, contentType: "image/jpeg")
    }
}
