import Foundation

extension DVR {
    /// Whether time passing changes anything (playing, skimming either way, recording), so a screen
    /// knows when its counters need to tick.
    public var isRunning: Bool {
        isOn && (state.playbackRate != 0 || state.isRecording)
    }

    /// The DVR after `seconds` of real time: a pure function, so the Screen page and tests need no clock.
    ///
    /// Playing moves 1×, fast forwarding 8×, fast rewinding −8× and stops at 0 (staying in Fast rewinding,
    /// as the spec does not ask for an automatic switch); Recording grows the recording. Negative or
    /// non-finite spans (a clock that went backwards) change nothing.
    public func advanced(by seconds: TimeInterval) -> DVR {
        guard isOn, seconds.isFinite, seconds > 0 else { return self }
        var later = self
        later.position = max(0, position + state.playbackRate * seconds)
        if state.isRecording {
            later.recordingLength += seconds
        }
        return later
    }

    /// In-place form of `advanced(by:)`, for callers that own a variable.
    public mutating func advance(by seconds: TimeInterval) {
        self = advanced(by: seconds)
    }

    /// Convenience for stored timestamps: advances by the time between them, ignoring a clock that went backwards.
    public func advanced(from start: Date, to end: Date) -> DVR {
        advanced(by: end.timeIntervalSince(start))
    }
}
