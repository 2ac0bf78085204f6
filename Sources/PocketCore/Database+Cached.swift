import GRDB

// Reads whose SQL is fixed for a connection (the screens ask the same questions again and again)
// use a statement the connection keeps prepared. Preparing one again for every request cost more
// than running it: SQLite's parser, plus GRDB's authorizer working out the tables it reads.
// Only for SQL that is the same on every call; SQL built around a varying number of values would
// fill the connection's statement cache.

extension Row {
    /// `fetchAll(db, sql:arguments:)` with the connection's prepared statement for `sql`.
    public static func fetchAll(cached db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Row] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// `fetchOne(db, sql:arguments:)` with the connection's prepared statement for `sql`.
    public static func fetchOne(cached db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Row? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension DatabaseValueConvertible {
    /// `fetchAll(db, sql:arguments:)` with the connection's prepared statement for `sql`.
    public static func fetchAll(cached db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// `fetchOne(db, sql:arguments:)` with the connection's prepared statement for `sql`.
    public static func fetchOne(cached db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension FetchableRecord {
    /// `fetchAll(db, sql:arguments:)` with the connection's prepared statement for `sql`.
    public static func fetchAll(cached db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }
}
