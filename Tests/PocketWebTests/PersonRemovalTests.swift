import Conference
import Converter
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Murals
import Plates
import PocketCore
import Testing
@testable import PocketWeb

/// Removing a person removes what they kept in every app, from the files themselves, and nothing
/// of anyone else's: through Settings on the real router, and as `pocket users remove` does it.
@Suite("Removing a person removes their data")
struct PersonRemovalTests {
    /// A data directory with every app's store on disk, as `pocket serve` without `--demo` keeps them.
    private static func storesOnDisk() async throws -> (DataDirectory, PersonalDataStores) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("person-removal-\(UUID().uuidString)", isDirectory: true)
        let data = try DataDirectory(url: folder)
        let murals = try MuralsDatabase.onDisk(at: data.file(muralsDatabaseFile(demo: false)))
        let shown = (1...3).map { id in
            Mural(id: id, title: "Mural \(id)", artist: nil, info: nil, thumbnail: nil, coordinate: GeoCoordinate(latitude: 53.4, longitude: -3.0),
                  isEnabled: true, lastModified: "2026-01-01", images: [])
        }
        _ = try await murals.apply(shown, fetchedAt: Date(), wasIncremental: false)
        let stores = PersonalDataStores(
            plates: try PlatesDatabase.onDisk(at: data.file(AppDatabaseFile.plates), catalog: try StateCatalog.bundled()),
            murals: murals,
            converter: try ConverterDatabase.onDisk(at: data.file(AppDatabaseFile.converter)),
            conference: try await ConferenceLibrary.open(dataDirectory: data, sample: .whenNeeded),
            unservedMurals: data.file(muralsDatabaseFile(demo: true))
        )
        return (data, stores)
    }

    /// Gives `person` a star in the demo's Murals database, which a server without `--demo` does
    /// not serve: they starred it on a run with `--demo`.
    private static func starInTheDemosMurals(for person: PersonID, in data: DataDirectory) async throws {
        let demo = try MuralsDatabase.onDisk(at: data.file(muralsDatabaseFile(demo: true)))
        _ = try await demo.apply([Mural(id: 7, title: "Demo", artist: nil, info: nil, thumbnail: nil, coordinate: GeoCoordinate(latitude: 53.4, longitude: -3.0),
                                        isEnabled: true, lastModified: "2026-01-01", images: [])], fetchedAt: Date(), wasIncremental: false)
        try await demo.setFavourite(true, muralID: 7, for: person)
    }

    /// Each database file under `data` and how many rows `person` has in it, read from the file
    /// afresh: every table with a `personID` column, whichever app made it.
    private static func rows(of person: PersonID, under data: DataDirectory) throws -> [String: Int] {
        let files = FileManager.default.enumerator(at: data.url, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        var counts: [String: Int] = [:]
        for file in files where file.pathExtension == "sqlite" {
            let queue = try DatabaseQueue(path: file.path)
            let count = try queue.read { db in try PersonRows.count(person, db) }
            let tables = try queue.read { db in try PersonRows.tables(db) }
            if !tables.isEmpty { counts[String(file.path.dropFirst(data.url.path.count + 1))] = count }
        }
        return counts
    }

    @Test func anOwnerRemovingBeaInSettingsDeletesEveryRowOfHersAndKeepsTheOwnersExactly() async throws {
        let household = try await TestHousehold.make()
        let (data, stores) = try await Self.storesOnDisk()
        let base = ChangeTime.milliseconds(Date()) - 86_400_000
        let bea = household.member.person, owner = household.owner.person
        try await PersonalDataRouteTests.use(stores, as: bea.id, base: base, states: ["OR", "WA", "ID"])
        try await PersonalDataRouteTests.use(stores, as: owner.id, base: base + 500, states: ["TX"])
        try await Self.starInTheDemosMurals(for: bea.id, in: data)
        let ownersBefore = try await stores.export(for: owner)
        let beforeRows = try Self.rows(of: bea.id, under: data)
        // Every app that keeps a person's data holds some of Bea's, so each one's removal is seen:
        // the demo's Murals too, which this server does not serve.
        #expect(Set(beforeRows.keys) == ["plates.sqlite", "murals.sqlite", "murals-demo.sqlite", "converter.sqlite", "conference/state.sqlite"])
        #expect(beforeRows.values.allSatisfy { $0 > 0 }, "\(beforeRows)")

        let renderer = try PageRenderer(resources: WebResources.bundled())
        let router = Router(context: PocketRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: SignInAs(member: household.owner))
        let app = Application(router: buildRouter(renderer: renderer, apps: [], people: WebPeople(store: household.people),
                                                  household: HouseholdData(personal: stores), router: router))
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            try await client.execute(uri: PeopleRoute.removePerson.href(bea.id.rawValue), method: .post,
                                     headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: "_csrf=\(token)")) { response in
                #expect(response.status == .seeOther, "\(response.text)")
            }
        }
        #expect(try await household.people.person(named: "Bea") == nil)
        let afterRows = try Self.rows(of: bea.id, under: data)
        #expect(afterRows.values.allSatisfy { $0 == 0 }, "Bea's rows left: \(afterRows)")
        #expect(try Self.rows(of: owner.id, under: data).filter { $0.key != "murals-demo.sqlite" }.values.allSatisfy { $0 > 0 })
        let ownersAfter = try await stores.export(for: owner)
        #expect(ownersAfter.plates == ownersBefore.plates && ownersAfter.murals == ownersBefore.murals)
        #expect(ownersAfter.converter == ownersBefore.converter && ownersAfter.conference == ownersBefore.conference)
    }

    /// Forty requests at once, three times: Bea's phone sends 39 spots while the owner removes her.
    /// Each of hers is either applied before or refused; none writes after her rows are deleted.
    @Test func herRequestsRacingHerRemovalAreAppliedOrRefusedAndLeaveNoRowOfHers() async throws {
        let catalog = try StateCatalog.bundled()
        let states = catalog.states.map(\.code)
        for round in 0..<3 {
            let household = try await TestHousehold.make()
            let (data, stores) = try await Self.storesOnDisk()
            let plates = try #require(stores.plates)
            let images = PlateImageCache(folder: data.url.appendingPathComponent("plates-images"), fetcher: LiveHTTPFetcher(),
                                         base: URL(string: "http://127.0.0.1:9"), patience: .seconds(3))
            let router = Router(context: PocketRequestContext.self, options: .autoGenerateHeadEndpoints)
            let app = Application(router: buildRouter(renderer: try PageRenderer(resources: WebResources.bundled()),
                                                      apps: [PlatesApp(database: plates, catalog: catalog, images: images)],
                                                      people: WebPeople(store: household.people), household: HouseholdData(personal: stores), router: router))
            let bea = household.member, owner = household.owner
            try await app.test(.router) { client in
                let statuses = try await withThrowingTaskGroup(of: (Bool, HTTPResponse.Status).self) { group in
                    for i in 0..<39 {
                        group.addTask {
                            let change = bea.change("race-\(round)-\(i)", at: outboxBase + Int64(i), #"{"kind":"spot","state":"\#(states[i])"}"#)
                            let response = try await client.execute(uri: "/plates/changes", method: .post,
                                                                    headers: [.contentType: "application/json", .cookie: bea.cookie, .csrfToken: bea.token],
                                                                    body: ByteBuffer(string: change))
                            return (false, response.status)
                        }
                        if i == 4 {
                            group.addTask {
                                let response = try await client.execute(
                                    uri: PeopleRoute.removePerson.href(bea.person.id.rawValue), method: .post,
                                    headers: [.contentType: "application/x-www-form-urlencoded", .cookie: owner.cookie],
                                    body: ByteBuffer(string: "_csrf=\(owner.token)"))
                                return (true, response.status)
                            }
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses.filter(\.0).map(\.1) == [.seeOther])
                let hers = statuses.filter { !$0.0 }.map(\.1)
                #expect(hers.allSatisfy { $0 == .ok || $0 == .unauthorized }, "\(hers)")
            }
            #expect(try await household.people.person(named: bea.person.name) == nil)
            let left = try Self.rows(of: bea.person.id, under: data)
            #expect(left.values.allSatisfy { $0 == 0 }, "round \(round): Bea's rows left: \(left)")
        }
    }

    @Test func theCommandLinesRemovalDeletesHerRowsInEveryAppFileTheDemosMuralsTooBesideTheRunningStores() async throws {
        let household = try await TestHousehold.make()
        let (data, stores) = try await Self.storesOnDisk()
        let bea = household.member.person, owner = household.owner.person
        let base = ChangeTime.milliseconds(Date()) - 86_400_000
        try await PersonalDataRouteTests.use(stores, as: bea.id, base: base, states: ["OR"])
        try await PersonalDataRouteTests.use(stores, as: owner.id, base: base, states: ["TX"])
        // Her stars in the demo's murals too, which a server without --demo does not open.
        try await Self.starInTheDemosMurals(for: bea.id, in: data)
        #expect((try Self.rows(of: bea.id, under: data)["murals-demo.sqlite"] ?? 0) > 0)

        try await PersonalDataStores.forget(bea.id, in: data)

        let left = try Self.rows(of: bea.id, under: data)
        #expect(left.count == 5 && left.values.allSatisfy { $0 == 0 }, "\(left)")
        #expect(try Self.rows(of: owner.id, under: data).filter { $0.key != "murals-demo.sqlite" }.values.allSatisfy { $0 > 0 })
        // The stores the server holds open read the same: Bea has no stars, no visits, no bookmarks.
        let murals = try #require(stores.murals)
        #expect(try await murals.visitedIDs(of: bea.id).isEmpty)
        #expect(try await murals.visitedIDs(of: owner.id) == [1, 3])
        // A folder without any app's database yet has nothing to remove, and that is no error.
        try await PersonalDataStores.forget(bea.id, in: try DataDirectory(url: data.url.appendingPathComponent("empty", isDirectory: true)))
    }
}
