import Testing
@testable import PocketWeb

/// Each path is spelled once (`AppRoute.Path`) and every link is that path filled in: for every
/// app, a route of every path gives a link whose parts are the path's, with each parameter filled.
@Suite("Route paths")
struct RoutePathTests {
    @Test func everyPathOfEveryAppGivesItsLink() {
        check(ConferenceRoute.self, [.conferences, .conference(202504), .talk(8770), .talkText(8770), .keep(202504), .bookmark(8770),
                                     .bookmarkChanges, .volumes, .book(3), .chapter(book: 3, chapter: 4), .verse(book: 3, chapter: 4, verse: 5),
                                     .speakers, .speaker(12), .search("faith"), .settings, .checkForUpdate, .install, .importDatabase, .events])
        check(RemoteRoute.self, [.root, .tv, .tvPower, .tvVolume, .tvDigit(4), .tvChannelUp, .tvChannelDown, .tvFavourite(2), .favourites,
                                 .dvr, .dvrPower, .dvrPress(.fastForward), .dvrForce(.record), .screen, .reset, .events])
        check(PlatesRoute.self, [.list, .state("UT"), .plateImage("UT"), .spot("UT"), .unspot("UT"), .reset, .map, .trips,
                                 .confirmNewTrip, .trip(3), .settings, .sound("spot"), .changes])
        check(ConverterRoute.self, [.screen, .catalog, .state])
        check(ShellRoute.self, [.home, .design, .designEvents, .offline, .manifest, .serviceWorker, .asset("js/pocket.js"), .health])
        check(PeopleRoute.self, [.signIn, .signOut, .setup("t0ken"), .join, .joinLink("c0de"), .settings, .pair, .signOutDevice("d3v"),
                                 .addPerson, .removePerson(4), .changePassword, .exportData, .importData, .latestBackup])
    }

    @Test func linksAreTheOnesPagesAlwaysHad() {
        #expect(ShellRoute.home.href == "/")
        #expect(ShellRoute.asset("css/pocket.css").href == "/static/css/pocket.css")
        #expect(ConferenceRoute.talk(5, from: .speaker(7)).href == "/conference/talks/5?from=speaker-7")
        #expect(ConferenceRoute.verse(book: 1, chapter: 2, verse: nil).href == "/conference/citations/1/2/all")
        #expect(ConferenceRoute.search("two words").href == "/conference/search?q=two%20words")
        #expect(ConferenceRoute.search("").href == "/conference/search")
        #expect(PlatesRoute.sound("spot").href == "/plates/sounds/spot.wav")
        #expect(PlatesRoute.confirmUnspot("UT").href == PlatesRoute.unspot("UT").href)
        #expect(ConverterRoute.catalog.href.hasPrefix("/converter/catalog.json?v="))
        #expect(ShellRoute.folder(of: .asset) == "/static/")
        #expect(PeopleRoute.removePerson(4).href == "/settings/people/4/remove")
        #expect(PeopleRoute.folder(of: .setup) == "/setup/")
        #expect(PeopleRoute.pairingPaths(code: "c0de") == (link: "/join/c0de", typing: "/join"))
    }

    private func check<Route: AppRoute>(_ type: Route.Type, _ samples: [Route], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(Set(samples.map(\.path.rawValue)) == Set(Route.Path.allCases.map(\.rawValue)), "a path without a sample", sourceLocation: sourceLocation)
        let prefixParts = Route.prefix.split(separator: "/").map(String.init)
        for route in samples {
            let link = String(route.href.prefix { $0 != "?" })
            let parts = link.split(separator: "/").map(String.init)
            let patternParts = route.path.rawValue.split(separator: "/").map(String.init)
            let pathParts = parts.dropFirst(prefixParts.count)
            #expect(link.hasPrefix("/") && Array(parts.prefix(prefixParts.count)) == prefixParts, "\(link)", sourceLocation: sourceLocation)
            #expect(pathParts.count == patternParts.count || (patternParts.last == "**" && pathParts.count >= patternParts.count),
                    "\(link) against \(route.path.rawValue)", sourceLocation: sourceLocation)
            for (part, pattern) in zip(pathParts, patternParts) {
                if pattern.hasPrefix(":") || pattern == "**" {
                    #expect(!part.isEmpty && !part.hasPrefix(":"), "\(link): \(pattern) not filled", sourceLocation: sourceLocation)
                } else {
                    #expect(part == pattern, "\(link) against \(route.path.rawValue)", sourceLocation: sourceLocation)
                }
            }
        }
    }
}
