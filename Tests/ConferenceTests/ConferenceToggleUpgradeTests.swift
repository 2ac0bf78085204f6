import Foundation
import GRDB
import PocketCore
import Testing
@testable import Conference

/// State databases earlier releases wrote (bookmarks in `bookmark` with a date, decisions by
/// `talkID`) open into the shared toggle's tables with every bookmark (its time now in
/// milliseconds), decision and seen change id kept, and those still decide the latest-wins rule.
@Suite("Conference bookmarks upgrade to the shared toggle")
struct ConferenceToggleUpgradeTests {
    /// `release-toggle-data`'s T (see its README).
    private static let t: Int64 = 1_795_880_093_705
    private static let bea = PersonID(rawValue: 2)

    /// A copy of a fixture's Conference state, opened (and so migrated) by today's library.
    private func open(_ fixture: String) async throws -> (ConferenceLibrary, URL) {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(fixture)/conference/state.sqlite")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conference-toggle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent("state.sqlite"))
        return (try await ConferenceLibrary.open(folder: folder), folder)
    }

    private func mark(_ id: String, at: Int64, _ kind: String, _ talk: Int) throws -> ToggleChange {
        try ToggleChange.bookmark(id: id, at: at, kind: kind, talkID: talk)
    }

    @Test func theToggleReleasesBookmarksDecisionsAndSeenIdsSurviveAndStillDecide() async throws {
        let (library, folder) = try await open("release-toggle-data")
        defer { try? FileManager.default.removeItem(at: folder) }
        let t = Self.t
        #expect(try await library.bookmarkedTalkIDs(of: .firstOwner) == [8803, 8802])
        #expect(try await library.bookmarkedTalkIDs(of: Self.bea) == [8805])
        // The dates became exactly the milliseconds they were.
        #expect(try await library.exportedTalks(for: .firstOwner).bookmarks == [.init(talkID: 8803, addedAt: t + 1000), .init(talkID: 8802, addedAt: t + 67)])
        for id in ["toggle-mark-1", "toggle-mark-2", "toggle-unmark-2", "toggle-old-mark"] {
            #expect(try await library.apply(try mark(id, at: t + 9000, "bookmark", 8804), for: .firstOwner).result == .duplicate)
        }
        #expect(try await library.apply(try mark("toggle-bea-mark", at: t + 9000, "unbookmark", 8805), for: Self.bea).result == .duplicate)
        #expect(try await library.bookmarkedTalkIDs(of: .firstOwner) == [8803, 8802])
        #expect(try await library.bookmarkedTalkIDs(of: Self.bea) == [8805])
        #expect(try await library.apply(try mark("older", at: t + 2999, "bookmark", 8804), for: .firstOwner).result == .superseded)
        #expect(try await library.apply(try mark("toggle-unmark-1", at: t + 3000, "bookmark", 8804), for: .firstOwner).result == .superseded)
        #expect(try await library.apply(try mark("older-2", at: t + 999, "unbookmark", 8803), for: .firstOwner).result == .superseded)
        #expect(try await library.apply(try mark("form-older", at: t + 66, "unbookmark", 8802), for: .firstOwner).result == .superseded)
        #expect(try await library.bookmarkedTalkIDs(of: .firstOwner) == [8803, 8802])
        #expect(try await library.apply(try mark("toggle-unmark-3", at: t + 3000, "bookmark", 8804), for: .firstOwner)
            == ToggleOutcome(result: .applied, isOn: true))
        #expect(try await library.apply(try mark("form-newer", at: t + 68, "unbookmark", 8802), for: .firstOwner).result == .applied)
        #expect(Set(try await library.bookmarkedTalkIDs(of: .firstOwner)) == [8803, 8804])
        #expect(try await library.apply(try mark("toggle-bea-mark", at: t + 9000, "bookmark", 8805), for: .firstOwner).result == .applied)
    }

    @Test func theOutboxReleasesBookmarkKeepsItsTimeAndAnyChangeWinsOverIt() async throws {
        let (library, folder) = try await open("release-outbox-data")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Its date was 2026-11-26 11:21:58.808, and it had no decision (decided at time 0).
        #expect(try await library.exportedTalks(for: .firstOwner).bookmarks == [.init(talkID: 8802, addedAt: 1_795_692_118_808)])
        let clear = try mark("after-upgrade", at: 1, "unbookmark", 8802)
        #expect(try await library.apply(clear, for: .firstOwner).result == .applied)
        #expect(try await library.apply(clear, for: .firstOwner).result == .duplicate)
        #expect(try await library.bookmarkedTalkIDs(of: .firstOwner).isEmpty)
    }

    @Test func theUpgradedTablesHaveTheSharedShape() async throws {
        let (_, folder) = try await open("release-toggle-data")
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("state.sqlite").path)
        defer { try? queue.close() }
        let columns = try await queue.read { db in
            try ["bookmark", "bookmark_decision", "bookmark_change_seen"].map { try db.columns(in: $0).map { "\($0.name) \($0.type)" } }
        }
        #expect(columns == [["personID INTEGER", "itemID INTEGER", "addedAt INTEGER"],
                            ["personID INTEGER", "itemID INTEGER", "at INTEGER", "changeID TEXT"],
                            ["personID INTEGER", "changeID TEXT"]])
        let seen = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM bookmark_change_seen") }
        #expect(seen == 5)
    }
}

/// A phone's bookmark change is checked in Conference's words, and refused with `ConferenceError`.
@Suite("Conference bookmark change checks")
struct ConferenceBookmarkCheckTests {
    @Test func badBookmarkChangesSayWhatIsWrongAsConferenceError() throws {
        #expect(throws: ConferenceError.invalidChange(ChangeID.rule)) { try ToggleChange.bookmark(id: "", at: 1, kind: "bookmark", talkID: 1) }
        #expect(throws: ConferenceError.invalidChange("“talk” must be a talk’s id, not 0")) { try ToggleChange.bookmark(id: "a", at: 1, kind: "bookmark", talkID: 0) }
        #expect(throws: ConferenceError.invalidChange("“kind” must be bookmark or unbookmark")) {
            try ToggleChange.bookmark(id: "a", at: 1, kind: "favourite", talkID: 1)
        }
        #expect(try ToggleChange.bookmark(id: "a", at: 1, kind: "unbookmark", talkID: 8802).isOn == false)
    }
}
