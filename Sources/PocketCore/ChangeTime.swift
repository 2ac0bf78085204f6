import Foundation

/// When a change made on a phone may say it happened: the one rule every outbox change's time
/// (`at`, milliseconds since 1970 on the phone's clock) is checked against.
///
/// Why bounds at all: a change's time decides which change wins, so a time far in the future
/// would win against everything the person does afterwards (a spot that can never be undone),
/// and a time outside what a database can store would make the person's data unreadable. Phones'
/// clocks drift, so the future bound allows some minutes ahead of the server's clock; the past
/// bound is far enough back for any change an outbox could still hold.
public enum ChangeTime {
    /// 1 January 2000, 00:00 UTC: no Pocket change is older than this.
    public static let earliest: Int64 = 946_684_800_000
    /// How far a phone's clock may run ahead of the server's: ten minutes.
    public static let allowedSkew: Int64 = 10 * 60 * 1000

    /// The latest time accepted when the server's clock reads `now`.
    public static func latest(now: Date) -> Int64 {
        milliseconds(now) + allowedSkew
    }

    /// Refuses a time outside `earliest ... latest(now:)`, saying which bound it crossed.
    public static func check(_ at: Int64, now: Date) throws(ChangeTimeError) {
        guard at >= earliest else { throw .beforeEarliest(at) }
        guard at <= latest(now: now) else { throw .ahead(at) }
    }

    /// `date` as whole milliseconds since 1970, the unit every stored change time uses.
    public static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        // Any date a clock gives fits; the clamp keeps a nonsense Date from trapping the conversion.
        return Int64(exactly: value) ?? (value > 0 ? Int64.max : Int64.min)
    }

    /// The date `milliseconds` after 1970.
    public static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}

/// A change's time that `ChangeTime` refuses.
public enum ChangeTimeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Before 1 January 2000.
    case beforeEarliest(Int64)
    /// More than the allowed skew after the server's clock.
    case ahead(Int64)

    /// A one-line message.
    public var description: String {
        switch self {
        case .beforeEarliest(let at):
            return "its time (\(at) ms since 1970) is before the year 2000: check the phone’s clock"
        case .ahead(let at):
            return "its time (\(at) ms since 1970) is more than 10 minutes ahead of Pocket’s clock: check the phone’s clock"
        }
    }
}
