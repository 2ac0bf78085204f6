import Foundation
import GRDB
import PocketCore

/// Stars changed on a phone and sent from its outbox, merged by the rule on
/// `MuralsFavouriteChange` (each id once, the latest change per mural wins).
extension MuralsDatabase {
    /// Applies a star changed on a phone (from its outbox) for `person`: each change id at most
    /// once, the latest change per mural wins (the rule is on `MuralsFavouriteChange`). One
    /// transaction, and the outcome says what it did. Setting a star needs a shown mural
    /// (`MuralsError.unknownMural`), unless a later change already decided it.
    public func apply(_ change: MuralsFavouriteChange, for person: PersonID) async throws -> MuralsChangeOutcome {
        try await writer.write { db in
            let isFavourite = { () throws -> Bool in
                try Bool.fetchOne(db, sql: "SELECT 1 FROM favourites WHERE personID = ? AND muralID = ?", arguments: [person.rawValue, change.muralID]) ?? false
            }
            let seen = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM applied_changes WHERE personID = ? AND changeID = ?", arguments: [person.rawValue, change.id]) ?? false
            if seen { return MuralsChangeOutcome(result: .duplicate, isFavourite: try isFavourite()) }
            try db.execute(
                sql: "INSERT INTO applied_changes(personID, changeID, appliedAt) VALUES (?, ?, ?)",
                arguments: [person.rawValue, change.id, Date()])
            let decided = try Row.fetchOne(
                db, sql: "SELECT at, changeID FROM favourite_decisions WHERE personID = ? AND muralID = ?",
                arguments: [person.rawValue, change.muralID])
            if let decided, !change.supersedes(at: try decided.decode(forColumn: "at"), id: try decided.decode(forColumn: "changeID")) {
                return MuralsChangeOutcome(result: .superseded, isFavourite: try isFavourite())
            }
            if change.isFavourite {
                let shown = try Bool.fetchOne(db, sql: "SELECT isEnabled FROM murals WHERE id = ?", arguments: [change.muralID]) ?? false
                guard shown else { throw MuralsError.unknownMural(change.muralID) }
                try db.execute(
                    sql: "INSERT OR IGNORE INTO favourites(personID, muralID, addedAt) VALUES (?, ?, ?)",
                    arguments: [person.rawValue, change.muralID, change.at])
            } else {
                try db.execute(sql: "DELETE FROM favourites WHERE personID = ? AND muralID = ?", arguments: [person.rawValue, change.muralID])
            }
            try Self.recordDecision(db, person: person, muralID: change.muralID, at: change.at, changeID: change.id)
            return MuralsChangeOutcome(result: .applied, isFavourite: change.isFavourite)
        }
    }

    /// Remembers which change decided `person`'s star on a mural, for the latest-wins rule.
    static func recordDecision(_ db: Database, person: PersonID, muralID: Int, at: Int64, changeID: String) throws {
        try db.execute(
            sql: """
                INSERT INTO favourite_decisions(personID, muralID, at, changeID) VALUES (?, ?, ?, ?)
                ON CONFLICT(personID, muralID) DO UPDATE SET at = excluded.at, changeID = excluded.changeID
                """,
            arguments: [person.rawValue, muralID, at, changeID])
    }
}
