import Foundation

/// What the DVR is doing; being an enum is what makes "exactly one state at a time" true by construction.
public enum DVRState: String, CaseIterable, Codable, Sendable {
    /// Idle at the start of the programme.
    case stopped
    /// Normal playback.
    case playing
    /// Playback frozen in place.
    case paused
    /// Skimming forward.
    case fastForwarding
    /// Skimming backward.
    case fastRewinding
    /// Capturing the programme.
    case recording

    /// Status text for the remote and the Screen page.
    public var title: String {
        switch self {
        case .stopped: "Stopped"
        case .playing: "Playing"
        case .paused: "Paused"
        case .fastForwarding: "Fast forwarding"
        case .fastRewinding: "Fast rewinding"
        case .recording: "Recording"
        }
    }

    /// Programme seconds per real second, so a Screen page can animate locally between requests.
    public var playbackRate: Double {
        switch self {
        case .playing: 1
        case .fastForwarding: DVR.fastSpeed
        case .fastRewinding: -DVR.fastSpeed
        case .stopped, .paused, .recording: 0
        }
    }

    /// Whether the recording grows with time.
    public var isRecording: Bool { self == .recording }

    /// The button whose press leads here; its state is the one a UI highlights.
    public var button: DVRButton {
        switch self {
        case .stopped: .stop
        case .playing: .play
        case .paused: .pause
        case .fastForwarding: .fastForward
        case .fastRewinding: .fastRewind
        case .recording: .record
        }
    }
}

/// The six transport buttons; each one asks for exactly one `DVRState`.
public enum DVRButton: String, CaseIterable, Codable, Sendable {
    /// Always allowed.
    case stop
    /// Starts or resumes playback.
    case play
    /// Freezes playback.
    case pause
    /// Skims forward.
    case fastForward
    /// Skims backward.
    case fastRewind
    /// Starts recording.
    case record

    /// The button's label, in iOS title case.
    public var title: String {
        switch self {
        case .stop: "Stop"
        case .play: "Play"
        case .pause: "Pause"
        case .fastForward: "Fast Forward"
        case .fastRewind: "Fast Rewind"
        case .record: "Record"
        }
    }

    /// The state this button asks for.
    public var target: DVRState {
        switch self {
        case .stop: .stopped
        case .play: .playing
        case .pause: .paused
        case .fastForward: .fastForwarding
        case .fastRewind: .fastRewinding
        case .record: .recording
        }
    }
}
