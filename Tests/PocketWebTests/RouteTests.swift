import Foundation
import Hummingbird
import HummingbirdTesting
import Conference
import Converter
import Murals
import Plates
import PocketCore
import PocketTLS
import Remote
import Testing
@testable import PocketWeb

/// One declaration per route (`Route`): its links, and what its handler receives through the real
/// router.
@Suite("Routes")
struct RouteTests {
    /// An app whose one route takes an `Int` and the rest of the path, answering with what its
    /// handler received, so a link can be followed back to its typed values.
    private struct EchoApp: PocketApp {
        static let echo = Route(.get, "item/:id/file/**", Int.self, String.self, under: "/echo")
        static let plain = Route(.post, "", under: "/echo")
        var descriptor: AppDescriptor { AppDescriptor(id: "echo", name: "Echo", icon: "icons/apps/murals.svg", summary: "Echo") }

        func addRoutes(to group: RouterGroup<PocketRequestContext>, environment: WebEnvironment) {
            group.add([
                Self.echo.handle { _, _, id, file in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "\(id + 1) \(file)"))) },
            ])
        }
    }

    @Test func linksAreFilledInOrderBelowTheirPrefix() {
        #expect(EchoApp.echo.href(7, "a/b.js") == "/echo/item/7/file/a/b.js")
        #expect(EchoApp.plain.href() == "/echo")
        #expect(EchoApp.echo.folder == "/echo/item/")
        #expect(Route(.get, "", under: "").href() == "/")
        #expect(MuralsRoute.main.href() == "/murals")
        #expect(MuralsRoute.image.href(7, 2) == "/murals/mural/7/images/2")
        #expect(MuralsRoute.leaflet.href("dist/leaflet.js") == "/murals/leaflet/dist/leaflet.js")
        #expect(MuralsRoute.demoImage.folder == "/murals/demo-service/images/")
        #expect(PlatesRoute.sound.href(.spot) == "/plates/sounds/spot.wav")
        #expect(PlatesRoute.confirmUnspot.href("UT") == PlatesRoute.unspot.href("UT"))
        #expect(PlatesRoute.trip.href(3) == "/plates/trips/3")
        #expect(ConverterRoute.catalogHref.hasPrefix("/converter/catalog.json?v="))
        #expect(ConverterRoute.screen.href() == "/converter")
    }

    @Test func aLinkLeadsBackToTheValuesItWasBuiltFrom() async throws {
        let app = try await makeApplication(apps: [EchoApp()])
        try await app.test(.router) { client in
            for (id, file) in [(7, "a.js"), (-3, "deep/er/b.css"), (Int.max - 1, "x")] {
                try await client.execute(uri: EchoApp.echo.href(id, file), method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.text == "\(id + 1) \(file)")
                }
            }
        }
    }

    @Test func aPartThatDoesNotSpellItsValueIsNotFound() async throws {
        let app = try await makeApplication(apps: [EchoApp()])
        try await app.test(.router) { client in
            for uri in ["/echo/item/abc/file/a.js", "/echo/item/1.5/file/a.js", "/echo/item/99999999999999999999/file/a.js"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(response.text.contains("There is no page at"), "\(uri)")
                }
            }
        }
    }

    @Test func everyMuralsRouteIsRegisteredOnceWithAsManyValuesAsParameters() async throws {
        let environment = try await Self.environment()
        let declared = [
            MuralsRoute.main.signature, MuralsRoute.mural.signature, MuralsRoute.favourite.signature, MuralsRoute.changes.signature,
            MuralsRoute.offlineList.signature, MuralsRoute.thumbnail.signature, MuralsRoute.image.signature, MuralsRoute.refresh.signature,
            MuralsRoute.walk.signature, MuralsRoute.trail.signature, MuralsRoute.trailJSON.signature, MuralsRoute.visited.signature,
            MuralsRoute.clearVisited.signature, MuralsRoute.leaflet.signature,
        ]
        let demoOnly = [MuralsRoute.demoFeed.signature, MuralsRoute.demoImage.signature]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("routes-\(UUID().uuidString)")
        let live = MuralsApp(store: try MuralsDatabase.inMemory(), service: .live(), imageFolder: folder, leaflet: nil)
        let demo = MuralsApp(store: try MuralsDatabase.inMemory(), service: .demo, imageFolder: folder, leaflet: nil)
        check(live.endpoints(environment: environment), declared)
        check(demo.endpoints(environment: environment), declared + demoOnly)
    }

    /// A Plates app whose picture host is a dead port on loopback (no test here fetches a picture).
    private static func plates() throws -> PlatesApp {
        let catalog = try StateCatalog.bundled()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("routes-\(UUID().uuidString)")
        let images = PlateImageCache(folder: folder, fetcher: LiveHTTPFetcher(), base: URL(string: "http://127.0.0.1:9"), patience: .seconds(3))
        return PlatesApp(database: try PlatesDatabase.inMemory(catalog: catalog), catalog: catalog, images: images)
    }

    /// What the shell gives every app's routes.
    private static func environment() async throws -> WebEnvironment {
        let household = try await TestHousehold.make()
        return WebEnvironment(renderer: try PageRenderer(resources: WebResources.bundled()), streams: OpenStreams(people: household.people), caches: .all)
    }

    @Test func everyPlatesAndConverterRouteIsRegisteredOnce() async throws {
        let environment = try await Self.environment()
        let plates = try Self.plates()
        typealias P = PlatesRoute
        check(plates.endpoints(environment: environment), [
            P.list.signature, P.state.signature, P.plateImage.signature, P.spot.signature, P.confirmUnspot.signature, P.unspot.signature,
            P.confirmReset.signature, P.reset.signature, P.map.signature, P.trips.signature, P.confirmNewTrip.signature, P.newTrip.signature,
            P.trip.signature, P.settings.signature, P.sound.signature, P.changes.signature,
        ])
        let converter = ConverterApp(database: try ConverterDatabase.inMemory())
        typealias C = ConverterRoute
        check(converter.endpoints(environment: environment), [C.screen.signature, C.change.signature, C.catalog.signature, C.state.signature])
    }

    @Test func everyRemoteRouteIsRegisteredOnce() async throws {
        let remote = RemoteApp(store: try RemoteDatabase.inMemory())
        typealias R = RemoteRoute
        check(remote.endpoints(environment: try await Self.environment()), [
            R.root.signature, R.tv.signature, R.tvPower.signature, R.tvVolume.signature, R.tvDigit.signature, R.tvChannelUp.signature,
            R.tvChannelDown.signature, R.tvFavourite.signature, R.favourites.signature, R.saveFavourites.signature, R.dvr.signature,
            R.dvrPower.signature, R.dvrPress.signature, R.dvrForce.signature, R.screen.signature, R.confirmReset.signature, R.reset.signature,
            R.events.signature,
        ])
        #expect(R.dvrPress.href(.fastForward) == "/remote/dvr/press/fast-forward")
        #expect(R.tvDigit.href(4) == "/remote/tv/digit/4")
    }

    @Test func everyPeopleRouteIsRegisteredOnce() async throws {
        let household = try await TestHousehold.make()
        let people = WebPeople(store: household.people, throttle: AttemptThrottle(), setupToken: RandomToken.make())
        let pages = PeoplePages(renderer: try PageRenderer(resources: WebResources.bundled()), people: people, household: HouseholdData())
        typealias R = PeopleRoute
        check(pages.publicEndpoints, [
            R.signInPage.signature, R.signIn.signature, R.setupPage.signature, R.setup.signature, R.joinPage.signature, R.join.signature,
            R.joinLinkPage.signature, R.joinLink.signature,
        ])
        check(pages.privateEndpoints + HouseholdDataPages(people: people, household: HouseholdData()).privateEndpoints, [
            R.signOut.signature, R.settings.signature, R.pair.signature, R.signOutDevice.signature, R.addPerson.signature,
            R.confirmRemovePerson.signature, R.removePerson.signature, R.changePassword.signature, R.exportData.signature, R.importData.signature, R.latestBackup.signature,
        ])
        #expect(R.removePerson.href(4) == "/settings/people/4/remove")
        #expect(R.setupPage.folder == "/setup/")
        #expect(R.pairingPaths(code: "c0de") == (link: "/join/c0de", typing: "/join"))
    }

    @Test func everyShellRouteIsRegisteredOnce() throws {
        let shell = ShellPages(renderer: try PageRenderer(resources: WebResources.bundled()), apps: [], serviceWorkerScript: ByteBuffer(), streams: nil) { [] }
        typealias R = ShellRoute
        check(shell.publicEndpoints, [R.offline.signature, R.manifest.signature, R.serviceWorker.signature, R.asset.signature, R.health.signature])
        check(shell.privateEndpoints, [R.home.signature, R.design.signature, R.designPost.signature, R.designEvents.signature])
        #expect(R.home.href() == "/")
        #expect(R.asset.href("css/pocket.css") == "/static/css/pocket.css")
        #expect(R.asset.folder == "/static/")
    }

    @Test func everyConferenceRouteIsRegisteredOnce() async throws {
        let app = ConferenceFixtures.app(try await ConferenceFixtures.library())
        typealias R = ConferenceRoute
        check(app.endpoints(environment: try await Self.environment()), [
            R.conferences.signature, R.conference.signature, R.talk.signature, R.talkText.signature, R.keep.signature, R.bookmark.signature,
            R.bookmarkChanges.signature, R.volumes.signature, R.book.signature, R.chapter.signature, R.verse.signature, R.speakers.signature,
            R.speaker.signature, R.search.signature, R.settings.signature, R.checkForUpdate.signature, R.install.signature,
            R.importDatabase.signature, R.events.signature,
        ])
        #expect(R.talkHref(5, from: .speaker(7)) == "/conference/talks/5?from=speaker-7")
        #expect(R.talkHref(5, from: nil) == R.talk.href(5))
        #expect(R.verseHref(book: 1, chapter: 2, verse: nil) == "/conference/citations/1/2/all")
        #expect(R.verseHref(book: 1, chapter: 2, verse: 5) == "/conference/citations/1/2/5")
        #expect(R.searchHref("two words") == "/conference/search?q=two%20words")
        #expect(R.searchHref("") == "/conference/search")
    }

    @Test func aCitedVerseIsANumberOrAll() {
        #expect(CitedVerse(pathPart: "all") == CitedVerse(number: nil))
        #expect(CitedVerse(pathPart: "12") == CitedVerse(number: 12))
        #expect(CitedVerse(pathPart: "twelve") == nil)
    }

    @Test func everyTrustRouteIsRegisteredOnce() throws {
        let renderer = try PageRenderer(resources: WebResources.bundled())
        let trust = TrustPages(renderer: renderer, trust: nil, httpsPort: { 8443 })
        let downloads = TrustDownload.allCases.map { TrustRoute.download($0).signature }
        check(trust.trustEndpoints, [TrustRoute.page.signature, ShellRoute.asset.signature] + downloads)
        check(WelcomePages(renderer: renderer).privateEndpoints, [TrustRoute.welcome.signature])
        #expect(TrustRoute.pageHref == "/trust")
        #expect(TrustRoute.welcome.href() == "/welcome")
        #expect(TrustRoute.download(.pem).href() == "/trust/" + TrustDownload.pem.fileName)
    }

    @Test func everyAppAnswersAMalformedValueWithNotFound() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("routes-\(UUID().uuidString)")
        let murals = MuralsApp(store: try MuralsDatabase.inMemory(), service: .demo, imageFolder: folder, leaflet: nil)
        let conference = ConferenceFixtures.app(try await ConferenceFixtures.library())
        let app = try await makeApplication(apps: [murals, try Self.plates(), conference, RemoteApp(store: try RemoteDatabase.inMemory())])
        try await app.test(.router) { client in
            for uri in ["/murals/mural/abc", "/murals/mural/1/images/x", "/murals/mural/abc/thumbnail", "/plates/trips/x", "/plates/sounds/x.wav",
                        "/conference/talks/x", "/conference/citations/1/2/x", "/conference/citations/x/2", "/conference/speakers/1e3"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                }
            }
        }
    }

    @Test func aSoundThatDoesNotExistIsNotFound() async throws {
        let plates = try Self.plates()
        let app = try await makeApplication(apps: [plates])
        try await app.test(.router) { client in
            for (uri, status) in [("/plates/sounds/spot.wav", HTTPResponse.Status.ok), ("/plates/sounds/spot", .ok), ("/plates/sounds/boom.wav", .notFound)] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == status, "\(uri)")
                }
            }
        }
    }

    private func check(_ endpoints: [Endpoint], _ declared: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(endpoints.map(\.signature).sorted() == declared.sorted(), sourceLocation: sourceLocation)
        for endpoint in endpoints {
            #expect(endpoint.parameterCount == endpoint.valueCount, "\(endpoint.signature)", sourceLocation: sourceLocation)
        }
    }
}

extension Route {
    /// Method and pattern, as the router tells routes apart.
    var signature: String { "\(method) \(pattern)" }
}

extension Endpoint {
    var signature: String { "\(method) \(pattern)" }
}
