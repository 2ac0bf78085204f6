import PocketCore
import Remote
import Testing

/// A switched-on TV, the starting point of most tests.
func onTV() -> Television {
    var tv = Television()
    tv.setPower(true)
    return tv
}

/// A DVR in `state`, reached only through public presses, so the tests use no back door.
func dvr(in state: DVRState?) -> DVR {
    var dvr = DVR()
    guard let state else { return dvr }
    dvr.setPower(true)
    switch state {
    case .stopped:
        break
    case .playing:
        dvr.press(.play)
    case .paused, .fastForwarding, .fastRewinding:
        dvr.press(.play)
        dvr.press(state.button)
    case .recording:
        dvr.press(.record)
    }
    return dvr
}
