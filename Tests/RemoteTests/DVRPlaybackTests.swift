import Foundation
import Remote
import Testing

@Suite("DVR playback and recording time")
struct DVRPlaybackTests {
    /// Programme seconds per real second, restated from the spec.
    static let rates: [(DVRState, Double)] = [
        (.stopped, 0), (.playing, 1), (.paused, 0), (.fastForwarding, 8), (.fastRewinding, -8), (.recording, 0),
    ]

    @Test(arguments: rates)
    func eachStateMovesAtItsRate(_ state: DVRState, _ rate: Double) {
        #expect(state.playbackRate == rate)
        var device = dvr(in: .playing)
        device.advance(by: 100)  // room to rewind
        device.force(state.button)
        if state == .stopped {
            #expect(device.position == 0)
        } else {
            #expect(device.position == 100)
        }
        let start = device.position
        let later = device.advanced(by: 10)
        #expect(later.position == start + rate * 10)
        #expect(later.state == state)
    }

    @Test(arguments: DVRState.allCases)
    func runningMeansTimeChangesSomething(_ state: DVRState) {
        let device = dvr(in: state)
        #expect(device.isRunning == (device.advanced(by: 1) != device || state == .fastRewinding))
        #expect(!DVR().isRunning)
    }

    @Test func fastRewindStopsAtTheStart() {
        var device = dvr(in: .playing)
        device.advance(by: 20)
        device.press(.fastRewind)
        #expect(device.advanced(by: 2).position == 4)
        #expect(device.advanced(by: 2.5).position == 0)
        #expect(device.advanced(by: 3600).position == 0)
        #expect(device.advanced(by: 3600).state == .fastRewinding)
    }

    @Test func recordingGrowsOnlyWhileRecording() {
        var device = dvr(in: .recording)
        device.advance(by: 90)
        #expect(device.recordingLength == 90)
        #expect(device.position == 0)
        device.press(.stop)
        device.advance(by: 90)
        #expect(device.recordingLength == 90)
        device.press(.record)
        device.advance(by: 10)
        #expect(device.recordingLength == 100, "recording again continues the same programme")
    }

    @Test func stopRewindsButKeepsTheRecording() {
        var device = dvr(in: .recording)
        device.advance(by: 60)
        device.press(.stop)
        device.press(.play)
        device.advance(by: 25)
        #expect(device.position == 25)
        #expect(device.press(.stop) == .changed(to: .stopped))
        #expect(device.position == 0)
        #expect(device.recordingLength == 60)
    }

    @Test func pausedAndStoppedHoldStill() {
        var device = dvr(in: .playing)
        device.advance(by: 7)
        device.press(.pause)
        #expect(device.advanced(by: 1000).position == 7)
        device.press(.stop)
        #expect(device.advanced(by: 1000).position == 0)
    }

    @Test func powerOffFreezesTimeAndRewindsButKeepsTheRecording() {
        var device = dvr(in: .recording)
        device.advance(by: 40)
        device.press(.stop)
        device.press(.play)
        device.advance(by: 15)
        device.setPower(false)
        #expect(device.state == .stopped)
        #expect(device.position == 0)
        #expect(device.recordingLength == 40)
        #expect(device.advanced(by: 500) == device)
        device.setPower(true)
        #expect(device.state == .stopped)
    }

    @Test(arguments: [-1.0, 0, -.infinity, .infinity, .nan])
    func impossibleSpansChangeNothing(_ seconds: Double) {
        var device = dvr(in: .playing)
        device.advance(by: 3)
        #expect(device.advanced(by: seconds) == device)
    }

    @Test(arguments: DVRState.allCases)
    func advancingIsAdditive(_ state: DVRState) {
        var device = dvr(in: .playing)
        device.advance(by: 50)
        device.force(state.button)
        #expect(device.advanced(by: 2.5).advanced(by: 4) == device.advanced(by: 6.5))
    }

    @Test func advancedIsPure() {
        let device = dvr(in: .playing)
        _ = device.advanced(by: 10)
        #expect(device.position == 0)
    }

    @Test func datesGiveTheSameAnswerAsSeconds() {
        let device = dvr(in: .fastForwarding)
        let saved = Date(timeIntervalSinceReferenceDate: 1_000)
        #expect(device.advanced(from: saved, to: saved.addingTimeInterval(3)).position == 24)
        #expect(device.advanced(from: saved, to: saved.addingTimeInterval(-3)) == device)
    }
}
