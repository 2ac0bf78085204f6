import Foundation
import PocketCore
import Testing
@testable import Murals

/// The synchronizer against a real murals service on loopback, with an in-memory store.
@Suite("Murals sync")
struct MuralsSyncTests {
    struct Harness {
        let fixture: MuralsFixture
        let store: MuralsDatabase
        let clock: TestClock
        let synchronizer: MuralsSynchronizer
        let endpoint: URL
    }

    /// Runs `body` with a live fixture holding `records` and a synchronizer pointed at it.
    func withService(_ records: [MuralsFixture.Record], _ body: @Sendable (Harness) async throws -> Void) async throws {
        let fixture = MuralsFixture()
        fixture.setRecords(records)
        let store = try MuralsDatabase.inMemory()
        let clock = TestClock("2024-03-10T00:30:00Z")
        try await fixture.run { endpoint, _ in
            let synchronizer = MuralsSynchronizer(store: store, fetcher: LiveHTTPFetcher(), endpoint: endpoint, now: { clock.now }, timeout: .seconds(60))
            try await body(Harness(fixture: fixture, store: store, clock: clock, synchronizer: synchronizer, endpoint: endpoint))
        }
    }

    static let three: [MuralsFixture.Record] = [
        MuralsFixture.record(id: 1, title: "I See The Sea", artist: "Ben Eine", lat: "53.43881250167621", lon: "-3.0416222190640183", lastModified: "2024-03-01 10:00:00"),
        MuralsFixture.record(id: 2, title: "The Mysterines", artist: nil, info: nil, lastModified: "2024-03-01 11:00:00", images: ["a.jpg", "b.jpg", "c.jpg"]),
        MuralsFixture.record(id: 3, title: "Eye", artist: "Brez", lastModified: "2024-02-20 09:00:00"),
    ]

    @Test func firstSyncFetchesEverything() async throws {
        try await withService(Self.three) { h in
            let summary = try await h.synchronizer.sync()
            #expect(summary == MuralsSyncSummary(received: 3, inserted: 3, updated: 0, hidden: 0, skipped: 0, wasIncremental: false))
            #expect(h.fixture.queries == [["class": "newbrighton_murals"]])
            let murals = try await h.store.murals()
            #expect(murals.map(\.title) == ["Eye", "I See The Sea", "The Mysterines"])
            let mysterines = try #require(murals.last)
            #expect(mysterines.artist == nil)
            #expect(mysterines.info == nil)
            #expect(mysterines.images.map(\.filename) == ["a.jpg", "b.jpg", "c.jpg"])
            #expect(mysterines.images.map(\.id) == ["200", "201", "202"])
            let state = try await h.store.syncState()
            #expect(state == MuralsSyncState(lastSuccess: h.clock.now, lastAttempt: h.clock.now, lastError: nil, muralCount: 3))
        }
    }

    @Test func incrementalSyncAsksFromTheDayBeforeTheLastSuccessInUTC() async throws {
        try await withService(Self.three) { h in
            _ = try await h.synchronizer.sync() // at 2024-03-10T00:30Z
            h.fixture.upsert([
                MuralsFixture.record(id: 4, title: "Otto", artist: "Dotmasters", lastModified: "2024-03-10 00:10:00"),
                MuralsFixture.record(id: 3, title: "Eye", artist: "Brez", lastModified: "2024-03-09 23:59:00", images: ["eye1.jpg", "eye2.jpg"]),
            ])
            h.clock.set("2024-03-11T08:00:00Z")
            let summary = try await h.synchronizer.sync()
            // 00:30 UTC on the 10th, minus a day of overlap: the 9th, whatever the local time zone.
            #expect(h.fixture.queries.last == ["class": "newbrighton_murals", "lastModified": "2024-03-09"])
            #expect(summary == MuralsSyncSummary(received: 2, inserted: 1, updated: 1, hidden: 0, skipped: 0, wasIncremental: true))
            #expect(try await h.store.mural(id: 3)?.images.map(\.filename) == ["eye1.jpg", "eye2.jpg"])
            #expect(try await h.store.murals().count == 4)

            // The next one starts from the day before the 11th; the repeated record changes nothing.
            h.fixture.upsert([MuralsFixture.record(id: 5, title: "Rainbow Goddess", artist: "Mr Cenz", lastModified: "2024-03-11 07:00:00")])
            h.clock.set("2024-03-12T12:00:00Z")
            let third = try await h.synchronizer.sync()
            #expect(h.fixture.queries.last?["lastModified"] == "2024-03-10")
            #expect(third == MuralsSyncSummary(received: 2, inserted: 1, updated: 0, hidden: 0, skipped: 0, wasIncremental: true))
        }
    }

