import Foundation
import PocketCore

/// Where the murals, favourites, visits and sync state live. The live implementation is
/// `MuralsDatabase` (SQLite via GRDB); tests use the same type on an in-memory database.
///
/// Murals, pictures and the sync state are shared by everyone; favourites and visits belong to
/// one person, so every method about them takes the `PersonID` whose they are.
public protocol MuralsStore: HealthChecked {
    /// Every shown (enabled) mural, by title.
    func murals() async throws -> [Mural]
    /// One shown mural, or nil when it is unknown or hidden.
    func mural(id: Int) async throws -> Mural?
    /// The ids `person` marked favourite (kept even while a mural is hidden).
    func favouriteIDs(of person: PersonID) async throws -> Set<Int>
    /// Marks or unmarks a favourite of `person`; marking needs a shown mural (`MuralsError.unknownMural`).
    func setFavourite(_ isFavourite: Bool, muralID: Int, for person: PersonID) async throws
    /// Applies a star changed on a phone (from its outbox) for `person`: each change id at most
    /// once, the latest change per mural wins (the rule is on `MuralsFavouriteChange`).
    func apply(_ change: MuralsFavouriteChange, for person: PersonID) async throws -> MuralsChangeOutcome
    /// The ids of murals `person` passed on a walk.
    func visitedIDs(of person: PersonID) async throws -> Set<Int>
    /// Adds murals to the ones `person` visited.
    func markVisited(_ ids: Set<Int>, for person: PersonID) async throws
    /// Forgets every visit of `person` (nobody else's).
    func clearVisited(for person: PersonID) async throws
    /// When the last sync succeeded or failed, and how many murals are shown.
    func syncState() async throws -> MuralsSyncState
    /// Saves one response in one transaction: upserts by id, replaces each mural's images,
    /// hides murals no longer enabled and records the success.
    func apply(_ murals: [Mural], fetchedAt: Date, wasIncremental: Bool) async throws -> MuralsSyncSummary
    /// Records a failed sync (the murals stay as they were).
    func recordSyncFailure(_ message: String, at: Date) async throws
}

/// How up to date the saved murals are.
public struct MuralsSyncState: Sendable, Equatable {
    /// When a sync last succeeded; nil before the first.
    public let lastSuccess: Date?
    /// When a sync was last tried, successful or not.
    public let lastAttempt: Date?
    /// Why the last attempt failed; nil when it succeeded.
    public let lastError: String?
    /// How many murals are shown.
    public let muralCount: Int

    /// Creates a sync state.
    public init(lastSuccess: Date?, lastAttempt: Date?, lastError: String?, muralCount: Int) {
        self.lastSuccess = lastSuccess
        self.lastAttempt = lastAttempt
        self.lastError = lastError
        self.muralCount = muralCount
    }
}

/// What one sync changed.
public struct MuralsSyncSummary: Sendable, Equatable {
    /// Usable records in the response (after duplicates were merged).
    public let received: Int
    /// Murals not seen before.
    public let inserted: Int
    /// Known murals whose details changed.
    public let updated: Int
    /// Shown murals that the response disabled.
    public let hidden: Int
    /// Records that could not be used.
    public let skipped: Int
    /// Whether only changes since the last sync were asked for.
    public let wasIncremental: Bool

    /// Creates a summary.
    public init(received: Int, inserted: Int, updated: Int, hidden: Int, skipped: Int, wasIncremental: Bool) {
        self.received = received
        self.inserted = inserted
        self.updated = updated
        self.hidden = hidden
        self.skipped = skipped
        self.wasIncremental = wasIncremental
    }

    /// The same summary with `skipped` set (the store never sees skipped records).
    public func with(skipped: Int) -> MuralsSyncSummary {
        MuralsSyncSummary(received: received, inserted: inserted, updated: updated, hidden: hidden, skipped: skipped, wasIncremental: wasIncremental)
    }
}
