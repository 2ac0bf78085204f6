import Foundation
import GRDB
import PocketCore
import Testing
@testable import Remote

@Suite("Remote store")
struct RemoteDatabaseTests {
    private let store: RemoteDatabase
    private let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    private let phone = "phone-a"

    init() throws {
        store = try RemoteDatabase.inMemory(now: t0)
    }

    // MARK: Factory state and presses

    @Test func freshDevicesAreInTheirFactoryState() async throws {
        let tv = try await store.television()
        #expect(tv.device == Television())
        #expect(tv.notice == nil)
        #expect(tv.revision == 0)
        let dvr = try await store.dvr()
        #expect(dvr.device == DVR())
        #expect(dvr.revision == 0)
        #expect(try await store.lastRemote() == .tv)
    }

    @Test func eachStoredPressBumpsTheRevisionAndAHarmlessOneStoresNothing() async throws {
        // Given a TV switched on
        let on = try await store.apply(.setPower(true), deviceID: phone, at: t0)
        #expect(on.isStored)
        #expect(on.snapshot.revision == 1)
        // When it is switched on again (a second phone), Then nothing is stored
        let again = try await store.apply(.setPower(true), deviceID: phone, at: t0)
        #expect(again.outcome == .unchanged)
        #expect(!again.isStored)
        #expect(again.snapshot.revision == 1)
        // And two digits tune with one revision: the first is only the typing phone's business
        let first = try await store.apply(.digit(0), deviceID: phone, at: t0)
        #expect(first.outcome == .awaitingSecondDigit(0))
        #expect(!first.isStored)
        #expect(first.snapshot.revision == 1)
        #expect(first.snapshot.device.display == "0-")
        let tuned = try await store.apply(.digit(7), deviceID: phone, at: t0)
        #expect(tuned.outcome == .changed)
        #expect(tuned.snapshot.device.channel.description == "07")
        #expect(tuned.snapshot.revision == 2)
        #expect(try await store.television() == tuned.snapshot)
    }

    @Test func theZeroZeroHintIsShownUntilTheNextPress() async throws {
        _ = try await store.apply(.setPower(true), deviceID: phone, at: t0)
        _ = try await store.apply(.digit(0), deviceID: phone, at: t0)
        let refused = try await store.apply(.digit(0), deviceID: phone, at: t0)
        #expect(refused.outcome == .invalidChannel("00"))
        #expect(refused.snapshot.notice == "00 is not a channel")
        #expect(refused.snapshot.device.channel.number == 1)
        #expect(try await store.television().notice == "00 is not a channel")
        let next = try await store.apply(.channelUp, deviceID: phone, at: t0)
        #expect(next.snapshot.notice == nil)
        #expect(next.snapshot.device.channel.number == 2)
    }

