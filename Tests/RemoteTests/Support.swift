import Remote
import Testing

/// SplitMix64 (Steele, Lea & Flood 2014): tiny, fast and fully determined by its seed, so a failing
/// property run can be replayed from the seed printed in the test name.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

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
