import Foundation

/// The "My DVR" remote's model of the recorder: power, transport state and the programme clock.
///
/// Values are pure: time passes only through `advanced(by:)`, so the web layer stores the JSON with a
/// timestamp and advances by the elapsed seconds before the next press, and tests need no clock.
public struct DVR: Hashable, Sendable {
    /// How many programme seconds one real second covers when skimming either way.
    public static let fastSpeed: Double = 8

    /// Whether the DVR is on; when off, every control but power is refused.
    public internal(set) var isOn: Bool
    /// The transport state; always `.stopped` while off, because cutting power stops everything.
    public internal(set) var state: DVRState
    /// Seconds into the programme; never negative, and back to 0 on Stop.
    public internal(set) var position: TimeInterval
    /// Seconds recorded so far; kept across Stop and power cycles, because losing a recording is worse than keeping it.
    public internal(set) var recordingLength: TimeInterval

    /// A new DVR: off, stopped, nothing recorded.
    public init() {
        isOn = false
        state = .stopped
        position = 0
        recordingLength = 0
    }

    /// Idempotent, so a repeated request cannot flip it back; turning off stops whatever was running,
    /// so turning on always starts in Stopped. Returns whether anything changed.
    @discardableResult
    public mutating func setPower(_ on: Bool) -> Bool {
        guard on != isOn else { return false }
        enter(.stopped)
        isOn = on
        return true
    }

    /// The power switch as a single button; returns whether anything changed (always true).
    @discardableResult
    public mutating func togglePower() -> Bool {
        setPower(!isOn)
    }

    /// The one place a state is entered, so Stop's rewind cannot be forgotten on some path.
    mutating func enter(_ target: DVRState) {
        if target == .stopped {
            position = 0
        }
        state = target
    }
}

extension DVR: Codable {
    private enum CodingKeys: String, CodingKey {
        case isOn, state, position, recordingLength
    }

    /// Re-checks every invariant, so a hand-edited or stale database row cannot produce an impossible DVR.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        isOn = try container.decode(Bool.self, forKey: .isOn)
        state = try container.decode(DVRState.self, forKey: .state)
        position = try container.decode(TimeInterval.self, forKey: .position)
        recordingLength = try container.decode(TimeInterval.self, forKey: .recordingLength)
        guard isOn || state == .stopped else {
            throw DecodingError.dataCorruptedError(forKey: .state, in: container, debugDescription: "a DVR that is off must be stopped, not \(state.rawValue)")
        }
        guard position.isFinite, position >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .position, in: container, debugDescription: "position \(position) is not a time")
        }
        guard recordingLength.isFinite, recordingLength >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .recordingLength, in: container, debugDescription: "recording length \(recordingLength) is not a time")
        }
    }
}
