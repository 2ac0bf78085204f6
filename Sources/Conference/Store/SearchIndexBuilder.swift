import Foundation
import GRDB
import PocketCore

/// Fills Pocket's search index (and the digest, `CoreDigest`) from a sci-core file inside SQLite:
/// the file is attached, read-only, to the state database's connection, and one `INSERT … SELECT`
/// reads every talk.
///
/// The index is built after every install (and the digest's talk order during it), so neither may
/// cost memory that grows with the database, nor time per row in Swift: the text is tidied in SQL (`trim` with the same white
/// space `WhiteSpace.trimmed` removes, as `DisplayText.clean` does), and only values holding an `&`
/// call back into Swift to have their HTML entities decoded.
enum SearchIndexBuilder {
    /// A sci-core file attached to a connection, with the query that reads the index's rows from it.
    struct AttachedCore {
        /// The schema name the file is attached under.
        let name: String
        /// The file's detected tables and columns.
        let schema: CoreSchema

        /// `SELECT title, speaker, conference, date, talkID`: one row per talk, text as `Row.display`
        /// would show it, the speaker as `Row.personName` joins it, IDs read as leniently as `Row.integer`.
        var selectSearchRows: String {
            let date = schema.has("talk", "Date") ? "t.Date" : "NULL"
            return """
                SELECT title, speaker, conference, date, talkID FROM (
                    SELECT \(clean("t.Title")) AS title,
                           \(personName(given: "sp.GivenNames", last: "sp.LastNames")) AS speaker,
                           nullif(\(clean("c.Abbr")), '') AS conference,
                           nullif(\(clean(date)), '') AS date,
                           \(integer("t.ID")) AS talkID
                    FROM \(name).talk t
                    LEFT JOIN \(name).speaker sp ON sp.ID = t.SpeakerID
                    LEFT JOIN \(name).conference_talk ct ON ct.TalkID = t.ID
                    LEFT JOIN \(name).conf_session s ON s.ID = ct.SessionID
                    LEFT JOIN \(name).conference c ON c.ID = s.ConferenceID
                )
                WHERE talkID IS NOT NULL
                GROUP BY talkID
                ORDER BY talkID
                """
        }

        /// The SQL for `DisplayText.clean(expression ?? "")`, which is what `Row.display` shows.
        func clean(_ expression: String) -> String {
            """
            trim(CASE WHEN instr(\(expression), '&') > 0 THEN coalesce(pocket_decode_entities(\(expression)), '') \
            ELSE coalesce(\(expression), '') END, \(SearchIndexBuilder.whitespace))
            """
        }

        /// The SQL for `Row.personName(given:last:)`: both names tidied, joined by a space when both are there.
        func personName(given: String, last: String) -> String {
            "trim(\(clean(given)) || ' ' || \(clean(last)), \(SearchIndexBuilder.whitespace))"
        }

        /// The SQL for `Row.integer`: integers as they are, anything else read leniently.
        func integer(_ expression: String) -> String {
            "CASE typeof(\(expression)) WHEN 'integer' THEN \(expression) ELSE pocket_integer(\(expression)) END"
        }
    }

    /// Attaches the sci-core `file` (with its detected `schema`) to `db`, outside any transaction as
    /// SQLite requires, for the length of `body`, with the functions its query calls.
    static func attaching<T>(_ file: URL, schema: CoreSchema, to db: Database, _ body: (AttachedCore) throws -> T) throws -> T {
        db.add(function: decodeEntities)
        db.add(function: lenientInteger)
        try db.execute(sql: "ATTACH DATABASE ? AS \(schemaName)", arguments: [try location(of: file, in: db)])
        defer { try? db.execute(sql: "DETACH DATABASE \(schemaName)") }
        // One pass over talks and their joins: a small cache keeps the install's peak memory down.
        try db.execute(sql: "PRAGMA \(schemaName).cache_size = -512")
        return try body(AttachedCore(name: schemaName, schema: schema))
    }
}

// MARK: - Private

private extension SearchIndexBuilder {
    static let schemaName = "sci_core"

    /// Every character `WhiteSpace.trimmed` removes (all below U+3001), as an SQL `char(…)` call for `trim`.
    static let whitespace: String = {
        let codes = (0...0x3000).filter { Unicode.Scalar($0).map(WhiteSpace.isSpace) ?? false }
        return "char(" + codes.map(String.init).joined(separator: ",") + ")"
    }()

    static let decodeEntities = DatabaseFunction("pocket_decode_entities", argumentCount: 1, pure: true) { values in
        values.first.flatMap { String.fromDatabaseValue($0) }.map { HTMLEntities.decode($0) }
    }

    static let lenientInteger = DatabaseFunction("pocket_integer", argumentCount: 1, pure: true) { values in
        values.first.flatMap(\.lenientInteger)
    }

    /// A read-only `file:` URI for `file` where this SQLite reads URIs (Debian's and Apple's do);
    /// else the plain path, which is only ever read from.
    static func location(of file: URL, in db: Database) throws -> String {
        let readsURIs = try Bool.fetchOne(db, sql: "SELECT sqlite_compileoption_used('USE_URI')") ?? false
        guard readsURIs, let path = file.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else { return file.path }
        return "file:\(path)?mode=ro"
    }
}
