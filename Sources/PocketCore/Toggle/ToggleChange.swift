import Foundation

/// The words one app's phones use for a per-person toggle (a talk's bookmark, a mural's star):
/// the two kinds of change and the field naming the item, so a bad change is named in the app's
/// own terms.
public struct ToggleWords: Sendable, Equatable {
    /// The kind that turns the toggle on (`bookmark`, `favourite`).
    public let on: String
    /// The kind that turns it off (`unbookmark`, `unfavourite`).
    public let off: String
    /// The JSON field and the noun for the item (`talk`, `mural`).
    public let item: String

    /// Words for one app's toggle.
    public init(on: String, off: String, item: String) {
        self.on = on
        self.off = off
        self.item = item
    }
}

/// A per-person toggle set or cleared on a phone, possibly offline, waiting in its outbox until
/// Pocket is reachable again. Bookmarks (Conference) and stars (Murals) are both this.
///
/// The merge rule, so that changes from several phones (and the resends of one) end in one answer
/// whatever order they arrive in (applied by `ToggleTables.apply`):
/// - **Each change is applied at most once.** Its `id` (the phone's `ChangeID`) is remembered for
///   the person once seen, whether it applied or was superseded; the same id again changes nothing.
/// - **The latest change per item wins.** A change whose `at` (the phone's clock, in milliseconds
///   since 1970) is older than the change that last decided that item for that person is
///   superseded and changes nothing. Equal times go to the larger id, so two phones agree
///   whatever order their changes come in.
/// - A change made with the page's own form (no JavaScript) is made now, on the server's clock,
///   with no id; it always applies.
/// - An item kept before decisions existed counts as decided at time 0: any change wins.
public struct ToggleChange: Sendable, Equatable {
    /// The phone's id for the change (`ChangeID`).
    public let id: String
    /// When the person tapped, in milliseconds since 1970 on the phone's clock.
    public let at: Int64
    /// Whether the item becomes on (bookmarked, starred).
    public let isOn: Bool
    /// The item's id (a talk's, a mural's).
    public let itemID: Int

    /// Checks a change as the phone sent it: `kind` is `words.on` or `words.off`. A bad one throws
    /// the problem with a one-line message, which each app puts in its own error.
    public init(id: String, at: Int64, kind: String, itemID: Int, words: ToggleWords) throws(ToggleChangeProblem) {
        guard ChangeID.isValid(id) else { throw ToggleChangeProblem(message: ChangeID.rule) }
        guard at >= 0 else { throw ToggleChangeProblem(message: "its time “at” must be milliseconds since 1970, not \(at)") }
        guard itemID > 0 else { throw ToggleChangeProblem(message: "“\(words.item)” must be a \(words.item)’s id, not \(itemID)") }
        switch kind {
        case words.on: isOn = true
        case words.off: isOn = false
        default: throw ToggleChangeProblem(message: "“kind” must be \(words.on) or \(words.off)")
        }
        self.id = id
        self.at = at
        self.itemID = itemID
    }

    /// Whether this change is newer than the one that decided the item before (`at`, `id`):
    /// the later time wins, equal times go to the larger id.
    public func supersedes(at otherAt: Int64, id otherID: String) -> Bool {
        at != otherAt ? at > otherAt : id > otherID
    }
}

/// Why a phone's toggle change is refused, in one line; each app maps it to its own error.
public struct ToggleChangeProblem: Error, Sendable, Equatable {
    /// What is wrong, e.g. "“kind” must be bookmark or unbookmark".
    public let message: String
}

/// What applying a `ToggleChange` did, and the item's toggle as it now is.
public struct ToggleOutcome: Sendable, Equatable {
    /// What happened to the change.
    public enum Result: String, Sendable, Equatable {
        /// The toggle now follows this change.
        case applied
        /// A later change had already decided this item; nothing changed.
        case superseded
        /// This id was seen before; nothing changed.
        case duplicate
    }

    /// What happened to the change.
    public let result: Result
    /// Whether the item is now on for the person.
    public let isOn: Bool

    /// Creates an outcome.
    public init(result: Result, isOn: Bool) {
        self.result = result
        self.isOn = isOn
    }
}
