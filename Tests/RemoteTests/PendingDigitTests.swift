import Foundation
import GRDB
import PocketCore
import Testing
@testable import Remote

/// The TV is shared, but a half-typed channel belongs to the phone that typed it.
@Suite("Pending digits per phone")
struct PendingDigitTests {
    private let queue: DatabaseQueue
    private let store: RemoteDatabase
    private let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    private let phoneA = "phone-a"
    private let phoneB = "phone-b"

    init() throws {
        queue = try DatabaseFactory.inMemory(label: "remote")
        store = try RemoteDatabase(writer: queue, now: t0)
    }

    /// The TV row's JSON as stored, to check what the shared row carries.
    private func sharedRowJSON(_ reader: any DatabaseReader) async throws -> String {
        try await reader.read { db in try String.fetchOne(db, sql: "SELECT state FROM device WHERE id = 'tv'") ?? "" }
    }

    @Test func twoPhonesTypingAtOnceEachTuneWhatTheyTyped() async throws {
        _ = try await store.apply(.setPower(true), deviceID: phoneA, at: t0)
        // A presses 4, B presses 7: each sees only its own digit, the Screen neither
        let a4 = try await store.apply(.digit(4), deviceID: phoneA, at: t0)
        let b7 = try await store.apply(.digit(7), deviceID: phoneB, at: t0)
        #expect(a4.outcome == .awaitingSecondDigit(4))
        #expect(b7.outcome == .awaitingSecondDigit(7))
        #expect(b7.snapshot.device.display == "7-")
        #expect(try await store.television(deviceID: phoneA, at: t0).device.display == "4-")
        #expect(try await store.television(deviceID: phoneB, at: t0).device.display == "7-")
        #expect(try await store.television(deviceID: "phone-c", at: t0).device.display == "01")
        #expect(try await store.television().device.pendingDigit == nil)
        // A presses 2: 42, and B is still waiting on its 7
        let a2 = try await store.apply(.digit(2), deviceID: phoneA, at: t0)
        #expect(a2.outcome == .changed)
        #expect(a2.snapshot.device.channel.number == 42)
        #expect(try await store.television(deviceID: phoneB, at: t0).device.display == "7-")
        // B presses 5: 75
        let b5 = try await store.apply(.digit(5), deviceID: phoneB, at: t0)
        #expect(b5.snapshot.device.channel.number == 75)
        #expect(try await store.television().device.channel.number == 75)
        #expect(try await store.television(deviceID: phoneA, at: t0).device.display == "75")
        #expect(try await store.television(deviceID: phoneB, at: t0).device.display == "75")
    }

    @Test func aFirstDigitMovesNoRevisionAndNeverReachesTheSharedRow() async throws {
        let on = try await store.apply(.setPower(true), deviceID: phoneA, at: t0)
        let typed = try await store.apply(.digit(4), deviceID: phoneA, at: t0)
        #expect(!typed.isStored)
        #expect(typed.snapshot.revision == on.snapshot.revision)
        #expect(try await store.television().revision == on.snapshot.revision)
        let json = try await sharedRowJSON(queue)
        #expect(!json.contains("pendingDigit"))
    }

    @Test func aNonKeypadPressClearsOnlyThatPhonesDigit() async throws {
        _ = try await store.apply(.setPower(true), deviceID: phoneA, at: t0)
        _ = try await store.apply(.digit(4), deviceID: phoneA, at: t0)
        _ = try await store.apply(.digit(7), deviceID: phoneB, at: t0)
        // When B steps the channel up
        let up = try await store.apply(.channelUp, deviceID: phoneB, at: t0)
        #expect(up.snapshot.device.display == "02")
        // Then B's 7 is gone, A's 4 is still waiting, and A's next digit completes 4x
        #expect(try await store.television(deviceID: phoneB, at: t0).device.pendingDigit == nil)
        #expect(try await store.television(deviceID: phoneA, at: t0).device.pendingDigit == 4)
        #expect(try await store.apply(.digit(1), deviceID: phoneA, at: t0).snapshot.device.channel.number == 41)
    }

    @Test func switchingTheSetOffAbandonsEveryPhonesDigit() async throws {
        _ = try await store.apply(.setPower(true), deviceID: phoneA, at: t0)
        _ = try await store.apply(.digit(4), deviceID: phoneA, at: t0)
        _ = try await store.apply(.digit(7), deviceID: phoneB, at: t0)
        _ = try await store.apply(.setPower(false), deviceID: phoneA, at: t0)
        _ = try await store.apply(.setPower(true), deviceID: phoneA, at: t0)
        #expect(try await store.television(deviceID: phoneA, at: t0).device.pendingDigit == nil)
        #expect(try await store.television(deviceID: phoneB, at: t0).device.pendingDigit == nil)
        // A digit typed now starts afresh
        #expect(try await store.apply(.digit(3), deviceID: phoneB, at: t0).outcome == .awaitingSecondDigit(3))
    }

    @Test func resetForgetsEveryPhonesDigit() async throws {
        _ = try await store.apply(.setPower(true), deviceID: phoneA, at: t0)
        _ = try await store.apply(.digit(4), deviceID: phoneA, at: t0)
        try await store.reset(at: t0)
        _ = try await store.apply(.setPower(true), deviceID: phoneB, at: t0)
        #expect(try await store.television(deviceID: phoneA, at: t0).device.pendingDigit == nil)
    }

