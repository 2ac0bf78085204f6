import Foundation
import PocketCore

/// A bookmark set or cleared on a phone, possibly offline, waiting in its outbox until Pocket is
/// reachable again.
///
/// The merge rule, so that changes from several phones (and the resends of one) end in one answer
/// whatever order they arrive in, as for a mural's star:
/// - **Each change is applied at most once**: its id is remembered for the person.
/// - **The latest change per talk wins**: one made before the change that last decided that
///   talk's bookmark is superseded; equal times go to the larger id.
/// - The talk page's own form (no JavaScript) is a change made now, on the server's clock.
public struct BookmarkChange: Sendable, Equatable {
    /// The phone's id for the change.
    public let id: String
    /// When the person tapped, in milliseconds since 1970 on the phone's clock.
    public let at: Int64
    /// Whether the talk becomes bookmarked.
    public let isBookmarked: Bool
    /// The talk.
    public let talkID: Int

    /// Checks a change as the phone sent it: `kind` is `bookmark` or `unbookmark`.
    public init(id: String, at: Int64, kind: String, talkID: Int) throws(ConferenceError) {
        guard ChangeID.isValid(id) else { throw .invalidChange(ChangeID.rule) }
        guard talkID > 0 else { throw .invalidChange("“talk” must be a talk’s id, not \(talkID)") }
        switch kind {
        case "bookmark": isBookmarked = true
        case "unbookmark": isBookmarked = false
        default: throw .invalidChange("“kind” must be bookmark or unbookmark")
        }
        self.id = id
        self.at = at
        self.talkID = talkID
    }

    /// Whether this change is newer than the one that decided the bookmark before.
    public func supersedes(at otherAt: Int64, id otherID: String) -> Bool {
        at != otherAt ? at > otherAt : id > otherID
    }
}

/// What applying a `BookmarkChange` did, and the bookmark as it now is.
public struct BookmarkOutcome: Sendable, Equatable {
    /// What happened to the change.
    public enum Result: String, Sendable, Equatable {
        /// The bookmark now follows this change.
        case applied
        /// A later change had already decided this talk's bookmark; nothing changed.
        case superseded
        /// This id was applied before; nothing changed.
        case duplicate
    }

    /// What happened to the change.
    public let result: Result
    /// Whether the talk is now bookmarked by the person.
    public let isBookmarked: Bool
}
