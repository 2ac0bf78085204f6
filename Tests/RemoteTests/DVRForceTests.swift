import Remote
import Testing

@Suite("DVR confirmation and forcing")
struct DVRForceTests {
    /// The copy for every refused pair, written out in full: a reviewer reads the real sentences here.
    struct Copy: Sendable, CustomTestStringConvertible {
        let from: DVRState
        let button: DVRButton
        let warning: String
        let forceTitle: String
        let forcedMessage: String

        var testDescription: String { "\(from.rawValue) + \(button.rawValue)" }
    }

    /// How each forced message names the operation it stopped.
    static let stoppedWords: [DVRState: String] = [
        .stopped: "already stopped", .playing: "Playing was stopped", .paused: "Pausing was stopped",
        .fastForwarding: "Fast forwarding was stopped", .fastRewinding: "Fast rewinding was stopped", .recording: "Recording was stopped",
    ]

    static let copy: [Copy] = [
        Copy(from: .stopped, button: .pause,
             warning: "Can't pause while stopped. Pause anyway?",
             forceTitle: "Pause Anyway",
             forcedMessage: "The DVR was already stopped. Now paused."),
        Copy(from: .stopped, button: .fastForward,
             warning: "Can't fast forward while stopped. Fast forward anyway?",
             forceTitle: "Fast Forward Anyway",
             forcedMessage: "The DVR was already stopped. Now fast forwarding."),
        Copy(from: .stopped, button: .fastRewind,
             warning: "Can't fast rewind while stopped. Fast rewind anyway?",
             forceTitle: "Fast Rewind Anyway",
             forcedMessage: "The DVR was already stopped. Now fast rewinding."),
        Copy(from: .playing, button: .record,
             warning: "Can't record while playing. Stop playing and record?",
             forceTitle: "Stop Playing and Record",
             forcedMessage: "Playing was stopped. Now recording."),
        Copy(from: .paused, button: .fastForward,
             warning: "Can't fast forward while paused. Stop pausing and fast forward?",
             forceTitle: "Stop Pausing and Fast Forward",
             forcedMessage: "Pausing was stopped. Now fast forwarding."),
        Copy(from: .paused, button: .fastRewind,
             warning: "Can't fast rewind while paused. Stop pausing and fast rewind?",
             forceTitle: "Stop Pausing and Fast Rewind",
             forcedMessage: "Pausing was stopped. Now fast rewinding."),
        Copy(from: .paused, button: .record,
             warning: "Can't record while paused. Stop pausing and record?",
             forceTitle: "Stop Pausing and Record",
             forcedMessage: "Pausing was stopped. Now recording."),
        Copy(from: .paused, button: .pause,
             warning: "Can't pause while paused. Stop pausing and pause?",
             forceTitle: "Stop Pausing and Pause",
             forcedMessage: "Pausing was stopped. Now paused."),
        Copy(from: .fastForwarding, button: .pause,
             warning: "Can't pause while fast forwarding. Stop fast forwarding and pause?",
             forceTitle: "Stop Fast Forwarding and Pause",
             forcedMessage: "Fast forwarding was stopped. Now paused."),
        Copy(from: .fastForwarding, button: .fastRewind,
             warning: "Can't fast rewind while fast forwarding. Stop fast forwarding and fast rewind?",
             forceTitle: "Stop Fast Forwarding and Fast Rewind",
             forcedMessage: "Fast forwarding was stopped. Now fast rewinding."),
        Copy(from: .fastForwarding, button: .record,
             warning: "Can't record while fast forwarding. Stop fast forwarding and record?",
             forceTitle: "Stop Fast Forwarding and Record",
             forcedMessage: "Fast forwarding was stopped. Now recording."),
        Copy(from: .fastForwarding, button: .fastForward,
             warning: "Can't fast forward while fast forwarding. Stop fast forwarding and fast forward?",
             forceTitle: "Stop Fast Forwarding and Fast Forward",
             forcedMessage: "Fast forwarding was stopped. Now fast forwarding."),
        Copy(from: .fastRewinding, button: .pause,
             warning: "Can't pause while fast rewinding. Stop fast rewinding and pause?",
             forceTitle: "Stop Fast Rewinding and Pause",
             forcedMessage: "Fast rewinding was stopped. Now paused."),
        Copy(from: .fastRewinding, button: .fastForward,
             warning: "Can't fast forward while fast rewinding. Stop fast rewinding and fast forward?",
             forceTitle: "Stop Fast Rewinding and Fast Forward",
             forcedMessage: "Fast rewinding was stopped. Now fast forwarding."),
        Copy(from: .fastRewinding, button: .record,
             warning: "Can't record while fast rewinding. Stop fast rewinding and record?",
             forceTitle: "Stop Fast Rewinding and Record",
             forcedMessage: "Fast rewinding was stopped. Now recording."),
        Copy(from: .fastRewinding, button: .fastRewind,
             warning: "Can't fast rewind while fast rewinding. Stop fast rewinding and fast rewind?",
             forceTitle: "Stop Fast Rewinding and Fast Rewind",
             forcedMessage: "Fast rewinding was stopped. Now fast rewinding."),
        Copy(from: .recording, button: .play,
             warning: "Can't play while recording. Stop recording and play?",
             forceTitle: "Stop Recording and Play",
             forcedMessage: "Recording was stopped. Now playing."),
        Copy(from: .recording, button: .pause,
             warning: "Can't pause while recording. Stop recording and pause?",
             forceTitle: "Stop Recording and Pause",
             forcedMessage: "Recording was stopped. Now paused."),
        Copy(from: .recording, button: .fastForward,
             warning: "Can't fast forward while recording. Stop recording and fast forward?",
             forceTitle: "Stop Recording and Fast Forward",
             forcedMessage: "Recording was stopped. Now fast forwarding."),
        Copy(from: .recording, button: .fastRewind,
             warning: "Can't fast rewind while recording. Stop recording and fast rewind?",
             forceTitle: "Stop Recording and Fast Rewind",
             forcedMessage: "Recording was stopped. Now fast rewinding."),
        Copy(from: .recording, button: .record,
             warning: "Can't record while recording. Stop recording and record?",
             forceTitle: "Stop Recording and Record",
             forcedMessage: "Recording was stopped. Now recording."),
    ]