    @Test func disablingAMuralHidesItAndEnablingShowsItAgainWithItsFavourite() async throws {
        try await withService(Self.three) { h in
            _ = try await h.synchronizer.sync()
            try await h.store.setFavourite(true, muralID: 1, for: .firstOwner)
            h.fixture.upsert([MuralsFixture.record(id: 1, title: "I See The Sea", enabled: "0", lastModified: "2024-03-10 09:00:00")])
            h.clock.set("2024-03-10T10:00:00Z")
            let summary = try await h.synchronizer.sync()
            #expect(summary.hidden == 1)
            #expect(try await h.store.murals().map(\.id).sorted() == [2, 3])
            #expect(try await h.store.mural(id: 1) == nil)
            #expect(try await h.store.syncState().muralCount == 2)
            #expect(try await h.store.favouriteIDs(of: .firstOwner) == [1])

            h.fixture.upsert([MuralsFixture.record(id: 1, title: "I See The Sea", enabled: "1", lastModified: "2024-03-10 11:00:00")])
            let again = try await h.synchronizer.sync()
            #expect(again.updated == 1)
            #expect(try await h.store.mural(id: 1)?.title == "I See The Sea")
            #expect(try await h.store.favouriteIDs(of: .firstOwner) == [1])
        }
    }

    @Test func malformedResponsesChangeNothing() async throws {
        try await withService(Self.three) { h in
            _ = try await h.synchronizer.sync()
            let before = try await h.store.murals()
            let firstSuccess = h.clock.now
            for body in ["<html>Database error</html>", #"{"newbrighton_murals":[{"id":"1","title":"#, "[]"] {
                h.fixture.setMode(.body(body))
                h.clock.set("2024-03-11T10:00:00Z")
                let error = await #expect(throws: MuralsError.self) { try await h.synchronizer.sync() }
                guard case .malformedFeed = error else {
                    Issue.record("expected malformedFeed for \(body), got \(String(describing: error))")
                    continue
                }
                #expect(try await h.store.murals() == before)
                let state = try await h.store.syncState()
                #expect(state.lastSuccess == firstSuccess)
                #expect(state.lastAttempt == h.clock.now)
                #expect(state.lastError?.contains("the saved murals are unchanged") == true)
            }
            // The next good sync still asks from the day before the last success.
            h.fixture.setMode(.normal)
            _ = try await h.synchronizer.sync()
            #expect(h.fixture.queries.last?["lastModified"] == "2024-03-09")
            #expect(try await h.store.syncState().lastError == nil)
        }
    }

    @Test func serverErrorIsReportedAndRecorded() async throws {
        try await withService(Self.three) { h in
            h.fixture.setMode(.status(500))
            await #expect(throws: MuralsError.serviceUnavailable(.status(500))) { try await h.synchronizer.sync() }
            let state = try await h.store.syncState()
            #expect(state.lastSuccess == nil)
            #expect(state.muralCount == 0)
            #expect(state.lastError == "The murals could not be updated: the server answered 500. The saved murals are still shown.")
            // Still a full fetch next time, since none succeeded.
            h.fixture.setMode(.normal)
            #expect(try await h.synchronizer.sync().wasIncremental == false)
        }
    }

    @Test func aSlowServiceTimesOut() async throws {
        try await withService(Self.three) { h in
            _ = try await h.synchronizer.sync()
            // The reply would come after 3 s; a timeout error (not a late success) shows the 1 s limit held.
            // The first sync had the default limit, so a loaded machine cannot time that one out.
            h.fixture.setMode(.delay(3))
            let hasty = MuralsSynchronizer(store: h.store, fetcher: LiveHTTPFetcher(), endpoint: h.endpoint, now: { h.clock.now }, timeout: .seconds(1))
            await #expect(throws: MuralsError.serviceUnavailable(.timedOut)) { try await hasty.sync() }
            #expect(try await h.store.murals().count == 3)
            #expect(try await h.store.syncState().lastError?.contains("did not answer in time") == true)
        }
    }

    @Test func anUnreachableServiceKeepsTheSavedMurals() async throws {
        let store = try MuralsDatabase.inMemory()
        _ = try await store.apply(DemoMuralService.murals(count: 3), fetchedAt: TestClock.date("2024-01-01T00:00:00Z"), wasIncremental: false)
        let endpoint = try #require(URL(string: "http://127.0.0.1:9/nbm/data2.php?class=newbrighton_murals"))
        let synchronizer = MuralsSynchronizer(store: store, fetcher: LiveHTTPFetcher(), endpoint: endpoint, timeout: .seconds(1))
        await #expect(throws: MuralsError.serviceUnavailable(.unreachable(host: "127.0.0.1"))) { try await synchronizer.sync() }
        #expect(try await store.murals().count == 3)
    }