    // MARK: A lone digit gives up

    @Test func aLoneDigitWaitsThreeSecondsAndThenIsGone() async throws {
        _ = try await store.apply(.setPower(true), deviceID: phoneA, at: t0)
        let typed = try await store.apply(.digit(4), deviceID: phoneA, at: t0)
        #expect(typed.snapshot.device.pendingDigitTimeLeft(at: t0) == Television.pendingDigitLifetime)
        // Within the three seconds it still waits, and says how long for
        let soon = try await store.television(deviceID: phoneA, at: t0.addingTimeInterval(2))
        #expect(soon.device.display == "4-")
        #expect(soon.device.pendingDigitTimeLeft(at: t0.addingTimeInterval(2)) == 1)
        #expect(try await store.television(deviceID: phoneA, at: t0.addingTimeInterval(3)).device.display == "4-")
        // After them it is gone on read, even after a reload
        let later = try await store.television(deviceID: phoneA, at: t0.addingTimeInterval(3.5))
        #expect(later.device.display == "01")
        #expect(later.device.pendingDigit == nil)
        #expect(later.device.pendingDigitTimeLeft(at: t0.addingTimeInterval(3.5)) == nil)
        #expect(try await store.television(deviceID: phoneA, at: t0.addingTimeInterval(3600)).device.display == "01")
    }

    @Test func aDigitAfterTheWaitStartsANewChannelEntry() async throws {
        _ = try await store.apply(.setPower(true), deviceID: phoneA, at: t0)
        _ = try await store.apply(.digit(4), deviceID: phoneA, at: t0)
        // The 2 comes four seconds later: not 42, but the first digit of a new channel
        let late = t0.addingTimeInterval(4)
        let two = try await store.apply(.digit(2), deviceID: phoneA, at: late)
        #expect(two.outcome == .awaitingSecondDigit(2))
        #expect(two.snapshot.device.display == "2-")
        #expect(two.snapshot.device.channel.number == 1)
        // Its own three seconds start from then, and the next digit completes 25
        #expect(try await store.television(deviceID: phoneA, at: late.addingTimeInterval(2.5)).device.display == "2-")
        let five = try await store.apply(.digit(5), deviceID: phoneA, at: late.addingTimeInterval(2.5))
        #expect(five.outcome == .changed)
        #expect(five.snapshot.device.channel.number == 25)
    }

    @Test func aSecondDigitInTimeStillTunesBothDigits() async throws {
        _ = try await store.apply(.setPower(true), deviceID: phoneA, at: t0)
        _ = try await store.apply(.digit(4), deviceID: phoneA, at: t0)
        let two = try await store.apply(.digit(2), deviceID: phoneA, at: t0.addingTimeInterval(2.9))
        #expect(two.snapshot.device.channel.number == 42)
    }

    // MARK: Upgrade

    /// The previous release's `remote.sqlite`, copied (the fixture is never opened in place).
    private func previousRelease() throws -> URL {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/previous-release-data/remote.sqlite")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("previous-release-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("remote.sqlite")
        try FileManager.default.copyItem(at: fixture, to: copy)
        return copy
    }

    @Test func thePreviousReleasesTVIsIntact() async throws {
        let file = try previousRelease()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let store = try RemoteDatabase.onDisk(at: file, now: t0)
        let tv = try await store.television()
        #expect(tv.device.isOn)
        #expect(tv.device.channel.number == 47)
        #expect(tv.device.volume == 50)
        #expect(tv.device.favourites.map(\.label) == ["ABC", "CBS", "FOX", "NBC"])
        #expect(tv.notice == nil)
        #expect(tv.revision == 3)
        #expect(try await store.television(deviceID: phoneA, at: t0).device.display == "47")
        // And typing works per phone on the upgraded file
        _ = try await store.apply(.digit(1), deviceID: phoneA, at: t0)
        #expect(try await store.apply(.digit(2), deviceID: phoneA, at: t0).snapshot.device.channel.number == 12)
    }

    @Test func aPendingDigitThePreviousReleaseStoredIsDropped() async throws {
        let file = try previousRelease()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        // Given the previous release's shared row holding a half-typed 4 (its shape, written before today's store opens it)
        do {
            let queue = try DatabaseQueue(path: file.path)
            try await queue.write { db in
                try db.execute(sql: """
                    UPDATE device SET state = json_set(state, '$.pendingDigit', 4) WHERE id = 'tv'
                    """)
            }
            try queue.close()
        }
        let store = try RemoteDatabase.onDisk(at: file, now: t0)
        // Then nobody inherits it, the set is otherwise intact, and the row no longer carries it
        #expect(try await store.television(deviceID: phoneA, at: t0).device.display == "47")
        #expect(try await store.television().device.pendingDigit == nil)
        #expect(try await store.television().revision == 3)
        #expect(try await store.apply(.digit(2), deviceID: phoneA, at: t0).outcome == .awaitingSecondDigit(2))
        let reader = try DatabaseQueue(path: file.path)
        #expect(!(try await sharedRowJSON(reader)).contains("pendingDigit"))
        try reader.close()
    }
}
