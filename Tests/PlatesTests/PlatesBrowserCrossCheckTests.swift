import Foundation
import GRDB
import PocketCore
import TestSupport
import Testing
@testable import Plates

/// The browser's Plates rule (js/plates/game.js, run by Node through Tests/JavaScript/plates-crosscheck.mjs)
/// against the server's store, on seeded random games: several phones (their clocks apart) spot,
/// un-spot, reset and start trips, at few distinct times so ties are settled by id; their outboxes
/// arrive interleaved, one phone late, or in any order, with resends and ids another phone used.
///
/// - Whole games: every trip's spots and their times, as the store keeps them after the changes
///   arrive in that order, must be what `mergeTrips` gives from the same arrivals.
/// - What a phone shows: on top of a page's game, a phone's own later changes (`applyChanges`)
///   must give the game the server has once they arrive: its spotted states and finished trips.
@Suite struct PlatesBrowserCrossCheckTests {
    private static let gameCount = 120
    private static let phoneCount = 80
    private static let codes = ["AL", "AK", "AZ", "OR", "TX", "UT", "WA"]
    /// Far from the real clock, so the first trip (started at the real now) holds them all.
    private static let start: Int64 = 1_600_000_000_000

    @Test func browserRuleMatchesTheServersStore() async throws {
        let catalog = try StateCatalog.bundled()
        var random = SplitMix64(seed: 27)
        var cases: [[String: Any]] = []
        var expected: [String] = []
        var descriptions: [String] = []

        for _ in 0..<Self.gameCount {
            let arrivals = Self.arrivals(of: Self.phones(using: &random), using: &random)
            let game = try PlatesDatabase.inMemory(catalog: catalog).game(for: .firstOwner)
            for change in arrivals { _ = try await game.apply(change) }
            cases.append(["arrivals": arrivals.map(Self.json)])
            expected.append(try NodeScript.canonical(["trips": try await Self.trips(of: game)]))
            descriptions.append(Self.describe(arrivals))
        }
        for _ in 0..<Self.phoneCount {
            let known = Self.arrivals(of: Self.phones(using: &random), using: &random)
            let after = (known.map(\.at).max() ?? Self.start) + Int64.random(in: 1...2, using: &random) * 1_000
            let waiting = Self.changes(of: "me", from: after, count: Int.random(in: 1...12, using: &random), using: &random)
            let game = try PlatesDatabase.inMemory(catalog: catalog).game(for: .firstOwner)
            for change in known { _ = try await game.apply(change) }
            let base = try await Self.shown(game)
            // Sent once, then (an answer lost) some of them again.
            for change in waiting + waiting.prefix(Int.random(in: 0...2, using: &random)) { _ = try await game.apply(change) }
            cases.append(["base": base, "waiting": waiting.map(Self.json)])
            expected.append(try NodeScript.canonical(try await Self.shown(game)))
            descriptions.append("known \(Self.describe(known)); waiting \(Self.describe(waiting))")
        }

        let results = try NodeScript.answers(of: "Tests/JavaScript/plates-crosscheck.mjs", input: ["cases": cases])
        try #require(results.count == cases.count, "node answered \(results.count) cases of \(cases.count)")
        var failures: [String] = []
        for index in cases.indices {
            let browser = try NodeScript.canonical(results[index])
            if browser != expected[index] { failures.append("\(descriptions[index]): Swift \(expected[index]), JS \(browser)") }
        }
        for failure in failures.prefix(5) { Issue.record(Comment(rawValue: failure)) }
        #expect(failures.isEmpty, "\(failures.count) of \(cases.count) cases differ between the browser's rule and the server's store")
    }

    // MARK: Games

    /// One to three phones' changes, each phone's in the order it made them.
    private static func phones(using random: inout SplitMix64) -> [[PlateChange]] {
        let names = ["a", "B", "z9"]
        return names.prefix(Int.random(in: 1...3, using: &random)).map { name in
            // A phone's clock may be a little off the others'.
            let skew = Int64.random(in: -2...2, using: &random) * 1_000
            return changes(of: name, from: start + skew, count: Int.random(in: 1...25, using: &random), using: &random)
        }
    }

