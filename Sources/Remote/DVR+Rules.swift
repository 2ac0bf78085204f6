import Foundation

/// What a transport button did, so the UI knows whether to re-render or to ask first.
public enum DVRPressOutcome: Hashable, Sendable {
    /// The DVR moved to a new state.
    case changed(to: DVRState)
    /// Stop while stopped or Play while playing: the rules allow it and it changes nothing.
    case unchanged
    /// The DVR is off, so the button is disabled.
    case refusedPowerOff
    /// The operation is not possible from here; show the refusal's action sheet and call `force` on confirm.
    case needsConfirmation(Refusal)
    /// A refused operation was forced: the current operation was stopped and the requested one started.
    case forced(Refusal)
}

extension DVR {
    /// The spec's transport rules, written once; `press`, `force` and the tests' independent table all meet here.
    public static func isAllowed(_ button: DVRButton, from state: DVRState) -> Bool {
        // Pause, Fast forward, Fast rewind and Record are refused even in their own state: the spec
        // allows them only from Playing or Stopped, and a silent no-op would hide that from the viewer.
        switch button {
        case .stop:
            // Stop is always allowed.
            return true
        case .play:
            // Play starts or resumes from anything but Recording.
            return state != .recording
        case .pause, .fastForward, .fastRewind:
            // Pause, Fast forward and Fast rewind are possible only from Playing.
            return state == .playing
        case .record:
            // Record is possible only from Stopped.
            return state == .stopped
        }
    }

    /// The refusal that pressing `button` in `state` meets, or nil when the rules allow it.
    ///
    /// For pages that name a refusal in a URL (the action sheet's and the alert's no-JavaScript pages):
    /// only pairs the rules really refuse come back, so a hand-made URL cannot invent a warning.
    public static func refusal(of button: DVRButton, from state: DVRState) -> Refusal? {
        isAllowed(button, from: state) ? nil : Refusal(button: button, from: state)
    }

    /// Presses a transport button, refusing with a confirmable explanation when the rules say no.
    @discardableResult
    public mutating func press(_ button: DVRButton) -> DVRPressOutcome {
        guard isOn else { return .refusedPowerOff }
        guard Self.isAllowed(button, from: state) else {
            return .needsConfirmation(Refusal(button: button, from: state))
        }
        // Only Stop and Play are allowed in their own state; pressing them again moves nothing.
        guard button.target != state else { return .unchanged }
        enter(button.target)
        return .changed(to: state)
    }

    /// The action sheet's destructive choice: stops the current operation, then enters the requested state.
    ///
    /// Forcing the state the DVR is already in (Pause while paused) stops it and re-enters it, which
    /// leaves the DVR where it was: the refusal was only about the press, not the state.
    ///
    /// The rules are re-read from the current state, so a stale sheet cannot force something already allowed;
    /// when nothing needs forcing this is exactly `press`. The position is kept (only the Stop button
    /// rewinds), so forcing Fast forward while paused carries on from the paused frame.
    @discardableResult
    public mutating func force(_ button: DVRButton) -> DVRPressOutcome {
        guard case .needsConfirmation(let refusal) = outcome(of: button) else {
            return press(button)
        }
        enter(refusal.to)
        return .forced(refusal)
    }

    /// What pressing would do, without doing it, so a UI can mark buttons that will ask first.
    public func outcome(of button: DVRButton) -> DVRPressOutcome {
        var copy = self
        return copy.press(button)
    }
}
