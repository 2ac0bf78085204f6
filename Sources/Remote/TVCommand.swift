import Foundation

/// Every control on the "My TV" remote as data, so a web form or a test can name a press without a closure.
public enum TVCommand: Hashable, Sendable {
    /// The power button.
    case togglePower
    /// An explicit on/off switch, safe to repeat.
    case setPower(Bool)
    /// The volume slider.
    case setVolume(Int)
    /// A keypad digit.
    case digit(Int)
    /// Channel up.
    case channelUp
    /// Channel down.
    case channelDown
    /// A tap on a preset button (zero-based).
    case tuneFavourite(Int)
    /// Saving the preset edit sheet (zero-based slot, raw form text).
    case editFavourite(index: Int, label: String, channel: Int)
}

/// What a control did, so the UI knows whether to re-render, show the pending digit or show a hint.
public enum TVOutcome: Hashable, Sendable {
    /// The set's state is different now.
    case changed
    /// The control was accepted but nothing moved (same volume, power already on, ...).
    case unchanged
    /// The first keypad digit was taken and is now shown while the set waits for the second.
    case awaitingSecondDigit(Int)
    /// The keypad spelled a number that is not a channel ("00"); the channel stays put.
    case invalidChannel(String)
    /// The set is off, so the control is disabled.
    case refusedPowerOff

    /// A short line for the screen, for the outcomes a user should notice.
    public var hint: String? {
        switch self {
        case .invalidChannel(let typed): "\(typed) is not a channel"
        case .refusedPowerOff: "The TV is off"
        case .changed, .unchanged, .awaitingSecondDigit: nil
        }
    }
}

extension Television {
    /// Runs one command; the single entry point the web layer needs for a POST.
    @discardableResult
    public mutating func apply(_ command: TVCommand) throws(RemoteError) -> TVOutcome {
        switch command {
        case .togglePower:
            return togglePower() ? .changed : .unchanged
        case .setPower(let on):
            return setPower(on) ? .changed : .unchanged
        case .setVolume(let level):
            return try setVolume(level)
        case .digit(let digit):
            return try pressDigit(digit)
        case .channelUp:
            return channelUp()
        case .channelDown:
            return channelDown()
        case .tuneFavourite(let index):
            return try tuneFavourite(at: index)
        case .editFavourite(let index, let label, let channel):
            return try editFavourite(at: index, label: label, channel: channel)
        }
    }
}
