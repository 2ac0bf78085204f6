import Foundation

extension Television {
    /// Two presses make a channel; "00" is not one, so it is reported as a hint instead of tuning.
    @discardableResult
    public mutating func pressDigit(_ digit: Int) throws(RemoteError) -> TVOutcome {
        guard isOn else { return .refusedPowerOff }
        guard (0...9).contains(digit) else { throw .invalidDigit(digit) }
        guard let first = pendingDigit else {
            pendingDigit = digit
            return .awaitingSecondDigit(digit)
        }
        pendingDigit = nil
        let number = first * 10 + digit
        guard Channel.range.contains(number) else {
            return .invalidChannel("\(first)\(digit)")
        }
        channel = Channel(wrapping: number)
        return .changed
    }

    /// Steps up the dial, wrapping 99 to 1.
    @discardableResult
    public mutating func channelUp() -> TVOutcome {
        guard isOn else { return .refusedPowerOff }
        return performNonKeypadAction { $0.channel = $0.channel.next }
    }

    /// Steps down the dial, wrapping 1 to 99.
    @discardableResult
    public mutating func channelDown() -> TVOutcome {
        guard isOn else { return .refusedPowerOff }
        return performNonKeypadAction { $0.channel = $0.channel.previous }
    }

    /// Tunes straight to a channel, for callers that already hold a valid one (a deep link, a guide).
    @discardableResult
    public mutating func tune(to channel: Channel) -> TVOutcome {
        guard isOn else { return .refusedPowerOff }
        return performNonKeypadAction { $0.channel = channel }
    }
}
