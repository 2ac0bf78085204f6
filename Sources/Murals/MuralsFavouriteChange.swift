import Foundation
import PocketCore

/// A star set or cleared on a phone, possibly offline, waiting in its outbox until Pocket is
/// reachable again.
///
/// The merge rule, so that changes from several phones (and the resends of one) end in one
/// answer whatever order they arrive in:
/// - **Each change is applied at most once.** Its `id` (a UUID the phone made) is stored for the
///   person once it has been seen; the same id again changes nothing.
/// - **The latest change per mural wins.** A change whose `at` (the phone's clock, in
///   milliseconds since 1970) is older than the change that last decided that mural's star for
///   that person is superseded and changes nothing. Equal times are settled by the larger id,
///   so two phones agree whatever order their changes come in.
/// - A star set with the page's own form (no JavaScript) is a change made now, on the server's
///   clock, with no id; it always applies.
/// - Favourites kept before this rule existed count as decided at time 0: any change wins.
public struct MuralsFavouriteChange: Sendable, Equatable {
    /// The phone's id for the change (`ChangeID`).
    public let id: String
    /// When the person tapped, in milliseconds since 1970 on the phone's clock.
    public let at: Int64
    /// Whether the mural becomes a favourite (`favourite`) or stops being one (`unfavourite`).
    public let isFavourite: Bool
    /// The mural's id.
    public let muralID: Int

    /// Checks a change as the phone sent it; a bad one throws `MuralsError.invalidChange` naming
    /// what is wrong, so the outbox drops it (a 4xx) rather than retrying it forever.
    public init(id: String, at: Int64, kind: String, muralID: Int) throws(MuralsError) {
        guard ChangeID.isValid(id) else { throw .invalidChange(ChangeID.rule) }
        guard at >= 0 else { throw .invalidChange("its time “at” must be milliseconds since 1970, not \(at)") }
        guard muralID > 0 else { throw .invalidChange("“mural” must be a mural’s id, not \(muralID)") }
        switch kind {
        case "favourite": isFavourite = true
        case "unfavourite": isFavourite = false
        default: throw .invalidChange("“kind” must be favourite or unfavourite")
        }
        self.id = id
        self.at = at
        self.muralID = muralID
    }

    /// Whether this change is newer than the one that decided the star before (`at`, `id`):
    /// later time wins, equal times go to the larger id.
    public func supersedes(at otherAt: Int64, id otherID: String) -> Bool {
        at != otherAt ? at > otherAt : id > otherID
    }
}

/// What applying a `MuralsFavouriteChange` did, and the star as it now is.
public struct MuralsChangeOutcome: Sendable, Equatable {
    /// What happened to the change.
    public enum Result: String, Sendable, Equatable {
        /// The star now follows this change.
        case applied
        /// A later change had already decided this mural's star; nothing changed.
        case superseded
        /// This id was applied before; nothing changed.
        case duplicate
    }

    /// What happened to the change.
    public let result: Result
    /// Whether the mural is now a favourite of the person.
    public let isFavourite: Bool

    /// Creates an outcome.
    public init(result: Result, isFavourite: Bool) {
        self.result = result
        self.isFavourite = isFavourite
    }
}