    /// A phone's changes from `time` on, some at the same time as the one before.
    private static func changes(of phone: String, from time: Int64, count: Int, using random: inout SplitMix64) -> [PlateChange] {
        var time = time
        var made: [PlateChange] = []
        for index in 0..<count {
            time += Int64.random(in: 0...2, using: &random) * 1_000
            let roll = Int.random(in: 0..<20, using: &random)
            let kind: PlateChange.Kind = roll < 10 ? .spot : roll < 15 ? .unspot : roll < 17 ? .reset : .newTrip
            let state = kind == .spot || kind == .unspot ? codes.randomElement(using: &random) : nil
            // Ids of any printable ASCII order differently as bytes than as numbers: "~1" after "a-10".
            let id = ["\(phone)-\(index)", "~\(phone)\(index)", "0\(index)\(phone)"].randomElement(using: &random) ?? "\(phone)-\(index)"
            if let change = try? PlateChange(id: id, at: time, kind: kind, stateCode: state) { made.append(change) }
        }
        return made
    }

    /// The order the server hears the phones' changes in: outboxes interleaved (each in its own
    /// order), one phone's all late, or every change on its own; with resends, and now and then
    /// a change whose id another phone used already.
    private static func arrivals(of phones: [[PlateChange]], using random: inout SplitMix64) -> [PlateChange] {
        var order: [PlateChange]
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            var queues = phones
            order = []
            while let index = queues.indices.filter({ !queues[$0].isEmpty }).randomElement(using: &random) {
                order.append(queues[index].removeFirst())
            }
        case 1:
            order = phones.shuffled(using: &random).flatMap { $0 }
        default:
            order = phones.flatMap { $0 }.shuffled(using: &random)
        }
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            guard let resent = order.randomElement(using: &random) else { break }
            order.insert(resent, at: Int.random(in: 0...order.count, using: &random))
        }
        if Int.random(in: 0..<4, using: &random) == 0, let used = order.randomElement(using: &random),
           let other = try? PlateChange(id: used.id, at: used.at + 1_000, kind: .spot, stateCode: codes.randomElement(using: &random)) {
            order.insert(other, at: Int.random(in: 0...order.count, using: &random))
        }
        return order
    }

    // MARK: The server's answers

    /// Every trip's spots, oldest trip first, each "code@time" sorted.
    private static func trips(of game: PlatesGame) async throws -> [[String]] {
        let ids = try await game.writer.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM trip WHERE personID = ? ORDER BY startedAt, id", arguments: [game.person.rawValue])
        }
        var trips: [[String]] = []
        for id in ids {
            trips.append(try await game.trip(id: id).spots.map { "\($0.stateCode)@\(ChangeTime.milliseconds($0.spottedAt))" }.sorted())
        }
        return trips
    }

    /// The game a page shows: the current trip's spotted states and the finished trips that have
    /// a plate (as the page's module element says them, PlatesModule).
    private static func shown(_ game: PlatesGame) async throws -> [String: Any] {
        let spotted = try await game.snapshot().spots.keys.sorted()
        let finished = try await game.trips().filter { !$0.trip.isCurrent && $0.score > 0 }.count
        return ["spotted": spotted, "finished": finished]
    }

    // MARK: Node

    private static func json(_ change: PlateChange) -> [String: Any] {
        var json: [String: Any] = ["id": change.id, "at": change.at, "kind": change.kind.rawValue]
        if let state = change.stateCode { json["state"] = state }
        return json
    }

    private static func describe(_ changes: [PlateChange]) -> String {
        changes.map { "\($0.id)@\($0.at - start):\($0.kind.rawValue)\($0.stateCode.map { " \($0)" } ?? "")" }.joined(separator: ", ")
    }
}
