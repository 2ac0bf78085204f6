import PocketCore

/// The answers every Murals screen asks for on each request (the murals, the sync state, a
/// person's stars and visits), kept in memory until the next commit to the murals file.
///
/// Why: they change only with a sync, a star or a walk, while a list is asked for on every visit;
/// kept, a screen needs no round trip to a database reader at all. Any commit (this server's or
/// `pocket murals sync` beside it) moves the watch's version and drops them all. Without a
/// watch (a store in memory) nothing is kept.
struct MuralsMemo: Sendable {
    let murals: CommitCache<Int, [Mural]>
    let syncState: CommitCache<Int, MuralsSyncState>
    let favourites: CommitCache<PersonID, Set<Int>>
    let visited: CommitCache<PersonID, Set<Int>>

    /// Beyond this many people's stars (or visits) all are forgotten and read again as asked.
    static let peopleKept = 256

    init(watch: CommitWatch?) {
        murals = CommitCache(watch: watch, capacity: 1)
        syncState = CommitCache(watch: watch, capacity: 1)
        favourites = CommitCache(watch: watch, capacity: Self.peopleKept)
        visited = CommitCache(watch: watch, capacity: Self.peopleKept)
    }
}
