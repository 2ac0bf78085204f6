import Foundation
import GRDB
import PocketCore

/// Stars changed on a phone and sent from its outbox: a mural's star is the shared per-person
/// toggle (`ToggleChange`, `ToggleTables`), merged by its rule (each id once, the latest change
/// per mural wins).
extension MuralsDatabase {
    /// Where stars are kept: `favourite`, `favourite_decision`, `favourite_change_seen`.
    static let stars = ToggleTables(name: "favourite")

    /// Applies a star changed on a phone (from its outbox) for `person`, by the rule on
    /// `ToggleChange`, in one transaction; the outcome says what it did. Setting a star needs a
    /// shown mural (`MuralsError.unknownMural`), unless a later change already decided it.
    public func apply(_ change: ToggleChange, for person: PersonID) async throws -> ToggleOutcome {
        try await writer.write { db in
            try Self.stars.apply(change, for: person, db) { db in try Self.checkShown(change.itemID, db) }
        }
    }

    /// Throws `MuralsError.unknownMural` unless the mural is one this Pocket shows.
    static func checkShown(_ muralID: Int, _ db: Database) throws {
        let shown = try Bool.fetchOne(db, sql: "SELECT isEnabled FROM murals WHERE id = ?", arguments: [muralID]) ?? false
        guard shown else { throw MuralsError.unknownMural(muralID) }
    }
}

extension ToggleChange {
    /// The words of a star change the phones send: `favourite` / `unfavourite` of a `mural`.
    public static let starWords = ToggleWords(on: "favourite", off: "unfavourite", item: "mural")

    /// Checks a star change as the phone sent it; a bad one throws `MuralsError.invalidChange`
    /// naming what is wrong, so the outbox drops it (a 4xx) rather than retrying it forever.
    public static func star(id: String, at: Int64, kind: String, muralID: Int) throws(MuralsError) -> ToggleChange {
        do {
            return try ToggleChange(id: id, at: at, kind: kind, itemID: muralID, words: starWords)
        } catch {
            throw .invalidChange(error.message)
        }
    }
}
