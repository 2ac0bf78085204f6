import Foundation
import PocketCore
import Testing
@testable import Conference

/// Each person's recently opened and bookmarked talks, kept in Pocket's own database.
@Suite("Conference reading state")
struct ReadingStateTests {
    private let owner = PersonID.firstOwner
    private let other = PersonID(rawValue: 2)
    private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    private func sampleLibrary() async throws -> (ConferenceLibrary, URL) {
        let folder = TestFiles.folder()
        return (try await ConferenceLibrary.open(folder: folder), folder)
    }

    @Test func recentTalksArePerPerson() async throws {
        let (library, folder) = try await sampleLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await library.recordView(talkID: 8770, by: owner)
        try await library.recordView(talkID: 8834, by: other)
        #expect(try await library.recentTalks(of: owner, limit: 10).map(\.id) == [8770])
        #expect(try await library.recentTalks(of: other, limit: 10).map(\.id) == [8834])
        #expect(try await library.recentTalks(of: PersonID(rawValue: 3)).isEmpty)
    }

    @Test func bookmarksArePerPersonNewestFirstAndRepeatingChangesNothing() async throws {
        let (library, folder) = try await sampleLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Given the owner bookmarks two talks and one the database lacks
        try await library.setBookmark(true, talkID: 8770, for: owner, at: t0)
        try await library.setBookmark(true, talkID: 8834, for: owner, at: t0.addingTimeInterval(1))
        try await library.setBookmark(true, talkID: 1, for: owner, at: t0.addingTimeInterval(2))
        // When the first is bookmarked again later, it keeps its place
        try await library.setBookmark(true, talkID: 8770, for: owner, at: t0.addingTimeInterval(3))
        #expect(try await library.bookmarkedTalkIDs(of: owner) == [1, 8834, 8770])
        // Then the list shows only talks the database has
        #expect(try await library.bookmarkedTalks(of: owner).map(\.id) == [8834, 8770])
        #expect(try await library.isBookmarked(talkID: 8834, by: owner))
        // And another person has none of them
        #expect(try await library.bookmarkedTalkIDs(of: other).isEmpty)
        #expect(try await !library.isBookmarked(talkID: 8834, by: other))
        // And removing one (twice) leaves the rest
        try await library.setBookmark(false, talkID: 8834, for: owner, at: t0)
        try await library.setBookmark(false, talkID: 8834, for: owner, at: t0)
        #expect(try await !library.isBookmarked(talkID: 8834, by: owner))
        #expect(try await library.bookmarkedTalks(of: owner).map(\.id) == [8770])
    }

    @Test func readingStateSurvivesInstallingAnotherDatabaseAndReopening() async throws {
        let (library, folder) = try await sampleLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await library.recordView(talkID: 8802, by: owner)
        try await library.setBookmark(true, talkID: 8803, for: owner, at: t0)
        try await library.setBookmark(true, talkID: 999_999, for: other, at: t0)
        // When another database is imported
        let release = try TestFiles.release("2", in: TestFiles.folder("release"))
        _ = try await DatabaseInstaller(library: library).importDatabase(at: release)
        #expect(await library.installedDatabase() != nil)
        // Then the state is still there, and a bookmark the database lacks is simply not shown
        #expect(try await library.recentTalks(of: owner, limit: 10).map(\.id) == [8802])
        #expect(try await library.bookmarkedTalks(of: owner).map(\.id) == [8803])
        #expect(try await library.bookmarkedTalkIDs(of: other) == [999_999])
        #expect(try await library.bookmarkedTalks(of: other).isEmpty)
        // And reopening keeps it
        let reopened = try await ConferenceLibrary.open(folder: folder)
        #expect(try await reopened.bookmarkedTalks(of: owner).map(\.id) == [8803])
        #expect(try await reopened.recentTalks(of: owner, limit: 10).map(\.id) == [8802])
    }

    // MARK: Upgrade

    /// The previous release's `conference` folder, copied (the fixture is never opened in place).
    private func previousRelease() throws -> URL {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/previous-release-data/conference", isDirectory: true)
        let folder = TestFiles.folder("previous-release").appendingPathComponent("conference", isDirectory: true)
        try FileManager.default.copyItem(at: fixture, to: folder)
        return folder
    }

    @Test func thePreviousReleasesRecentTalksBecomeTheFirstOwners() async throws {
        let folder = try previousRelease()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let library = try await ConferenceLibrary.open(folder: folder)
        #expect(try await library.recentTalks(of: .firstOwner, limit: 10).map(\.id) == [8803, 8802])
        #expect(try await library.recentTalks(of: other, limit: 10).isEmpty)
        #expect(try await library.bookmarkedTalkIDs(of: .firstOwner).isEmpty)
        // And the upgraded database takes new state for both
        try await library.setBookmark(true, talkID: 8802, for: other, at: t0)
        #expect(try await library.bookmarkedTalks(of: other).map(\.id) == [8802])
    }
}
