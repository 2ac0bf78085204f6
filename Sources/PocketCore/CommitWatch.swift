import GRDB
import Synchronization

/// Tells, cheaply and without leaving the calling thread, whether anything has been committed to
/// an SQLite file since last asked: SQLite's `PRAGMA data_version`, read on connections of the
/// watch's own that never write, moves with every commit by any other connection, this
/// process's or another's (the command line beside the server).
///
/// Why: a value read from the database can then be kept in memory and used for as long as the
/// version it was read at is still current, instead of a round trip to a reader for each request.
///
/// Every request asks (the sign-in check does), so one connection would make requests on
/// different threads queue for it: a thread waiting for another that the kernel has just paused
/// held the whole cooperative pool back, which showed as the slowest requests of a page under
/// load. So each call takes a connection no other call is using (opening one when all are busy,
/// which bounds them by the threads that ask at once). A connection's `data_version` only means
/// something to that connection, so the watch turns them into one number of its own: it moves
/// whenever any connection sees its `data_version` move (or is asked for the first time). A
/// commit then moves it once per connection, which at worst has a value read again needlessly.
public final class CommitWatch: Sendable {
    private struct Reader: Sendable {
        let connection: DatabaseQueue
        /// The `data_version` this connection read last; nil before its first read.
        var lastSeen: Int?
    }

    private let path: String
    private let configuration: Configuration
    private let idle: Mutex<[Reader]>
    private let current = Atomic<Int>(0)

    /// Opens the first watching connection on the database file at `path`, which must exist.
    public convenience init(path: String, label: String) throws {
        try self.init(path: path, label: label, connections: 1)
    }

    /// Opens `connections` watching connections at once (tests ask for several).
    init(path: String, label: String, connections: Int) throws {
        var configuration = DatabaseFactory.configuration(label: label)
        configuration.readonly = true
        self.path = path
        self.configuration = configuration
        idle = Mutex(try (0..<max(1, connections)).map { _ in Reader(connection: try DatabaseQueue(path: path, configuration: configuration)) })
    }

    /// The current version. Read it before reading a value to keep; the value is current for as
    /// long as the version still is (a commit racing the read only makes it look stale sooner).
    public func version() throws -> Int {
        // The connection idle longest: calls one after another take each in turn.
        var reader = try idle.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            ?? Reader(connection: DatabaseQueue(path: path, configuration: configuration))
        defer { idle.withLock { [reader] in $0.append(reader) } }
        let seen = try reader.connection.inDatabase { db in
            try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
        }
        guard seen != reader.lastSeen else { return current.load(ordering: .acquiring) }
        reader.lastSeen = seen
        return current.add(1, ordering: .acquiringAndReleasing).newValue
    }
}
