import PocketCore

/// Each person's game and trip list, asked for by every Plates screen, kept in memory until the
/// next commit to the plates file.
///
/// Why: they change only with a tap, while the list of fifty states is drawn on every visit;
/// kept, the list needs no round trip to a database reader. Any commit (a spot from another
/// phone, a new trip) moves the watch's version and drops them all. Without a watch (a game in
/// memory) nothing is kept.
struct PlatesMemo: Sendable {
    let snapshots: CommitCache<PersonID, GameSnapshot>
    let trips: CommitCache<PersonID, [TripSummary]>

    /// Beyond this many people's games all are forgotten and read again as asked.
    static let peopleKept = 256

    init(watch: CommitWatch?) {
        snapshots = CommitCache(watch: watch, capacity: Self.peopleKept)
        trips = CommitCache(watch: watch, capacity: Self.peopleKept)
    }
}
