import Foundation
import GRDB

extension ChangeTime {
    /// Brings back to `now` every time in `columns` of `table` that the rule refuses as ahead of
    /// `now` (`latest(now:)`), inside a store's migration.
    ///
    /// Why: before the rule applied everywhere (the outbox, then imports), a phone or a crafted
    /// file could store a time years ahead, and such a time wins against everything the person
    /// does afterwards (an un-star "superseded", a converter that stops applying). Brought back to
    /// the moment of the repair, it stays later than what came before it and earlier than anything
    /// the person does next. `columns` hold whole milliseconds since 1970.
    public static func repairTimesAhead(_ db: Database, table: String, columns: [String], now: Date) throws {
        for column in columns {
            try db.execute(
                sql: "UPDATE \(table.quotedDatabaseIdentifier) SET \(column.quotedDatabaseIdentifier) = ? WHERE \(column.quotedDatabaseIdentifier) > ?",
                arguments: [milliseconds(now), latest(now: now)])
        }
    }

    /// `repairTimesAhead` for columns holding GRDB dates (text), where a time too far ahead for
    /// SQLite's calendar (the year 10000) reads as no day at all: it is brought back to `now` too.
    public static func repairDatesAhead(_ db: Database, table: String, columns: [String], now: Date) throws {
        for column in columns {
            let name = column.quotedDatabaseIdentifier
            // julianday, not unixepoch: the system's SQLite may predate unixepoch's 'subsec'.
            try db.execute(
                sql: """
                    UPDATE \(table.quotedDatabaseIdentifier) SET \(name) = ?
                    WHERE typeof(\(name)) = 'text' AND (julianday(\(name)) IS NULL OR (julianday(\(name)) - 2440587.5) * 86400000.0 > ?)
                    """,
                arguments: [now, latest(now: now)])
        }
    }
}
