import Foundation
import GRDB
import PocketCore

/// Bookmarks: a talk's bookmark is the shared per-person toggle (`ToggleChange`, `ToggleTables`),
/// changed by the talk page's form or from a phone's outbox and merged by its rule (each id once,
/// the latest change per talk wins).
extension ConferenceStateDatabase {
    /// Where bookmarks are kept: `bookmark`, `bookmark_decision`, `bookmark_change_seen`.
    static let bookmarks = ToggleTables(name: "bookmark")

    /// Applies `change` for `person` in one transaction and says what it did. `talkExists` is
    /// asked only when the change would set a bookmark (the talk must be one the database has).
    func apply(_ change: ToggleChange, for person: PersonID, talkExists: Bool) async throws -> ToggleOutcome {
        try await writer.write { db in
            try Self.bookmarks.apply(change, for: person, db) { _ in
                guard talkExists else { throw ConferenceError.unknownTalk(change.itemID) }
            }
        }
    }

    /// Bookmarks or unbookmarks a talk for `person`; adding again keeps the first time. A change
    /// made now (the form): offline changes older than it no longer win.
    func setBookmark(_ isBookmarked: Bool, talkID: Int, for person: PersonID, at date: Date) async throws {
        try await writer.write { db in
            try Self.bookmarks.write(isBookmarked, itemID: talkID, for: person, at: ChangeTime.milliseconds(date), changeID: "", db)
        }
    }

    /// The talks `person` bookmarked, newest first, read from the database.
    func readBookmarkedTalkIDs(of person: PersonID) async throws -> [Int] {
        try await writer.read { db in try Self.bookmarks.items(of: person, db).map(\.itemID) }
    }
}

extension ToggleChange {
    /// The words of a bookmark change the phones send: `bookmark` / `unbookmark` of a `talk`.
    public static let bookmarkWords = ToggleWords(on: "bookmark", off: "unbookmark", item: "talk")

    /// Checks a bookmark change as the phone sent it; a bad one throws
    /// `ConferenceError.invalidChange` naming what is wrong, so the outbox drops it (a 4xx).
    public static func bookmark(id: String, at: Int64, kind: String, talkID: Int) throws(ConferenceError) -> ToggleChange {
        do {
            return try ToggleChange(id: id, at: at, kind: kind, itemID: talkID, words: bookmarkWords)
        } catch {
            throw .invalidChange(error.message)
        }
    }
}
