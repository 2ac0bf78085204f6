import Foundation
import Murals
import PocketCore
import Testing
@testable import PocketWeb

/// Sample murals a few hundred metres apart along New Brighton's front.
enum MuralsSamples {
    static let north = GeoCoordinate(latitude: 53.4420, longitude: -3.0420)
    static let south = GeoCoordinate(latitude: 53.4340, longitude: -3.0420)

    static func mural(_ id: Int, _ title: String, artist: String? = "Artist \(1)", info: String? = nil, latitude: Double, longitude: Double = -3.0420, images: Int = 2) -> Mural {
        Mural(
            id: id, title: title, artist: artist, info: info,
            thumbnail: URL(string: "https://cgi.csc.liv.ac.uk/~phil/Teaching/COMP228/nbm_images/_thumbnails/t\(id).jpg"),
            coordinate: GeoCoordinate(latitude: latitude, longitude: longitude), isEnabled: true,
            lastModified: "2024-05-01 10:00:00",
            images: (0..<images).map { MuralImage(id: "\(id)\($0)", filename: "m\(id)-\($0).jpg") }
        )
    }

    /// Three murals: A in the north, B in the middle, C in the south.
    static let three = [
        mural(1, "Alpha", latitude: 53.4415),
        mural(2, "Bravo", artist: nil, latitude: 53.4380),
        mural(3, "Charlie", artist: "  ", latitude: 53.4345),
    ]

    static let synced = MuralsSyncState(lastSuccess: Date(timeIntervalSince1970: 1_700_000_000), lastAttempt: Date(timeIntervalSince1970: 1_700_000_000), lastError: nil, muralCount: 3)

    static func map() -> MuralsMapConfig {
        MuralsMapConfig(leaflet: nil, tiles: MuralsTiles.openStreetMap.template, placeholder: "/static/img/map-tile-offline.svg", module: "/static/js/murals/app.js", centre: NewBrighton.centre)
    }

    static func home(position: GeoCoordinate?, filter: MuralsFilter = .all, favourites: Set<Int> = [], state: MuralsSyncState = synced, murals: [Mural] = three) -> MuralsHome.Model {
        MuralsHome.Model(
            murals: murals, favourites: favourites, visited: [2], position: position, filter: filter,
            status: MuralsSyncStatus(state: state, isDemo: false, days: .init()), map: map(), start: NewBrighton.centre
        )
    }
}

