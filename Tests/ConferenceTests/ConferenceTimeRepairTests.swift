import Foundation
import GRDB
import PocketCore
import Testing
@testable import Conference

/// Issue #32 (N4): an import once took times up to the year 10000, after which every
/// un-bookmark of the talk was "superseded" and the talk stayed first among recent talks.
/// Opening the state database brings such times back.
@Suite("Conference times ahead of the clock, from an older Pocket")
struct ConferenceTimeRepairTests {
    @Test func aBookmarkAndAViewFromTheFarFutureGiveWayOnceTheLibraryIsOpened() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conference-repair-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let farAhead: Int64 = 221_845_392_000_000 // 1 January 9000
        // Given a bookmark and a view an older Pocket imported at 1 January 9000 (in the tables of
        // that release, migrated up to v5),
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("state.sqlite").path)
        try ConferenceStateDatabase.migrate(queue, upTo: "v5: bookmark changes from the outbox")
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO bookmark(personID, talkID, addedAt) VALUES (1, 8770, '9000-01-01 00:00:00.000')")
            try db.execute(sql: "INSERT INTO bookmark_decision(personID, talkID, at, changeID) VALUES (1, 8770, ?, 'import')", arguments: [farAhead])
            try db.execute(sql: "INSERT INTO recent_talk(personID, talkID, viewedAt) VALUES (1, 8770, '9000-01-01 00:00:00.000')")
        }
        try queue.close()

        // when this Pocket opens it, the person's next un-bookmark applies and their next view comes first.
        let library = try await ConferenceLibrary.open(folder: folder)
        let exported = try await library.exportedTalks(for: .firstOwner)
        let latest = ChangeTime.latest(now: Date())
        #expect(exported.bookmarks.allSatisfy { $0.addedAt <= latest } && exported.recentTalks.allSatisfy { $0.viewedAt <= latest })
        let unbookmark = try ToggleChange.bookmark(id: "unbookmark", at: ChangeTime.milliseconds(Date()) + 1000, kind: "unbookmark", talkID: 8770)
        #expect(try await library.apply(unbookmark, for: .firstOwner).result == .applied)
        #expect(try await library.bookmarkedTalkIDs(of: .firstOwner).isEmpty)
        try await Task.sleep(for: .milliseconds(5))
        try await library.recordView(talkID: 8834, by: .firstOwner)
        #expect(try await library.recentTalks(of: .firstOwner, limit: 10).map(\.id) == [8834, 8770])
    }
}
