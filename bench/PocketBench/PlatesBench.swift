import ArgumentParser
import Foundation
import Plates
import PocketCore

/// `pocket-bench plates-changes`: what one Plates change costs as a person's change log grows
/// (issue #23, D11: a change took 2.4 ms with no history and 20.7 ms after 4,000), side by side
/// with the same changes after 10 changes of history, the baseline, in one run.
struct PlatesBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plates-changes",
        abstract: "Time Plates changes (a tap now, a late change from an outbox, a late Reset, a New Trip) after 10 to 10,000 changes of history."
    )

    @Option(help: ArgumentHelp("History sizes, the first being the baseline (default 10,1000,10000).", valueName: "n,n,…"))
    var histories = "10,1000,10000"

    @Option(help: ArgumentHelp("Timed changes of each kind per history (default 300).", valueName: "n"))
    var rounds = 300

    func run() async throws {
        let sizes = histories.split(separator: ",").compactMap { Int($0) }
        guard sizes.count >= 2, sizes.allSatisfy({ $0 > 0 }), rounds > 0 else {
            throw ValidationError("give at least two positive history sizes and a positive --rounds")
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pocket-bench-plates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let catalog = try StateCatalog.bundled()

        var table = TextTable("history", "change", "runs", "p50 ms", "p99 ms", "p50 × baseline", "p99 × baseline")
        var baseline: [String: Samples] = [:]
        for shape in History.allCases {
            for (index, size) in sizes.enumerated() {
                let database = try PlatesDatabase.onDisk(at: scratch.appendingPathComponent("\(shape)-\(size).sqlite"), catalog: catalog)
                let game = database.game(for: PersonID(rawValue: 1))
                var clock = try await shape.write(size, into: game, catalog: catalog)
                for kind in Kind.allCases {
                    var samples = Samples()
                    for round in 0..<rounds {
                        let change = try kind.change(round: round, clock: &clock, state: shape.focus(catalog), catalog: catalog)
                        _ = try await samples.time { try await game.apply(change) }
                    }
                    let key = "\(shape) \(kind)"
                    if index == 0 { baseline[key] = samples }
                    let base = baseline[key] ?? samples
                    table.add("\(size) \(shape.rawValue)", kind.rawValue, String(samples.count),
                              formatMilliseconds(samples.percentile(0.5)), formatMilliseconds(samples.percentile(0.99)),
                              String(format: "%.2f", samples.percentile(0.5) / base.percentile(0.5)),
                              String(format: "%.2f", samples.percentile(0.99) / base.percentile(0.99)))
                }
            }
        }
        print("# Plates: one change (PlatesGame.apply, on disk) after a history of changes; baseline: \(sizes[0]) changes")
        print("# \(buildKind); \(Date().formatted(.iso8601)); \(machineDescription())")
        print(table.text)
    }

    /// How the history is made.
    enum History: String, CaseIterable, CustomStringConvertible {
        /// A household's years: trips of 100 changes each (spots, a few un-spots, a Reset now and then).
        case trips = "changes in trips of 100"
        /// The worst case for a late change: every change in one trip with no Reset.
        case oneTrip = "changes in one trip"
        /// One state spotted and un-spotted over and over in one trip (#32, N5), the state every
        /// timed late change and tap is then about.
        case toggles = "toggles of one state in one trip"

        var description: String {
            switch self {
            case .trips: "trips"
            case .oneTrip: "one-trip"
            case .toggles: "toggles"
            }
        }

        /// The one state every change is about, for a history of one state's toggles.
        func focus(_ catalog: StateCatalog) -> String? {
            self == .toggles ? catalog.states.first?.code : nil
        }

        /// Writes `count` changes, a minute apart; returns the time after the last.
        func write(_ count: Int, into game: PlatesGame, catalog: StateCatalog) async throws -> Int64 {
            var random = SplitMix64(seed: 7)
            var at = ChangeTime.milliseconds(Date()) - Int64(count + 10_000) * 60_000
            for index in 0..<count {
                at += 60_000
                let code = focus(catalog) ?? catalog.states[random.next(below: catalog.states.count)].code
                let kind: PlateChange.Kind
                switch (self, index % 100, random.next(below: 10)) {
                case (.toggles, _, _): kind = index.isMultiple(of: 2) ? .spot : .unspot
                case (.trips, 99, _): kind = .newTrip
                case (.trips, 50, _): kind = .reset
                case (_, _, 0): kind = .unspot
                default: kind = .spot
                }
                let state = kind == .spot || kind == .unspot ? code : nil
                _ = try await game.apply(try PlateChange(id: "history-\(index)", at: at, kind: kind, stateCode: state))
            }
            return at
        }
    }

    /// The kinds of change timed.
    enum Kind: String, CaseIterable, CustomStringConvertible {
        case now = "a tap now (spot or un-spot)"
        case late = "a late spot from an outbox (made 30 min earlier)"
        case lateReset = "a late Reset Game (made 10 min earlier)"
        case newTrip = "New Trip now"

        var description: String { rawValue }

        /// A change id names its kind without spaces (ids are printable ASCII with no spaces).
        private var slug: String {
            switch self {
            case .now: "now"
            case .late: "late"
            case .lateReset: "late-reset"
            case .newTrip: "new-trip"
            }
        }

        /// The change of `round`: about `state` when given, else each state in turn.
        func change(round: Int, clock: inout Int64, state: String?, catalog: StateCatalog) throws -> PlateChange {
            clock += 1_000
            let code = state ?? catalog.states[round % catalog.states.count].code
            switch self {
            case .now:
                return try PlateChange(id: "\(slug)-\(round)", at: clock, kind: round.isMultiple(of: 3) ? .unspot : .spot, stateCode: code)
            case .late:
                return try PlateChange(id: "\(slug)-\(round)", at: clock - 30 * 60_000, kind: .spot, stateCode: code)
            case .lateReset:
                return try PlateChange(id: "\(slug)-\(round)", at: clock - 10 * 60_000, kind: .reset)
            case .newTrip:
                return try PlateChange(id: "\(slug)-\(round)", at: clock, kind: .newTrip)
            }
        }
    }
}
