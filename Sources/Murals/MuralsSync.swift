import Foundation

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