    @Test func copyCoversExactlyTheRefusedPairsOfTheRuleTable() {
        let refused = DVRRuleTableTests.rows.filter { $0.expected == .confirm }.map { "\($0.from?.rawValue ?? "off")/\($0.button.rawValue)" }
        let written = Self.copy.map { "\($0.from.rawValue)/\($0.button.rawValue)" }
        #expect(Set(refused) == Set(written))
        #expect(written.count == refused.count)
    }

    @Test(arguments: copy)
    func refusalExplainsWhyAndOffersToForce(_ expected: Copy) throws {
        var device = dvr(in: expected.from)
        guard case .needsConfirmation(let refusal) = device.press(expected.button) else {
            Issue.record("expected a confirmation")
            return
        }
        #expect(refusal.warning == expected.warning)
        #expect(refusal.forceTitle == expected.forceTitle)
        #expect(refusal.forcedMessage == expected.forcedMessage)
        #expect(Refusal.cancelTitle == "Cancel")
    }

    @Test(arguments: copy)
    func forcingStopsTheCurrentOperationThenEntersTheRequestedState(_ expected: Copy) {
        var device = dvr(in: expected.from)
        let outcome = device.force(expected.button)
        guard case .forced(let refusal) = outcome else {
            Issue.record("expected a forced outcome, got \(outcome)")
            return
        }
        #expect(device.state == expected.button.target)
        #expect(device.isOn)
        #expect(refusal.from == expected.from)
        #expect(refusal.button == expected.button)
        #expect(refusal.forcedMessage == expected.forcedMessage)
        #expect(refusal.forcedMessage.contains(Self.stoppedWords[expected.from] ?? "?"), "the message names what was stopped")
        #expect(refusal.forcedMessage.localizedCaseInsensitiveContains(expected.button.target.title), "the message names what runs now")
    }

    @Test(arguments: DVRRuleTableTests.rows.filter { $0.expected != .confirm })
    func forcingWhatNeedsNoForcingIsAPlainPress(_ row: DVRRuleTableTests.Row) {
        var forced = dvr(in: row.from)
        var pressed = forced
        #expect(forced.force(row.button) == pressed.press(row.button))
        #expect(forced == pressed)
    }

    @Test func forcingKeepsThePositionBecauseOnlyTheStopButtonRewinds() {
        var device = dvr(in: .playing)
        device.advance(by: 30)
        device.press(.pause)
        device.force(.fastForward)
        #expect(device.state == .fastForwarding)
        #expect(device.position == 30)
        device.advance(by: 2)
        #expect(device.position == 46)
    }

    @Test func forcingTheCurrentStateAgainReEntersItWhereItWas() {
        var device = dvr(in: .playing)
        device.advance(by: 10)
        device.press(.fastForward)
        device.advance(by: 1)
        let before = device
        #expect(device.force(.fastForward) == DVR.refusal(of: .fastForward, from: .fastForwarding).map { .forced($0) })
        #expect(device == before, "stopping fast forward and fast forwarding again keeps the frame and the state")
        var recorder = dvr(in: .recording)
        recorder.advance(by: 20)
        recorder.force(.record)
        #expect(recorder.state == .recording)
        #expect(recorder.recordingLength == 20, "re-entering Recording keeps what was recorded")
    }

    @Test func forcingPlayWhileRecordingKeepsTheRecording() {
        var device = dvr(in: .recording)
        device.advance(by: 60)
        device.force(.play)
        #expect(device.state == .playing)
        #expect(device.recordingLength == 60)
        #expect(device.position == 0)
        device.advance(by: 5)
        #expect(device.position == 5)
        #expect(device.recordingLength == 60)
    }

    @Test(arguments: DVRButton.allCases)
    func forcingWhileOffIsRefusedLikeAnyOtherControl(_ button: DVRButton) {
        var device = DVR()
        #expect(device.force(button) == .refusedPowerOff)
        #expect(device == DVR())
    }

    @Test func aStaleConfirmationIsJudgedAgainstTheCurrentState() {
        var device = dvr(in: .paused)
        #expect(device.press(.fastForward).isConfirmation)
        device.press(.play)  // another tab resumed playback while the sheet was open
        #expect(device.force(.fastForward) == .changed(to: .fastForwarding))
    }

    @Test func cancellingLeavesEverythingAsItWas() {
        var device = dvr(in: .recording)
        device.advance(by: 12)
        let before = device
        #expect(device.press(.play).isConfirmation)
        #expect(device == before)
    }
}

extension DVRPressOutcome {
    /// Whether the UI would show an action sheet.
    var isConfirmation: Bool {
        if case .needsConfirmation = self { true } else { false }
    }
}
