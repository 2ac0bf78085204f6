import Foundation
import GRDB

/// Where one app keeps a per-person toggle, all three tables in one shape, named from `name`:
/// - `name`(personID, itemID, addedAt): the items on, `addedAt` in milliseconds since 1970;
/// - `name_decision`(personID, itemID, at, changeID): which change last decided each item (`at`
///   in milliseconds; changeID "" for a form, "import" for an import);
/// - `name_change_seen`(personID, changeID): the ids of the phone changes seen.
///
/// Every method runs inside the caller's transaction, so an app can add its own check (the talk
/// or mural must exist) to the same write.
public struct ToggleTables: Sendable, Equatable {
    /// The items' table; the other two are named after it.
    public let name: String

    /// The tables of one toggle (`bookmark`, `favourite`). `name` is one of Pocket's own table
    /// names, never outside input: it goes into the SQL as it is.
    public init(name: String) {
        self.name = name
    }

    /// The decisions' table.
    public var decisions: String { name + "_decision" }
    /// The seen change ids' table.
    public var seen: String { name + "_change_seen" }

    /// Applies `change` for `person` by the rule on `ToggleChange`. `checkOn` runs only when the
    /// change would turn the item on and is not superseded; it throws the app's error when the
    /// item cannot be turned on (which rolls back the caller's transaction, so the id is not
    /// remembered and a later resend can still apply).
    public func apply(_ change: ToggleChange, for person: PersonID, _ db: Database, checkOn: (Database) throws -> Void) throws -> ToggleOutcome {
        let seen = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(seen) WHERE personID = ? AND changeID = ?)",
                                     arguments: [person.rawValue, change.id]) ?? false
        if seen { return ToggleOutcome(result: .duplicate, isOn: try isOn(change.itemID, for: person, db)) }
        if let decided = try Row.fetchOne(db, sql: "SELECT at, changeID FROM \(decisions) WHERE personID = ? AND itemID = ?",
                                          arguments: [person.rawValue, change.itemID]),
           !change.supersedes(at: try decided.decode(forColumn: "at"), id: try decided.decode(forColumn: "changeID")) {
            try remember(change.id, for: person, db)
            return ToggleOutcome(result: .superseded, isOn: try isOn(change.itemID, for: person, db))
        }
        if change.isOn { try checkOn(db) }
        try remember(change.id, for: person, db)
        try write(change.isOn, itemID: change.itemID, for: person, at: change.at, changeID: change.id, db)
        return ToggleOutcome(result: .applied, isOn: change.isOn)
    }

    /// Turns an item on (keeping the first time it was turned on) or off for `person`, and
    /// records the change as the one that decided it: at `at` (milliseconds), by `changeID`
    /// ("" for a form, which is a change made now on the server's clock).
    public func write(_ isOn: Bool, itemID: Int, for person: PersonID, at: Int64, changeID: String, _ db: Database) throws {
        if isOn {
            try db.execute(sql: "INSERT INTO \(name)(personID, itemID, addedAt) VALUES (?, ?, ?) ON CONFLICT(personID, itemID) DO NOTHING",
                           arguments: [person.rawValue, itemID, at])
        } else {
            try db.execute(sql: "DELETE FROM \(name) WHERE personID = ? AND itemID = ?", arguments: [person.rawValue, itemID])
        }
        try recordDecision(itemID: itemID, for: person, at: at, changeID: changeID, db)
    }

    /// Takes in an item that was on elsewhere since `addedAt` (an import), unless this Pocket
    /// decided that item later: it is decided at the time it was made, as an outbox change would
    /// be, and an item already on keeps the earlier time.
    public func takeIn(itemID: Int, addedAt: Int64, for person: PersonID, _ db: Database) throws {
        let decided = try Int64.fetchOne(db, sql: "SELECT at FROM \(decisions) WHERE personID = ? AND itemID = ?",
                                         arguments: [person.rawValue, itemID])
        if let decided, decided > addedAt { return }
        try db.execute(sql: """
            INSERT INTO \(name)(personID, itemID, addedAt) VALUES (?, ?, ?)
            ON CONFLICT(personID, itemID) DO UPDATE SET addedAt = MIN(addedAt, excluded.addedAt)
            """, arguments: [person.rawValue, itemID, addedAt])
        try recordDecision(itemID: itemID, for: person, at: addedAt, changeID: "import", db)
    }

    /// Whether the item is on for `person`.
    public func isOn(_ itemID: Int, for person: PersonID, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(name) WHERE personID = ? AND itemID = ?)",
                          arguments: [person.rawValue, itemID]) ?? false
    }

    /// The items on for `person` with the time each was turned on (milliseconds), newest first
    /// (equal times: the larger id first).
    public func items(of person: PersonID, _ db: Database) throws -> [(itemID: Int, addedAt: Int64)] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT itemID, addedAt FROM \(name) WHERE personID = ? ORDER BY addedAt DESC, itemID DESC"),
                         arguments: [person.rawValue])
            .map { (try $0.decode(forColumn: "itemID"), try $0.decode(forColumn: "addedAt")) }
    }

    private func recordDecision(itemID: Int, for person: PersonID, at: Int64, changeID: String, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO \(decisions)(personID, itemID, at, changeID) VALUES (?, ?, ?, ?)
            ON CONFLICT(personID, itemID) DO UPDATE SET at = excluded.at, changeID = excluded.changeID
            """, arguments: [person.rawValue, itemID, at, changeID])
    }

    private func remember(_ changeID: String, for person: PersonID, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO \(seen)(personID, changeID) VALUES (?, ?)", arguments: [person.rawValue, changeID])
    }
}
