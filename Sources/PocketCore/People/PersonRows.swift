import GRDB

/// A person's rows in one app database: every table with a `personID` column holds rows that
/// belong to one person (Pocket's convention for per-person data).
///
/// Tables are read from the schema, not listed, so a table an app adds later is covered the day
/// it is added; a test checks every app database this way after a removal.
public enum PersonRows {
    /// Deletes every row of `person` from each table of `db` with a `personID` column, inside the
    /// caller's transaction; returns how many rows went.
    @discardableResult
    public static func delete(_ person: PersonID, _ db: Database) throws -> Int {
        var deleted = 0
        for table in try tables(db) {
            try db.execute(sql: "DELETE FROM \(table.quotedDatabaseIdentifier) WHERE personID = ?", arguments: [person.rawValue])
            deleted += db.changesCount
        }
        return deleted
    }

    /// How many rows `person` has in `db`, over every table with a `personID` column.
    public static func count(_ person: PersonID, _ db: Database) throws -> Int {
        try tables(db).reduce(0) { total, table in
            total + (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier) WHERE personID = ?",
                                      arguments: [person.rawValue]) ?? 0)
        }
    }

    /// The tables of `db` with a `personID` column, by name.
    public static func tables(_ db: Database) throws -> [String] {
        let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        return try names.filter { name in try db.columns(in: name).contains { $0.name == "personID" } }
    }
}
