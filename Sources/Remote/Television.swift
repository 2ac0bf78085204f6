import Foundation

/// The "My TV" remote's model of the set: everything its screen shows, and the JSON the web layer stores.
///
/// Every control goes through a `mutating` method that returns a `TVOutcome`; a thrown `RemoteError`
/// always leaves the value exactly as it was, so callers never see half an edit.
public struct Television: Hashable, Sendable {
    /// The slider's span; anything else is a bug or a tampered form, so it is rejected, not clamped.
    public static let volumeRange = 0...100
    /// Half way, so the first press of either direction is audible.
    public static let defaultVolume = 50
    /// The lowest channel, where a freshly unboxed set starts.
    public static let defaultChannel = Channel(wrapping: 1)
    /// A fixed number of preset buttons, so layouts never have to cope with a different count.
    public static let favouriteCount = 4
    /// How long a lone first digit waits for the second, as a real set's remote gives up after a few
    /// seconds; an older one is gone, and the next digit starts a new channel.
    public static let pendingDigitLifetime: TimeInterval = 3

    /// Whether the set is on; when off, every control but power is refused.
    public internal(set) var isOn: Bool
    /// Speaker level, always inside `volumeRange`.
    public internal(set) var volume: Int
    /// The channel being watched.
    public internal(set) var channel: Channel
    /// The first keypad digit while the set waits for the second. It belongs to the phone that typed
    /// it: the store keeps one per phone (the two presses arrive as separate web requests) and
    /// never in the shared set's row.
    public internal(set) var pendingDigit: Int? {
        // A digit typed again (or dropped) is a new entry, so the time of the old one no longer applies.
        didSet { pendingDigitEnteredAt = nil }
    }
    /// When the phone typed `pendingDigit`, as the store recorded it (nil for a value no store has
    /// stamped); never part of the JSON, because the digit is not the set's.
    public internal(set) var pendingDigitEnteredAt: Date?
    /// Exactly `favouriteCount` presets, in button order.
    public internal(set) var favourites: [Favourite]

    /// A new set: off, volume 50, channel 1 and the built-in presets.
    public init() {
        isOn = false
        volume = Self.defaultVolume
        channel = Self.defaultChannel
        pendingDigit = nil
        favourites = Favourite.defaults
    }

    /// The channel display: the half-typed digit while waiting for the second, otherwise two digits.
    public var display: String {
        pendingDigit.map { "\($0)-" } ?? channel.description
    }

    /// How long the pending digit still waits at `date`, or nil when there is none or it has no time
    /// stamp, so a page can drop the shown "4-" when the store does.
    public func pendingDigitTimeLeft(at date: Date) -> TimeInterval? {
        guard pendingDigit != nil, let entered = pendingDigitEnteredAt else { return nil }
        return max(0, Self.pendingDigitLifetime - date.timeIntervalSince(entered))
    }

    // MARK: Power and volume

    /// Idempotent, so a repeated web request cannot flip the set back; like every non-keypad control it
    /// drops a half-typed channel even when the power stays as it was. Returns whether anything changed.
    @discardableResult
    public mutating func setPower(_ on: Bool) -> Bool {
        let before = self
        isOn = on
        pendingDigit = nil
        return self != before
    }

    /// The remote's single power button; returns whether anything changed (always true).
    @discardableResult
    public mutating func togglePower() -> Bool {
        setPower(!isOn)
    }

    /// Sets the slider level; out-of-range input throws rather than clamps because the slider cannot send it.
    @discardableResult
    public mutating func setVolume(_ level: Int) throws(RemoteError) -> TVOutcome {
        guard isOn else { return .refusedPowerOff }
        guard Self.volumeRange.contains(level) else { throw .volumeOutOfRange(level) }
        return performNonKeypadAction { $0.volume = level }
    }

    /// Applies a change from any control but the keypad: such a change always abandons a half-typed channel.
    mutating func performNonKeypadAction(_ change: (inout Television) -> Void) -> TVOutcome {
        let before = self
        change(&self)
        pendingDigit = nil
        return self == before ? .unchanged : .changed
    }
}

extension Television: Codable {
    private enum CodingKeys: String, CodingKey {
        case isOn, volume, channel, pendingDigit, favourites
    }

    /// Re-checks every invariant, so a hand-edited or stale database row cannot produce an impossible set.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        isOn = try container.decode(Bool.self, forKey: .isOn)
        volume = try container.decode(Int.self, forKey: .volume)
        channel = try container.decode(Channel.self, forKey: .channel)
        pendingDigit = try container.decodeIfPresent(Int.self, forKey: .pendingDigit)
        favourites = try container.decode([Favourite].self, forKey: .favourites)
        guard Self.volumeRange.contains(volume) else {
            throw DecodingError.dataCorruptedError(forKey: .volume, in: container, debugDescription: "volume \(volume) is not in \(Self.volumeRange)")
        }
        if let digit = pendingDigit, !(0...9).contains(digit) || !isOn {
            throw DecodingError.dataCorruptedError(forKey: .pendingDigit, in: container, debugDescription: "pending digit \(digit) is impossible here")
        }
        guard favourites.count == Self.favouriteCount else {
            throw DecodingError.dataCorruptedError(forKey: .favourites, in: container, debugDescription: "expected \(Self.favouriteCount) favourites, found \(favourites.count)")
        }
    }
}