    @Test func aRefusedEditStoresNothingEvenWhenItsFirstCommandsWereFine() async throws {
        _ = try await store.apply(.setPower(true), deviceID: phone, at: t0)
        let before = try await store.television()
        await #expect(throws: RemoteError.invalidLabel("NEWS4")) {
            try await store.apply([.editFavourite(index: 0, label: "HBO", channel: 9), .editFavourite(index: 1, label: "NEWS4", channel: 4)], deviceID: phone, at: t0)
        }
        await #expect(throws: RemoteError.volumeOutOfRange(101)) {
            try await store.apply([.setVolume(10), .setVolume(101)], deviceID: phone, at: t0)
        }
        #expect(try await store.television() == before)
        // And a valid edit of all four lands together.
        let edits: [TVCommand] = ["HBO", "PBS", "ESPN", "CNN"].enumerated().map { .editFavourite(index: $0, label: $1, channel: 20 + $0) }
        let saved = try await store.apply(edits, deviceID: phone, at: t0)
        #expect(saved.snapshot.device.favourites.map(\.label) == ["HBO", "PBS", "ESPN", "CNN"])
        #expect(saved.snapshot.revision == before.revision + 1)
    }

    // MARK: The DVR's clock

    @Test func theDVRRunsOnBetweenPressesAndIsStoredWithTheTimeOfItsLastChange() async throws {
        _ = try await store.setDVRPower(true, at: t0)
        let playing = try await store.press(.play, at: t0)
        #expect(playing.outcome == .changed(to: .playing))
        #expect(playing.snapshot.dvr(at: t0.addingTimeInterval(42)).position == 42)
        // When Pause is pressed ten seconds later, Then the frame is the tenth second
        let paused = try await store.press(.pause, at: t0.addingTimeInterval(10))
        #expect(paused.snapshot.device.position == 10)
        #expect(paused.snapshot.updatedAt == t0.addingTimeInterval(10))
        #expect(paused.snapshot.dvr(at: t0.addingTimeInterval(500)).position == 10)
    }

    @Test func aLatePressCannotWindTheClockBack() async throws {
        _ = try await store.setDVRPower(true, at: t0)
        _ = try await store.press(.record, at: t0)
        let stopped = try await store.press(.stop, at: t0.addingTimeInterval(30))
        #expect(stopped.snapshot.device.recordingLength == 30)
        let late = try await store.press(.play, at: t0.addingTimeInterval(5))
        #expect(late.snapshot.updatedAt == t0.addingTimeInterval(30))
        #expect(late.snapshot.device.recordingLength == 30)
    }

    @Test func aRefusedPressStoresNothingAndForcingStopsThenEnters() async throws {
        _ = try await store.setDVRPower(true, at: t0)
        _ = try await store.press(.play, at: t0)
        let before = try await store.dvr()
        // Given Playing, When Record is pressed, Then the press asks first and nothing is stored
        let refused = try await store.press(.record, at: t0.addingTimeInterval(5))
        guard case .needsConfirmation(let refusal) = refused.outcome else {
            Issue.record("expected a confirmation, got \(refused.outcome)")
            return
        }
        #expect(refusal.from == .playing)
        #expect(!refused.isStored)
        #expect(try await store.dvr() == before)
        // When forced, Then the DVR records
        let forced = try await store.force(.record, at: t0.addingTimeInterval(6))
        #expect(forced.outcome == .forced(refusal))
        #expect(forced.snapshot.device.state == .recording)
        #expect(forced.snapshot.revision == before.revision + 1)
    }

    @Test func powerOffStopsAndIsIdempotent() async throws {
        _ = try await store.setDVRPower(true, at: t0)
        _ = try await store.press(.record, at: t0)
        let off = try await store.setDVRPower(false, at: t0.addingTimeInterval(3))
        #expect(off.outcome == .changed(to: .stopped))
        #expect(!off.snapshot.device.isOn)
        #expect(off.snapshot.device.recordingLength == 3)
        #expect(try await store.setDVRPower(false, at: t0).isStored == false)
        #expect(try await store.press(.play, at: t0).outcome == .refusedPowerOff)
    }

    // MARK: Concurrency

    @Test func concurrentPressesFromManyPhonesAreAppliedOneAfterTheOther() async throws {
        _ = try await store.apply(.setPower(true), deviceID: phone, at: t0)
        let presses = 150
        // Given 150 Channel Up presses at once, Then every one lands: 01 + 150 on a 99-channel dial is 52
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<presses {
                group.addTask { _ = try await store.apply(.channelUp, deviceID: phone, at: t0) }
            }
            try await group.waitForAll()
        }
        let tv = try await store.television()
        #expect(tv.device.channel.number == 52)
        #expect(tv.revision == Int64(presses) + 1)
    }

    @Test func concurrentDVRPressesNeverLoseAChange() async throws {
        _ = try await store.setDVRPower(true, at: t0)
        let buttons = (0..<120).map { DVRButton.allCases[$0 % DVRButton.allCases.count] }
        let stored = try await withThrowingTaskGroup(of: Bool.self) { group in
            for button in buttons {
                group.addTask { try await store.press(button, at: t0).isStored }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        // Each stored press bumped the revision exactly once: no two read the same row and both wrote.
        #expect(try await store.dvr().revision == Int64(stored) + 1)
    }

    // MARK: Settings and reset

    @Test func theLastRemoteIsRemembered() async throws {
        try await store.setLastRemote(.dvr)
        #expect(try await store.lastRemote() == .dvr)
        try await store.setLastRemote(.tv)
        #expect(try await store.lastRemote() == .tv)
    }

    @Test func resetRestoresTheFactoryStateAndStillMovesTheRevisionOn() async throws {
        _ = try await store.apply([.setPower(true), .setVolume(80), .editFavourite(index: 0, label: "HBO", channel: 9)], deviceID: phone, at: t0)
        _ = try await store.setDVRPower(true, at: t0)
        _ = try await store.press(.record, at: t0)
        try await store.setLastRemote(.dvr)
        let before = try await store.television().revision
        try await store.reset(at: t0.addingTimeInterval(60))
        let tv = try await store.television()
        #expect(tv.device == Television())
        #expect(tv.revision == before + 1)
        #expect(try await store.dvr().device == DVR())
        #expect(try await store.lastRemote() == .tv)
    }

    // MARK: Persistence

    @Test func devicesSurviveARestartOnDisk() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remote-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("remote.sqlite")
        do {
            let first = try RemoteDatabase.onDisk(at: url, now: t0)
            _ = try await first.apply([.setPower(true), .setVolume(30), .digit(4), .digit(2)], deviceID: phone, at: t0)
            _ = try await first.apply(.editFavourite(index: 3, label: "pbs", channel: 28), deviceID: phone, at: t0)
            _ = try await first.setDVRPower(true, at: t0)
            _ = try await first.press(.record, at: t0)
            try await first.setLastRemote(.dvr)
        }
        let second = try RemoteDatabase.onDisk(at: url, now: t0.addingTimeInterval(3600))
        let tv = try await second.television()
        #expect(tv.device.isOn)
        #expect(tv.device.volume == 30)
        #expect(tv.device.channel.number == 42)
        #expect(tv.device.favourites[3].label == "PBS")
        #expect(tv.revision == 2)
        let dvr = try await second.dvr()
        #expect(dvr.device.state == .recording)
        #expect(dvr.updatedAt == t0)
        #expect(dvr.dvr(at: t0.addingTimeInterval(90)).recordingLength == 90)
        #expect(try await second.lastRemote() == .dvr)
    }

    // MARK: Damaged or older rows

    @Test func anOlderJSONShapeWithoutOptionalKeysStillLoads() async throws {
        let queue = try DatabaseFactory.inMemory(label: "remote")
        let store = try RemoteDatabase(writer: queue, now: t0)
        let favourites = #"[{"label":"ABC","channel":7},{"label":"CBS","channel":2},{"label":"FOX","channel":11},{"label":"NBC","channel":4}]"#
        try await queue.write { db in
            try db.execute(sql: "UPDATE device SET state = ? WHERE id = 'tv'", arguments: [#"{"isOn":true,"volume":30,"channel":5,"favourites":\#(favourites)}"#])
        }
        let tv = try await store.television()
        #expect(tv.notice == nil)
        #expect(tv.device.volume == 30)
        #expect(tv.device.pendingDigit == nil)
    }

    @Test(arguments: [
        #"{"isOn":true}"#,
        #"{"isOn":true,"volume":500,"channel":5,"favourites":[]}"#,
        "not json at all",
        "",
    ])
    func anUnreadableRowIsResetWithANoticeInsteadOfFailing(_ json: String) async throws {
        let queue = try DatabaseFactory.inMemory(label: "remote")
        let store = try RemoteDatabase(writer: queue, now: t0)
        _ = try await store.apply(.setPower(true), deviceID: phone, at: t0)
        try await queue.write { db in
            try db.execute(sql: "UPDATE device SET state = ? WHERE id = 'tv'", arguments: [json])
            try db.execute(sql: "UPDATE device SET state = ?, updatedAt = 'not a date' WHERE id = 'dvr'", arguments: [#"{"isOn":false,"state":"recording","position":0,"recordingLength":0}"#])
        }
        // Reading never throws: the page shows a factory-fresh device and says why.
        let tv = try await store.television()
        #expect(tv.device == Television())
        #expect(tv.notice == "The TV’s saved settings could not be read, so it was reset")
        #expect(try await store.dvr().device == DVR())
        // The next press stores a readable row again.
        let on = try await store.apply(.setPower(true), deviceID: phone, at: t0)
        #expect(on.isStored)
        #expect(on.snapshot.notice == nil)
        let stored = try await queue.read { db in try String.fetchOne(db, sql: "SELECT state FROM device WHERE id = 'tv'") }
        #expect(try JSONDecoder().decode(Television.self, from: Data((stored ?? "").utf8)).isOn)
    }

    @Test func openingRepairsADamagedOrMissingRow() async throws {
        let queue = try DatabaseFactory.inMemory(label: "remote")
        _ = try RemoteDatabase(writer: queue, now: t0)
        try await queue.write { db in
            try db.execute(sql: "UPDATE device SET state = '{', revision = 7 WHERE id = 'tv'")
            try db.execute(sql: "DELETE FROM device WHERE id = 'dvr'")
        }
        // When the server starts again on the same database
        let store = try RemoteDatabase(writer: queue, now: t0)
        let rows = try queue.read { db in try Row.fetchAll(db, sql: "SELECT id, revision, notice FROM device ORDER BY id") }
        #expect(rows.map { $0["id"] as String } == ["dvr", "tv"])
        #expect(rows.map { $0["revision"] as Int64 } == [0, 8])
        let tv = try await store.television()
        #expect(tv.notice != nil)
        #expect(tv.revision == 8)
        #expect(try await store.dvr().device == DVR())
    }
}
