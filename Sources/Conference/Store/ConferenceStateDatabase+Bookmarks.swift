import Foundation
import GRDB
import PocketCore

/// Bookmarks changed on a phone and sent from its outbox, merged by the rule on `BookmarkChange`
/// (each id once, the latest change per talk wins).
extension ConferenceStateDatabase {
    /// Applies `change` for `person` in one transaction and says what it did. `talkExists` is
    /// asked only when the change would set a bookmark (the talk must be one the database has).
    func apply(_ change: BookmarkChange, for person: PersonID, talkExists: Bool) async throws -> BookmarkOutcome {
        try await writer.write { db in
            let bookmarked = { () throws -> Bool in
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM bookmark WHERE personID = ? AND talkID = ?)",
                                  arguments: [person.rawValue, change.talkID]) ?? false
            }
            let seen = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM bookmark_change_seen WHERE personID = ? AND changeID = ?)",
                arguments: [person.rawValue, change.id]) ?? false
            if seen { return BookmarkOutcome(result: .duplicate, isBookmarked: try bookmarked()) }
            if let decided = try Row.fetchOne(
                db, sql: "SELECT at, changeID FROM bookmark_decision WHERE personID = ? AND talkID = ?",
                arguments: [person.rawValue, change.talkID]),
               !change.supersedes(at: try decided.decode(forColumn: "at"), id: try decided.decode(forColumn: "changeID")) {
                try Self.remember(change, person: person, db)
                return BookmarkOutcome(result: .superseded, isBookmarked: try bookmarked())
            }
            if change.isBookmarked, !talkExists { throw ConferenceError.unknownTalk(change.talkID) }
            try Self.remember(change, person: person, db)
            try Self.writeBookmark(change.isBookmarked, talkID: change.talkID, person: person, date: ChangeTime.date(change.at), db)
            try Self.recordBookmarkDecision(db, person: person, talkID: change.talkID, at: change.at, changeID: change.id)
            return BookmarkOutcome(result: .applied, isBookmarked: change.isBookmarked)
        }
    }

    /// Adds (keeping the first date) or removes one bookmark, inside the caller's transaction.
    static func writeBookmark(_ isBookmarked: Bool, talkID: Int, person: PersonID, date: Date, _ db: Database) throws {
        if isBookmarked {
            try db.execute(sql: "INSERT INTO bookmark(personID, talkID, addedAt) VALUES (?, ?, ?) ON CONFLICT(personID, talkID) DO NOTHING",
                           arguments: [person.rawValue, talkID, date])
        } else {
            try db.execute(sql: "DELETE FROM bookmark WHERE personID = ? AND talkID = ?", arguments: [person.rawValue, talkID])
        }
    }

    /// Remembers which change decided `person`'s bookmark of a talk, for the latest-wins rule.
    static func recordBookmarkDecision(_ db: Database, person: PersonID, talkID: Int, at: Int64, changeID: String) throws {
        try db.execute(
            sql: """
                INSERT INTO bookmark_decision(personID, talkID, at, changeID) VALUES (?, ?, ?, ?)
                ON CONFLICT(personID, talkID) DO UPDATE SET at = excluded.at, changeID = excluded.changeID
                """,
            arguments: [person.rawValue, talkID, at, changeID])
    }

    private static func remember(_ change: BookmarkChange, person: PersonID, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO bookmark_change_seen(personID, changeID) VALUES (?, ?)", arguments: [person.rawValue, change.id])
    }
}