    @Test func duplicateIDsInOneResponseKeepTheLaterOne() async throws {
        let records = [
            MuralsFixture.record(id: 7, title: "Old Title", lastModified: "2024-03-01 10:00:00"),
            MuralsFixture.record(id: 8, title: "Torn but not Broken", artist: "Mr Penfold"),
            MuralsFixture.record(id: 7, title: "The Black Pearl", artist: "Art by Alexander", lastModified: "2024-03-02 10:00:00", images: ["pearl.jpg"]),
        ]
        try await withService(records) { h in
            let summary = try await h.synchronizer.sync()
            #expect(summary.received == 2)
            #expect(summary.inserted == 2)
            let pearl = try #require(try await h.store.mural(id: 7))
            #expect(pearl.title == "The Black Pearl")
            #expect(pearl.images.map(\.filename) == ["pearl.jpg"])
        }
    }

    @Test func nonNumericCoordinatesAreSkippedAndTheRestSyncs() async throws {
        var records = Self.three
        records.insert(MuralsFixture.record(id: 10, title: "Nowhere", lat: "N/A", lon: "-3.04"), at: 1)
        records.append(MuralsFixture.record(id: 11, title: "Also nowhere", lat: "53.4", lon: "west"))
        try await withService(records) { h in
            let summary = try await h.synchronizer.sync()
            #expect(summary == MuralsSyncSummary(received: 3, inserted: 3, updated: 0, hidden: 0, skipped: 2, wasIncremental: false))
            #expect(try await h.store.murals().map(\.id).sorted() == [1, 2, 3])
        }
    }

    @Test func favouritesAndVisitsSurviveEveryKindOfSync() async throws {
        try await withService(Self.three) { h in
            _ = try await h.synchronizer.sync()
            try await h.store.setFavourite(true, muralID: 2, for: .firstOwner)
            try await h.store.setFavourite(true, muralID: 3, for: .firstOwner)
            try await h.store.markVisited([1, 3], for: .firstOwner)
            func expectKept(_ step: String) async throws {
                #expect(try await h.store.favouriteIDs(of: .firstOwner) == [2, 3], "after \(step)")
                #expect(try await h.store.visitedIDs(of: .firstOwner) == [1, 3], "after \(step)")
            }
            // An edit that rewrites the mural and all its images.
            h.fixture.upsert([MuralsFixture.record(id: 2, title: "The Mysterines (restored)", lastModified: "2024-03-10 08:00:00", images: ["new.jpg"])])
            _ = try await h.synchronizer.sync()
            try await expectKept("an update")
            // Hidden, then a failed and a malformed sync, then a full resend.
            h.fixture.upsert([MuralsFixture.record(id: 3, title: "Eye", enabled: "0", lastModified: "2024-03-10 09:00:00")])
            _ = try await h.synchronizer.sync()
            try await expectKept("hiding")
            h.fixture.setMode(.status(503))
            _ = try? await h.synchronizer.sync()
            try await expectKept("a server error")
            h.fixture.setMode(.body("not json"))
            _ = try? await h.synchronizer.sync()
            try await expectKept("a malformed response")
            h.fixture.setMode(.normal)
            _ = try await h.store.apply(try await h.store.murals(), fetchedAt: h.clock.now, wasIncremental: false)
            try await expectKept("a repeated response")
        }
    }

    @Test func concurrentSyncsShareOneRequest() async throws {
        try await withService(Self.three) { h in
            h.fixture.setMode(.delay(0.5))
            async let first = h.synchronizer.sync()
            async let second = h.synchronizer.sync()
            let (a, b) = try await (first, second)
            #expect(a == b)
            #expect(h.fixture.queries.count == 1)
            #expect(await h.synchronizer.isSyncing == false)
            // After it finished, a new call makes a new request.
            h.fixture.setMode(.normal)
            _ = try await h.synchronizer.sync()
            #expect(h.fixture.queries.count == 2)
        }
    }

    @Test func theDemoServiceFiltersLikeTheRealOne() async throws {
        // The fixture serving the demo data set: incremental sync asks only for what changed.
        let fixture = MuralsFixture()
        let feed = try MuralFeed.decode(DemoMuralService.feed(count: 40))
        #expect(feed.murals.count == 40)
        let all = try #require(try JSONSerialization.jsonObject(with: DemoMuralService.feed(count: 40)) as? [String: [[String: Any]]])
        let records = try (all["newbrighton_murals"] ?? []).map { object -> MuralsFixture.Record in
            let data = try JSONSerialization.data(withJSONObject: object)
            return MuralsFixture.Record(json: String(decoding: data, as: UTF8.self), lastModified: object["lastModified"] as? String ?? "")
        }
        fixture.setRecords(records)
        let store = try MuralsDatabase.inMemory()
        try await fixture.run { endpoint, _ in
            let synchronizer = MuralsSynchronizer(store: store, fetcher: LiveHTTPFetcher(), endpoint: endpoint, now: { TestClock.date("2022-11-01T12:00:00Z") })
            #expect(try await synchronizer.sync().inserted == 40)
            let second = try await synchronizer.sync()
            let expected = feed.murals.filter { $0.lastModified >= "2022-10-31" }.count
            #expect(second.received == expected)
            #expect(second.received < 40)
            #expect(second.inserted == 0 && second.updated == 0)
        }
    }
}
