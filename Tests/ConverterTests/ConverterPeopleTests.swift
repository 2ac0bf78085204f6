import Converter
import GRDB
import Foundation
import PocketCore
import Testing

/// Two people on one converter database: each remembers their own screen.
@Suite("Converter store per person")
struct ConverterPeopleTests {
    @Test func eachPersonRemembersTheirOwnScreen() async throws {
        let database = try ConverterDatabase.inMemory()
        let owner = database.store(for: .firstOwner), other = database.store(for: PersonID(rawValue: 2))
        _ = try await owner.update { state in
            state.switchCategory(to: .temperature)
            state.press(.digit(5))
        }
        #expect(try await other.state() == .firstLaunch)
        // The other person's key presses land on their screen only.
        _ = try await other.update { state in state.press(.digit(9)) }
        let mine = try await owner.state()
        #expect(mine.category == .temperature && mine.input.display == "5")
        let theirs = try await other.state()
        #expect(theirs.category == .data && theirs.input.display == "9")
    }
}

/// The folder the previous (single-user) release wrote: upgrading gives its screen to the owner.
@Suite("Converter store upgrade")
struct ConverterUpgradeTests {
    @Test func thePreviousReleasesScreenBecomesTheOwners() async throws {
        let fixture = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/previous-release-data/converter.sqlite")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("converter-upgrade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("converter.sqlite")
        // A copy: opening migrates, and the fixture must stay as the previous release wrote it.
        try FileManager.default.copyItem(at: fixture, to: url)

        let database = try ConverterDatabase.onDisk(at: url)
        let mine = try await database.store(for: .firstOwner).state()
        #expect(mine.category == .temperature)
        #expect(mine.input.display == "100")
        #expect(mine.units == UnitPair(from: "celsius", to: "fahrenheit"))
        #expect(try mine.convertedValue().formatted() == "212")
        #expect(try await database.store(for: PersonID(rawValue: 2)).state() == .firstLaunch)
    }

    /// The release with the outbox kept the saved time as text: it reads as the same millisecond,
    /// and a change made before it is still refused while a later one wins.
    @Test func theOutboxReleasesScreensKeepTheirSavedTimes() async throws {
        let fixture = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/release-outbox-data/converter.sqlite")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("converter-upgrade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("converter.sqlite")
        try FileManager.default.copyItem(at: fixture, to: url)
        let written = try DatabaseQueue(path: url.path)
        let texts = try await written.read { db in try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT personID, savedAt FROM converterState").map {
            ($0["personID"] as Int64, $0["savedAt"] as Date)
        }) }
        try written.close()

        let database = try ConverterDatabase.onDisk(at: url)
        let mine = try await database.store(for: .firstOwner).state()
        #expect(mine.category == .temperature && mine.input.display == "100")
        let bea = database.store(for: PersonID(rawValue: 2))
        let theirs = try await bea.state()
        #expect(theirs.category == .length && theirs.input.display == "26.2")
        let saved = try #require(try await bea.savedAt())
        #expect(saved == ChangeTime.milliseconds(try #require(texts[2])))
        #expect(try await bea.replace(with: .firstLaunch, changedAt: saved - 1).applied == false)
        #expect(try await bea.replace(with: .firstLaunch, changedAt: saved + 1).applied)
    }
}
