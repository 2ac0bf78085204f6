import GRDB

/// Tells, cheaply and without leaving the calling thread, whether anything has been committed to
/// an SQLite file since last asked: SQLite's `PRAGMA data_version`, read on a connection of the
/// watch's own that never writes, moves with every commit by any other connection, this
/// process's or another's (the command line beside the server).
///
/// Why: a value read from the database can then be kept in memory and used for as long as the
/// version it was read at is still current, instead of a round trip to a reader for each request.
public final class CommitWatch: Sendable {
    private let connection: DatabaseQueue

    /// Opens the watching connection on the database file at `path`, which must exist.
    public init(path: String, label: String) throws {
        var configuration = DatabaseFactory.configuration(label: label)
        configuration.readonly = true
        connection = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// The current version. Read it before reading a value to keep; the value is current for as
    /// long as the version still is (a commit racing the read only makes it look stale sooner).
    public func version() throws -> Int {
        try connection.inDatabase { db in
            try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
        }
    }
}
