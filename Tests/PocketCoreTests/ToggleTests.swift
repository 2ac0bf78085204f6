import Foundation
import GRDB
@testable import PocketCore
import Testing

/// The shared per-person toggle: checking a phone's change, and applying it to a table set by the
/// rule on `ToggleChange` (each id once per person, the latest change per item wins).
@Suite("Toggle")
struct ToggleTests {
    private static let words = ToggleWords(on: "pin", off: "unpin", item: "note")
    private static let tables = ToggleTables(name: "pin")
    private static let ann = PersonID(rawValue: 1)
    private static let bob = PersonID(rawValue: 2)

    private struct Refused: Error {}

    /// A database with the toggle's three tables in their shared shape, and item 1 to 3 allowed on.
    private func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE pin(personID INTEGER NOT NULL, itemID INTEGER NOT NULL, addedAt INTEGER NOT NULL, PRIMARY KEY(personID, itemID));
                CREATE TABLE pin_decision(personID INTEGER NOT NULL, itemID INTEGER NOT NULL, at INTEGER NOT NULL, changeID TEXT NOT NULL,
                                          PRIMARY KEY(personID, itemID));
                CREATE TABLE pin_change_seen(personID INTEGER NOT NULL, changeID TEXT NOT NULL, PRIMARY KEY(personID, changeID));
                """)
        }
        return queue
    }

    private func change(_ id: String, at: Int64, _ kind: String, _ item: Int) throws -> ToggleChange {
        try ToggleChange(id: id, at: at, kind: kind, itemID: item, words: Self.words)
    }

    private func apply(_ change: ToggleChange, for person: PersonID = ann, _ queue: DatabaseQueue) throws -> ToggleOutcome {
        try queue.write { db in
            try Self.tables.apply(change, for: person, db) { _ in if change.itemID > 3 { throw Refused() } }
        }
    }

    private func items(of person: PersonID = ann, _ queue: DatabaseQueue) throws -> [Int] {
        try queue.read { db in try Self.tables.items(of: person, db).map(\.itemID) }
    }

    @Test func badChangesAreNamedInTheAppsWords() throws {
        #expect(throws: ToggleChangeProblem(message: ChangeID.rule)) { try change("", at: 1, "pin", 1) }
        #expect(throws: ToggleChangeProblem(message: ChangeID.rule)) { try change(String(repeating: "x", count: 101), at: 1, "pin", 1) }
        #expect(throws: ToggleChangeProblem(message: "its time “at” must be milliseconds since 1970, not -1")) { try change("a", at: -1, "pin", 1) }
        #expect(throws: ToggleChangeProblem(message: "“note” must be a note’s id, not 0")) { try change("a", at: 1, "pin", 0) }
        #expect(throws: ToggleChangeProblem(message: "“kind” must be pin or unpin")) { try change("a", at: 1, "favourite", 1) }
        #expect(try change("a", at: 0, "unpin", 7) == change("a", at: 0, "unpin", 7))
        #expect(try change("a", at: 0, "unpin", 7).isOn == false && change("a", at: 0, "pin", 7).isOn)
    }

    @Test func eachIdAppliesOnceAndTheLatestChangePerItemWins() throws {
        let queue = try database()
        #expect(try apply(try change("b", at: 100, "pin", 1), queue) == ToggleOutcome(result: .applied, isOn: true))
        #expect(try apply(try change("b", at: 500, "unpin", 1), queue) == ToggleOutcome(result: .duplicate, isOn: true))
        #expect(try apply(try change("c", at: 99, "unpin", 1), queue) == ToggleOutcome(result: .superseded, isOn: true))
        // A superseded id is remembered too: sent again with a later time it is still a duplicate.
        #expect(try apply(try change("c", at: 900, "unpin", 1), queue).result == .duplicate)
        // Equal times go to the larger id.
        #expect(try apply(try change("a", at: 100, "unpin", 1), queue).result == .superseded)
        #expect(try apply(try change("d", at: 100, "unpin", 1), queue) == ToggleOutcome(result: .applied, isOn: false))
        #expect(try items(queue).isEmpty)
        // Items are decided apart.
        #expect(try apply(try change("e", at: 1, "pin", 2), queue).result == .applied)
        #expect(try items(queue) == [2])
    }

    @Test func eachPersonsIdsAndItemsAreTheirOwn() throws {
        let queue = try database()
        _ = try apply(try change("same", at: 10, "pin", 1), queue)
        #expect(try apply(try change("same", at: 10, "pin", 2), for: Self.bob, queue).result == .applied)
        #expect(try apply(try change("later", at: 99, "unpin", 1), for: Self.bob, queue).result == .applied)
        #expect(try items(queue) == [1])
        #expect(try items(of: Self.bob, queue) == [2])
    }

    @Test func theAppsCheckRunsOnlyWhenTurningOnAndARefusedIdIsNotRemembered() throws {
        let queue = try database()
        #expect(throws: Refused.self) { try apply(try change("x", at: 5, "pin", 9), queue) }
        #expect(throws: Refused.self) { try apply(try change("x", at: 5, "pin", 9), queue) }
        #expect(try apply(try change("y", at: 5, "unpin", 9), queue).result == .applied)
        // Once a later change decided the item, an older turn-on is superseded without the check.
        #expect(try apply(try change("x", at: 4, "pin", 9), queue).result == .superseded)
    }

    @Test func aFormChangeAlwaysAppliesAndDecidesAtItsTime() throws {
        let queue = try database()
        _ = try apply(try change("late", at: 5_000, "pin", 1), queue)
        try queue.write { db in try Self.tables.write(false, itemID: 1, for: Self.ann, at: 1_000, changeID: "", db) }
        #expect(try items(queue).isEmpty)
        try queue.write { db in try Self.tables.write(true, itemID: 1, for: Self.ann, at: 6_000, changeID: "", db) }
        try queue.write { db in try Self.tables.write(true, itemID: 1, for: Self.ann, at: 7_000, changeID: "", db) }
        // On twice keeps the first time.
        #expect(try queue.read { db in try Self.tables.items(of: Self.ann, db).map(\.addedAt) } == [6_000])
        #expect(try apply(try change("older", at: 6_999, "unpin", 1), queue).result == .superseded)
        #expect(try apply(try change("newer", at: 7_001, "unpin", 1), queue).result == .applied)
    }

    @Test func anImportKeepsTheEarlierTimeAndGivesWayToALaterDecision() throws {
        let queue = try database()
        try queue.write { db in
            try Self.tables.takeIn(itemID: 1, addedAt: 200, for: Self.ann, db)
            try Self.tables.takeIn(itemID: 1, addedAt: 300, for: Self.ann, db)
            try Self.tables.write(false, itemID: 2, for: Self.ann, at: 500, changeID: "", db)
            try Self.tables.takeIn(itemID: 2, addedAt: 400, for: Self.ann, db)
            try Self.tables.takeIn(itemID: 3, addedAt: 600, for: Self.ann, db)
        }
        let kept = try queue.read { db in try Self.tables.items(of: Self.ann, db) }
        #expect(kept.map(\.itemID) == [3, 1] && kept.map(\.addedAt) == [600, 200])
        // Decided by the later import's time.
        #expect(try apply(try change("old", at: 299, "unpin", 1), queue).result == .superseded)
        #expect(try apply(try change("new", at: 301, "unpin", 1), queue).result == .applied)
    }
}
