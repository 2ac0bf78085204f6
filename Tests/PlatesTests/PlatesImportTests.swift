import Foundation
import PocketCore
import Synchronization
import Testing
@testable import Plates

/// Large histories (issue #32, N5 and N6): a late change after many toggles of one state follows
/// the rule exactly, and a large import lets other people's taps in between its batches.
@Suite("Game store with large histories")
struct PlatesImportTests {
    private let catalog: StateCatalog
    /// Long enough ago that every change of these tests is in the past.
    private let base = ChangeTime.milliseconds(Date()) - 30 * 24 * 3_600_000

    init() throws {
        catalog = try StateCatalog.bundled()
    }

    @Test func aLateChangeAfterManyTogglesOfOneStateFollowsTheRule() async throws {
        let game = try PlatesDatabase.inMemory(catalog: catalog).game(for: .firstOwner)
        // 400 toggles of Ohio a minute apart: spot at even minutes, un-spot at odd ones.
        for index in 0..<400 {
            _ = try await game.apply(try PlateChange(id: "t\(index)", at: base + Int64(index) * 60_000,
                                                     kind: index.isMultiple(of: 2) ? .spot : .unspot, stateCode: "OH"))
        }
        #expect(try await game.snapshot().spots["OH"] == nil)
        // A late spot between two toggles changes nothing: an un-spot comes after it.
        _ = try await game.apply(try PlateChange(id: "late-inside", at: base + 100 * 60_000 + 30_000, kind: .spot, stateCode: "OH"))
        #expect(try await game.snapshot().spots["OH"] == nil)
        // Two spots after the last un-spot, the later arriving first: the earlier is the sighting.
        let last = base + 399 * 60_000
        _ = try await game.apply(try PlateChange(id: "after-2", at: last + 20_000, kind: .spot, stateCode: "OH"))
        _ = try await game.apply(try PlateChange(id: "after-1", at: last + 10_000, kind: .spot, stateCode: "OH"))
        #expect(try await game.snapshot().spots["OH"]?.spottedAt == ChangeTime.date(last + 10_000))
        // A late Reset after those spots clears Ohio; a spot after the Reset brings it back.
        _ = try await game.apply(try PlateChange(id: "after-3", at: last + 40_000, kind: .spot, stateCode: "OH"))
        _ = try await game.apply(try PlateChange(id: "reset", at: last + 30_000, kind: .reset))
        #expect(try await game.snapshot().spots["OH"]?.spottedAt == ChangeTime.date(last + 40_000))
        // Ties in time go by id, byte by byte: a spot at the Reset's time with a greater id counts.
        _ = try await game.apply(try PlateChange(id: "reset2", at: last + 50_000, kind: .reset))
        _ = try await game.apply(try PlateChange(id: "reset3", at: last + 50_000, kind: .spot, stateCode: "TX"))
        _ = try await game.apply(try PlateChange(id: "reset1", at: last + 50_000, kind: .spot, stateCode: "CA"))
        let spots = try await game.snapshot().spots
        #expect(spots["TX"]?.spottedAt == ChangeTime.date(last + 50_000))
        #expect(spots["CA"] == nil && spots["OH"] == nil)
        // The same changes played in time order make the same game.
        #expect(PlatesMerge.spots(try await changes(of: game)).keys.sorted() == spots.keys.sorted())
    }

    @Test func aLargeImportLetsAnotherPersonsTapInBetween() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plates-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try PlatesDatabase.onDisk(at: folder.appendingPathComponent("plates.sqlite"), catalog: catalog)
        let importer = database.game(for: PersonID(rawValue: 2)), other = database.game(for: .firstOwner)
        let count = PlatesGame.importBatch * 8
        let changes = (0..<count).map { index in
            PlatesExport.Change(id: "import-\(index)", at: base + Int64(index) * 1_000, kind: index % 7 == 3 ? "unspot" : "spot",
                                state: catalog.states[index % catalog.states.count].code, latitude: nil, longitude: nil)
        }
        let file = PlatesExport(muted: false, recordsLocation: false, firstTripStartedAt: nil, changes: changes, trips: [])

        let written = Atomic<Int>(0)
        let (batches, batch) = AsyncStream.makeStream(of: Int.self)
        let running = Task {
            try await importer.importData(file) { done, _ in
                written.store(done, ordering: .sequentiallyConsistent)
                batch.yield(done)
            }
            batch.finish()
        }
        // Once the first batch is in, another person's tap is queued behind at most one more.
        var iterator = batches.makeAsyncIterator()
        _ = await iterator.next()
        _ = try await other.spot("OH", at: Date(), location: nil)
        let whenTapped = written.load(ordering: .sequentiallyConsistent)
        try await running.value
        #expect(whenTapped < count, "the tap waited for the whole import (\(whenTapped) of \(count) written)")
        #expect(try await other.snapshot().isSpotted("OH"))
        #expect(try await importer.exported().changes.count == count)
    }

    private func changes(of game: PlatesGame) async throws -> [PlateChange] {
        try await game.exported().changes.map { change in
            try PlateChange(id: change.id, at: change.at, kind: PlateChange.Kind(rawValue: change.kind) ?? .spot, stateCode: change.state)
        }
    }
}