@Suite("Murals page models")
struct MuralsModelTests {
    @Test func picturesAreFetchedOnlyFromTheConfiguredHosts() throws {
        let service = MuralsService(endpoint: try #require(URL(string: "https://feed.example/data2.php?class=x")),
                                    imageBase: try #require(URL(string: "https://images.example/nbm_images/")))
        func thumbnail(_ text: String) -> URL? {
            let mural = Mural(id: 1, title: "T", artist: nil, info: nil, thumbnail: URL(string: text),
                              coordinate: GeoCoordinate(latitude: 53.44, longitude: -3.04), isEnabled: true, lastModified: "", images: [])
            return service.thumbnailURL(for: mural)
        }
        #expect(thumbnail("https://images.example/nbm_images/t/1.jpg")?.absoluteString == "https://images.example/nbm_images/t/1.jpg")
        #expect(thumbnail("https://images.example:443/x.jpg") != nil)
        #expect(thumbnail("https://feed.example/thumbs/1.jpg") != nil)
        // A feed naming any other host, loopback or the LAN above all, is not fetched.
        for hostile in ["http://127.0.0.1:8080/settings", "http://localhost/x.jpg", "http://192.168.1.1/x.jpg", "http://169.254.169.254/latest/meta-data",
                        "http://[::1]/x.jpg", "https://images.example:8443/x.jpg", "http://images.example/x.jpg", "file:///etc/passwd", "https://evil.example/x.jpg"] {
            #expect(thumbnail(hostile) == nil, "\(hostile)")
        }
    }

    @Test func theListIsOrderedByDistanceFromTheVisitor() {
        let fromNorth = MuralsSamples.home(position: MuralsSamples.north)
        #expect(fromNorth.cells.map(\.title) == ["Alpha", "Bravo", "Charlie"])
        let fromSouth = MuralsSamples.home(position: MuralsSamples.south)
        #expect(fromSouth.cells.map(\.title) == ["Charlie", "Bravo", "Alpha"])
        #expect(fromSouth.distanceCaption == "Distances from you")
        #expect(fromSouth.hasPosition)
        #expect(fromSouth.positionParam == "53.434000,-3.042000")
    }

    /// The list's model is kept by its inputs: the same inputs give the model made the first
    /// time, and any input that differs (a star, a visit, a position, a renamed mural whose count
    /// and first id are unchanged) gives a new one, equal to what making it afresh gives.
    @Test func theModelIsKeptByEverythingItIsMadeFrom() {
        func inputs(murals: [Mural] = MuralsSamples.three, favourites: Set<Int> = [], visited: Set<Int> = [2],
                    position: GeoCoordinate? = MuralsSamples.north) -> MuralsHome.Inputs {
            MuralsHome.Inputs(murals: murals, favourites: favourites, visited: visited, position: position, filter: .all,
                              status: MuralsSyncStatus(state: MuralsSamples.synced, isDemo: false, days: .init()), map: MuralsSamples.map(),
                              start: NewBrighton.centre)
        }
        let memo = MuralsHome.ModelMemo()
        let first = memo.model(for: inputs())
        #expect(first == MuralsHome.Model(inputs()))
        #expect(memo.model(for: inputs()) == first)
        #expect(memo.count == 1)

        var renamed = MuralsSamples.three
        renamed[1] = MuralsSamples.mural(2, "Bravo Two", artist: nil, latitude: 53.4380)
        let variants = [inputs(favourites: [3]), inputs(visited: [1, 2]), inputs(position: MuralsSamples.south), inputs(murals: renamed)]
        for variant in variants {
            let model = memo.model(for: variant)
            #expect(model == MuralsHome.Model(variant))
            #expect(model != first)
        }
        #expect(memo.model(for: inputs(murals: renamed)).cells.map(\.title).contains("Bravo Two"))
        #expect(memo.count == 5)
    }

    @Test func withoutAPositionDistancesAreFromNewBrighton() {
        let model = MuralsSamples.home(position: nil)
        #expect(model.distanceCaption == "Distances from the centre of New Brighton")
        #expect(!model.hasPosition)
        let expected = MuralOrdering.byDistance(MuralsSamples.three, from: NewBrighton.centre).map(\.mural.id)
        #expect(model.cells.map(\.id) == expected)
    }

    @Test func cellsShowDistanceTextArtistOrUnknownAndVisited() {
        let model = MuralsSamples.home(position: GeoCoordinate(latitude: 53.4415, longitude: -3.0420))
        let byTitle = Dictionary(uniqueKeysWithValues: model.cells.map { ($0.title, $0) })
        #expect(byTitle["Alpha"]?.distanceText == "0 m")
        // 0.0035° of latitude is about 389 m; 0.007° about 778 m.
        #expect(byTitle["Bravo"]?.distanceText == "389 m")
        #expect(byTitle["Charlie"]?.distanceText == "778 m")
        #expect(byTitle["Alpha"]?.artist == "Artist 1")
        #expect(byTitle["Bravo"]?.artist == "Unknown artist")
        #expect(byTitle["Charlie"]?.artist == "Unknown artist")
        #expect(byTitle["Bravo"]?.visited == true)
        #expect(byTitle["Alpha"]?.visited == false)
        #expect(byTitle["Alpha"]?.thumbnailURL == "/murals/mural/1/thumbnail")
        #expect(byTitle["Alpha"]?.href == "/murals/mural/1")
    }

    @Test func kilometresReadAsAWalkerReadsThem() {
        let far = MuralsSamples.mural(9, "Far", latitude: 53.4520)
        let model = MuralsSamples.home(position: MuralsSamples.south, murals: [far])
        #expect(model.cells.first?.distanceText == "2.0 km")
    }

    @Test func theFavouritesFilterShowsOnlyFavourites() {
        let model = MuralsSamples.home(position: nil, filter: .favourites, favourites: [3, 42])
        #expect(model.cells.map(\.id) == [3])
        #expect(model.cells.first?.favourite.isFavourite == true)
        #expect(model.cells.first?.favourite.newValue == "0")
        #expect(model.cells.first?.favourite.returnTo == "/murals?show=favourites")
        #expect(model.filters.map(\.checked) == [false, true])
        #expect(model.countText == "1 mural")
        let none = MuralsSamples.home(position: nil, filter: .favourites)
        #expect(none.cells.isEmpty)
        #expect(none.emptyText.contains("No favourites yet"))
        #expect(MuralsFilter(query: "nonsense") == .all)
    }

    @Test func theStatusLineSaysOfflineOnlyAfterAFailure() {
        let fine = MuralsSyncStatus(state: MuralsSamples.synced, isDemo: true, days: .init(), now: Date(timeIntervalSince1970: 1_700_000_100), timeZone: TimeZone(identifier: "UTC") ?? .current)
        #expect(!fine.isOffline)
        #expect(fine.updatedText == "Updated today at 22:13")
        #expect(fine.isDemo)
        let failed = MuralsSyncState(lastSuccess: MuralsSamples.synced.lastSuccess, lastAttempt: Date(), lastError: "no network", muralCount: 3)
        let offline = MuralsSyncStatus(state: failed, isDemo: false, days: .init())
        #expect(offline.isOffline)
        #expect(offline.offlineText == "Offline — showing saved murals")
        let never = MuralsSyncStatus(state: MuralsSyncState(lastSuccess: nil, lastAttempt: Date(), lastError: "no network", muralCount: 0), isDemo: false, days: .init())
        #expect(never.offlineText == "Offline — no murals saved yet")
        #expect(never.updatedText == "Not updated yet")
    }

    @Test func positionsFromOutsideAreValidated() {
        #expect(MuralsPosition.parse("53.4379,-3.0437") == GeoCoordinate(latitude: 53.4379, longitude: -3.0437))
        #expect(MuralsPosition.parse(" 53.4 , -3.0 ") == GeoCoordinate(latitude: 53.4, longitude: -3.0))
        for bad in ["", "53.4", "91,0", "0,181", "nan,0", "inf,1", "0x35,-3", "53,-0x3", "a,b", "1,2,3", String(repeating: "1", count: 80) + ",1", "<script>,1"] {
            #expect(MuralsPosition.parse(bad) == nil, "\(bad) should be refused")
        }
        #expect(MuralsPosition.parse(nil) == nil)
    }

    @Test func theSyncTimeSaysTodayYesterdayOrTheDateAsTheCalendarDoes() throws {
        // The calendar's own answer, asked afresh each time, against the kept days; across the
        // clock changes of London and Auckland, and around midnight.
        func expected(_ date: Date, now: Date, timeZone: TimeZone) -> String {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let locale = Locale(identifier: "en_GB")
            let time = date.formatted(Date.FormatStyle(date: .omitted, time: .shortened, timeZone: timeZone).locale(locale))
            if calendar.isDate(date, inSameDayAs: now) { return "today at \(time)" }
            if let yesterday = calendar.date(byAdding: .day, value: -1, to: now), calendar.isDate(date, inSameDayAs: yesterday) {
                return "yesterday at \(time)"
            }
            return date.formatted(Date.FormatStyle(date: .long, time: .omitted, timeZone: timeZone).locale(locale)) + " at \(time)"
        }
        let zones = try ["Europe/London", "Pacific/Auckland", "UTC"].map { try #require(TimeZone(identifier: $0)) }
        // 2026-03-28 23:30 UTC, the night before London's clocks go forward, and 2026-04-04, before Auckland's go back.
        let starts = [Date(timeIntervalSince1970: 1_774_740_600), Date(timeIntervalSince1970: 1_775_257_200)]
        for zone in zones {
            for start in starts {
                for step in stride(from: -7_200.0, through: 7_200, by: 1_800) {
                    let date = start.addingTimeInterval(step)
                    for later in stride(from: -3_600.0, through: 3 * 86_400, by: 2_700) {
                        let now = date.addingTimeInterval(later)
                        #expect(MuralsText.when(date, now: now, timeZone: zone) == expected(date, now: now, timeZone: zone),
                                "\(date) seen at \(now) in \(zone.identifier)")
                    }
                }
            }
        }
        #expect(MuralsText.when(starts[0], now: starts[0].addingTimeInterval(60), timeZone: zones[2]) == "today at 23:30")
        #expect(MuralsText.when(starts[0], now: starts[0].addingTimeInterval(3_600), timeZone: zones[2]) == "yesterday at 23:30")
        #expect(MuralsText.when(starts[0], now: starts[0].addingTimeInterval(90_000), timeZone: zones[2]) == "28 March 2026 at 23:30")
    }

    @Test func anglesAreWrittenAsPrintfWritesThem() {
        // Six decimals, correctly rounded, a dot: the same text Foundation's formatter gives.
        var generator = SplitMix64(seed: 14)
        var values: [Double] = [0, -0.0, 53.4379, -3.0437, 0.0000005, -0.0000005, 0.0000015, 179.9999995, -90, 1e-9, 123456.25]
        for _ in 0..<2000 { values.append(Double(generator.next() % 360_000_000_000) / 1e9 - 180) }
        for value in values {
            #expect(MuralsPosition.degrees(value) == String(format: "%.6f", value), "\(value)")
        }
        #expect(MuralsPosition.text(GeoCoordinate(latitude: 53.4379, longitude: -3.0437)) == "53.437900,-3.043700")
    }

    @Test func theDetailShowsEveryPictureInfoAndDirections() {
        let mural = MuralsSamples.mural(7, "Sea <Gull>", artist: nil, info: "First line.\r\n\r\nSecond & last.\n  ", latitude: 53.44, images: 3)
        let apple = MuralDetail.Model(mural: mural, isFavourite: true, isVisited: false, position: nil, platform: .init(userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)"))
        #expect(apple.pictures.map(\.src) == ["/murals/mural/7/images/0", "/murals/mural/7/images/1", "/murals/mural/7/images/2"])
        #expect(apple.pictures.map(\.alt) == ["Sea <Gull>, picture 1 of 3", "Sea <Gull>, picture 2 of 3", "Sea <Gull>, picture 3 of 3"])
        #expect(apple.pictureCountText == "3 pictures")
        #expect(apple.info == ["First line.", "Second & last."])
        #expect(apple.artist == "Unknown artist")
        #expect(apple.directions.href == "https://maps.apple.com/?daddr=53.440000,-3.042000&dirflg=w")
        #expect(apple.favourite.isFavourite)
        #expect(apple.favourite.label == "Remove Sea <Gull> from favourites")
        #expect(apple.distanceCaption == "from the centre of New Brighton")
        let android = MuralDetail.Model(mural: mural, isFavourite: false, isVisited: true, position: MuralsSamples.north, platform: .init(userAgent: "Mozilla/5.0 (Linux; Android 14)"))
        #expect(android.directions.href == "https://www.google.com/maps/dir/?api=1&destination=53.440000,-3.042000&travelmode=walking")
        #expect(android.distanceText == "222 m")
        #expect(android.distanceCaption == "from you")
        #expect(android.visited)
        let bare = MuralDetail.Model(mural: MuralsSamples.mural(8, "Bare", latitude: 53.44, images: 0), isFavourite: false, isVisited: false, position: nil, platform: .other)
        #expect(bare.pictures.isEmpty)
        #expect(bare.info.isEmpty)
    }

    @Test func theTrailSummarySaysHowLongAndThroughHowMany() {
        let trail = TrailPlanner.plan(from: MuralsSamples.north, through: MuralsSamples.three)
        let model = MuralsTrail.Model(trail: trail, start: MuralsSamples.north, hasPosition: true, visited: [3], filter: .all, returnTo: "/murals/trail")
        #expect(model.stops.map(\.title) == ["Alpha", "Bravo", "Charlie"])
        #expect(model.stops.map(\.visited) == [false, false, true])
        #expect(model.summary == "Trail: \(DistanceText.string(metres: trail.metres)) through 3 murals")
        #expect(model.stops.first?.legText == "+ 56 m")
        let payload = MuralsTrail.Payload(trail: trail, filter: .favourites)
        #expect(payload.stops == [1, 2, 3])
        #expect(payload.path.first == [53.442, -3.042])
        #expect(payload.summary.hasSuffix("through 3 favourites"))
    }

    @Test func theWalkPayloadKeepsTheRecordedTiming() throws {
        let payload = MuralsWalkPayload(walk: try GPX.bundledWalk(), start: try GPX.bundledStart())
        #expect(payload.points.count == 313)
        #expect(payload.points.first?.t == 0)
        #expect(payload.points.map(\.t) == payload.points.map(\.t).sorted())
        #expect((payload.points.last?.t ?? 0) > 300)
    }

    @Test func tileServersAreCheckedAndAllowedByOrigin() {
        #expect(MuralsTiles.openStreetMap.origin == "https://tile.openstreetmap.org")
        #expect(MuralsTiles(template: "http://127.0.0.1:8123/tiles/{z}/{x}/{y}.png")?.origin == "http://127.0.0.1:8123")
        #expect(MuralsTiles(template: "https://{s}.tile.example.org/{z}/{x}/{y}.png")?.origin == "https://*.tile.example.org")
        #expect(MuralsTiles(template: "https://tile.example.org/{z}/{x}.png") == nil)
        #expect(MuralsTiles(template: "javascript:alert(1)//{z}{x}{y}") == nil)
    }

    @Test func picturesFollowAMirrorOfTheImageHost() throws {
        let mirror = MuralsService.live(imageBase: URL(string: "http://127.0.0.1:9999/pics"))
        let mural = MuralsSamples.mural(4, "Delta", latitude: 53.44)
        #expect(mirror.thumbnailURL(for: mural)?.absoluteString == "http://127.0.0.1:9999/pics/_thumbnails/t4.jpg")
        #expect(mirror.imageURL(for: mural, index: 1)?.absoluteString == "http://127.0.0.1:9999/pics/m4-1.jpg")
        #expect(mirror.imageURL(for: mural, index: 2) == nil)
        let live = MuralsService.live()
        #expect(live.thumbnailURL(for: mural) == mural.thumbnail)
        #expect(live.endpoint == MuralsSynchronizer.defaultEndpoint)
        #expect(live.imageBase == MuralsSynchronizer.defaultImageBase)
    }
}
