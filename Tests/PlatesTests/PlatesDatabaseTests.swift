import Foundation
import GRDB
import PocketCore
import Testing
@testable import Plates

@Suite("Game store")
struct PlatesDatabaseTests {
    private let catalog: StateCatalog
    private let store: PlatesGame

    init() throws {
        catalog = try StateCatalog.bundled()
        store = try PlatesDatabase.inMemory(catalog: catalog).game(for: .firstOwner)
    }

    @Test func aNewGameStartsEmpty() async throws {
        let game = try await store.snapshot()
        #expect(game.score == 0)
        #expect(game.trip.isCurrent)
        #expect(!game.isMuted)
        #expect(!game.recordsLocation)
    }

    @Test func spottingAddsOneAndIsIdempotent() async throws {
        let first = Date(timeIntervalSince1970: 1_000)
        // Given one spot, When the same state is spotted again (another phone), Then the score and first sighting stay.
        _ = try await store.spot("AL", at: first, location: nil)
        let game = try await store.spot("al", at: Date(timeIntervalSince1970: 2_000), location: nil)
        #expect(game.score == 1)
        #expect(game.spots["AL"]?.spottedAt == first)
    }

    @Test func unspottingTakesOneOffAndUnknownStatesAreRefused() async throws {
        _ = try await store.spot("AL", at: Date(), location: nil)
        _ = try await store.spot("TX", at: Date(), location: nil)
        let game = try await store.unspot("AL")
        #expect(game.score == 1)
        #expect(!game.isSpotted("AL"))
        #expect(game.isSpotted("TX"))
        // Un-spotting a white cell changes nothing.
        #expect(try await store.unspot("AL").score == 1)
        await #expect(throws: PlatesError.unknownState("ZZ")) { try await store.spot("ZZ", at: Date(), location: nil) }
    }

    @Test func resetClearsEveryState() async throws {
        for state in catalog.states.prefix(10) { _ = try await store.spot(state.code, at: Date(), location: nil) }
        #expect(try await store.snapshot().score == 10)
        let game = try await store.resetGame()
        #expect(game.score == 0)
        #expect(game.spots.isEmpty)
    }

    @Test func scoreAlwaysEqualsTheSpottedCountUnderConcurrentTaps() async throws {
        // Many taps at once, each state tapped several times: never lost, never doubled.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<4 {
                for state in catalog.states {
                    group.addTask { _ = try await store.spot(state.code, at: Date(timeIntervalSince1970: Double(round)), location: nil) }
                }
            }
            try await group.waitForAll()
        }
        let game = try await store.snapshot()
        #expect(game.score == 50)
        #expect(Set(game.spots.keys) == Set(catalog.states.map(\.code)))
    }

    @Test func locationsAreRecordedAndValidated() async throws {
        let here = try Location(latitude: 36.1, longitude: -97.06)
        // Kept only once the person chose to record where they spot.
        #expect(try await store.spot("TX", at: Date(), location: here).spots["TX"]?.location == nil)
        _ = try await store.setRecordsLocation(true)
        let game = try await store.spot("OK", at: Date(), location: here)
        #expect(game.spots["OK"]?.location == here)
        #expect(throws: PlatesError.invalidLocation) { try Location(latitude: 91, longitude: 0) }
        #expect(throws: PlatesError.invalidLocation) { try Location(latitude: .nan, longitude: 0) }
    }

    @Test func tripsKeepFinishedGamesWithTheirScores() async throws {
        let day1 = Date(timeIntervalSince1970: 86_400), day2 = Date(timeIntervalSince1970: 2 * 86_400)
        _ = try await store.spot("AL", at: day1, location: nil)
        _ = try await store.spot("AK", at: day1, location: nil)
        let next = try await store.startNewTrip(at: day2)
        #expect(next.score == 0)
        #expect(next.trip.startedAt == day2)
        let trips = try await store.trips()
        #expect(trips.count == 2)
        #expect(trips[0].trip.isCurrent && trips[0].score == 0)
        #expect(trips[1].trip.endedAt == day2 && trips[1].score == 2)
        let finished = try await store.trip(id: trips[1].trip.id)
        #expect(finished.spots.map(\.stateCode) == ["AK", "AL"])
        await #expect(throws: PlatesError.unknownTrip(999)) { try await store.trip(id: 999) }
    }

    @Test func anEmptyTripIsRestartedNotKept() async throws {
        let later = Date(timeIntervalSince1970: 5_000)
        let game = try await store.startNewTrip(at: later)
        #expect(game.trip.startedAt == later)
        #expect(try await store.trips().count == 1)
    }

    @Test func settingsAreRemembered() async throws {
        _ = try await store.setMuted(true)
        let game = try await store.setRecordsLocation(true)
        #expect(game.isMuted && game.recordsLocation)
        #expect(try await store.setMuted(false).isMuted == false)
    }

    @Test func gameSurvivesReopeningTheFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("plates.sqlite")
        do {
            let disk = try PlatesDatabase.onDisk(at: url, catalog: catalog).game(for: .firstOwner)
            _ = try await disk.spot("WY", at: Date(), location: nil)
            _ = try await disk.setMuted(true)
        }
        let reopened = try PlatesDatabase.onDisk(at: url, catalog: catalog).game(for: .firstOwner)
        let game = try await reopened.snapshot()
        #expect(game.isSpotted("WY") && game.score == 1 && game.isMuted)
        #expect(try await reopened.trips().count == 1)
    }
}
