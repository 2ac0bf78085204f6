import Remote
import Testing

/// The spec's DVR rules, restated here as a literal table so a bug in `DVR.isAllowed` cannot hide.
@Suite("DVR rule table")
struct DVRRuleTableTests {
    /// What the spec says a press does.
    enum Expected: Hashable, Sendable {
        case to(DVRState)
        case unchanged
        case confirm
        case off
    }

    /// One cell of the table.
    struct Row: Sendable, CustomTestStringConvertible {
        let from: DVRState?
        let button: DVRButton
        let expected: Expected

        var testDescription: String {
            "\(from?.rawValue ?? "off") + \(button.rawValue) → \(expected)"
        }
    }

    /// Column order, written out rather than taken from `allCases`, so reordering the enum cannot shift the table.
    static let columns: [DVRButton] = [.stop, .play, .pause, .fastForward, .fastRewind, .record]

    /// Straight from the spec text. Rows: current state (nil = power off). Columns: as above.
    /// Pause, Fast forward and Fast rewind only from Playing and Record only from Stopped hold in their
    /// own states too, so pressing them again asks like any other refused press.
    static let grid: [(DVRState?, [Expected])] = [
        //                 stop            play            pause          fastForward             fastRewind             record
        (nil,             [.off,           .off,           .off,          .off,                   .off,                  .off]),
        (.stopped,        [.unchanged,     .to(.playing),  .confirm,      .confirm,               .confirm,              .to(.recording)]),
        (.playing,        [.to(.stopped),  .unchanged,     .to(.paused),  .to(.fastForwarding),   .to(.fastRewinding),   .confirm]),
        (.paused,         [.to(.stopped),  .to(.playing),  .confirm,      .confirm,               .confirm,              .confirm]),
        (.fastForwarding, [.to(.stopped),  .to(.playing),  .confirm,      .confirm,               .confirm,              .confirm]),
        (.fastRewinding,  [.to(.stopped),  .to(.playing),  .confirm,      .confirm,               .confirm,              .confirm]),
        (.recording,      [.to(.stopped),  .confirm,       .confirm,      .confirm,               .confirm,              .confirm]),
    ]

    static let rows: [Row] = grid.flatMap { from, cells in
        zip(columns, cells).map { Row(from: from, button: $0, expected: $1) }
    }

    /// The oracle the property tests use too.
    static func expected(from state: DVRState?, pressing button: DVRButton) -> Expected? {
        rows.first { $0.from == state && $0.button == button }?.expected
    }

    @Test func tableCoversEveryStateAndPowerOffTimesEveryButtonOnce() {
        #expect(Self.grid.allSatisfy { $0.1.count == Self.columns.count })
        #expect(Set(Self.columns) == Set(DVRButton.allCases))
        let pairs = Self.rows.map { "\($0.from?.rawValue ?? "off")/\($0.button.rawValue)" }
        #expect(Set(pairs).count == pairs.count)
        #expect(pairs.count == (DVRState.allCases.count + 1) * DVRButton.allCases.count)
        #expect(Set(Self.rows.compactMap(\.from)) == Set(DVRState.allCases))
    }

    @Test func theHelperReachesEveryState() {
        for state in DVRState.allCases {
            let device = dvr(in: state)
            #expect(device.isOn)
            #expect(device.state == state)
        }
        #expect(!dvr(in: nil).isOn)
    }

    @Test(arguments: rows)
    func pressDoesWhatTheSpecSays(_ row: Row) {
        let before = dvr(in: row.from)
        var device = before
        let outcome = device.press(row.button)
        switch row.expected {
        case .to(let state):
            #expect(outcome == .changed(to: state))
            #expect(device.state == state)
            #expect(device.isOn)
        case .unchanged:
            #expect(outcome == .unchanged)
            #expect(device == before)
        case .confirm:
            guard case .needsConfirmation(let refusal) = outcome else {
                Issue.record("expected a confirmation, got \(outcome)")
                return
            }
            #expect(refusal.button == row.button)
            #expect(refusal.from == row.from)
            #expect(refusal.to == row.button.target)
            #expect(device == before, "cancelling is just not forcing: nothing may change")
        case .off:
            #expect(outcome == .refusedPowerOff)
            #expect(device == before)
        }
    }

    @Test(arguments: rows.filter { $0.from != nil })
    func isAllowedAgreesWithTheTable(_ row: Row) throws {
        let from = try #require(row.from)
        #expect(DVR.isAllowed(row.button, from: from) == (row.expected != .confirm))
    }

    @Test(arguments: rows)
    func outcomePreviewsWithoutPressing(_ row: Row) {
        let before = dvr(in: row.from)
        var pressed = before
        #expect(before.outcome(of: row.button) == pressed.press(row.button))
        #expect(before == dvr(in: row.from))
    }

    @Test(arguments: rows.filter { $0.from != nil })
    func refusalLookupNamesExactlyTheRefusedPairs(_ row: Row) throws {
        let from = try #require(row.from)
        let refusal = DVR.refusal(of: row.button, from: from)
        if row.expected == .confirm {
            #expect(refusal?.button == row.button)
            #expect(refusal?.from == from)
            // The same refusal a press meets, so a URL naming it shows the same words.
            #expect(dvr(in: from).outcome(of: row.button) == refusal.map { .needsConfirmation($0) })
        } else {
            #expect(refusal == nil)
        }
    }

    @Test func exactlyTwentyOnePairsNeedConfirmation() {
        #expect(Self.rows.filter { $0.expected == .confirm }.count == 21)
    }

    @Test(arguments: [DVRButton.pause, .fastForward, .fastRewind, .record])
    func pressingTheButtonOfTheCurrentStateAgainIsRefusedWhenTheRulesForbidIt(_ button: DVRButton) {
        let before = dvr(in: button.target)
        var device = before
        guard case .needsConfirmation(let refusal) = device.press(button) else {
            Issue.record("\(button.rawValue) in its own state must ask, not be ignored")
            return
        }
        #expect(refusal.from == button.target)
        #expect(refusal.to == button.target)
        #expect(device == before)
    }

    @Test(arguments: [DVRButton.stop, .play])
    func pressingStopOrPlayAgainIsAllowedAndChangesNothing(_ button: DVRButton) {
        var device = dvr(in: button.target)
        let before = device
        #expect(device.press(button) == .unchanged)
        #expect(device == before)
    }
}
