import GRDB

/// The tables and columns one sci-core database actually has, detected when it is opened, so the
/// same queries serve both schema eras and databases that lack optional tables.
struct CoreSchema: Sendable, Equatable {
    /// What screens may offer.
    let capabilities: DatabaseCapabilities
    /// Lowercased column names per lowercased table name.
    private let columns: [String: Set<String>]

    /// Tables and columns every query needs; a database without them is refused.
    static let required: [(table: String, columns: [String])] = [
        ("conference", ["ID", "Description", "Abbr", "IssueDate"]),
        ("conf_session", ["ID", "Description", "Sequence", "ConferenceID"]),
        ("conference_talk", ["TalkID", "SessionID", "Sequence"]),
        ("talk", ["ID", "Title", "SpeakerID"]),
        ("speaker", ["ID", "GivenNames", "LastNames"]),
    ]

    /// Reads the schema of `db`, throwing `missingTables` when a required table or column is absent.
    static func detect(_ db: Database) throws -> CoreSchema {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
        var columns: [String: Set<String>] = [:]
        for table in tables {
            let names = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table.quotedDatabaseIdentifier))")
                .compactMap { row -> String? in row["name"] }
            columns[table.lowercased()] = Set(names.map { $0.lowercased() })
        }
        var missing: [String] = []
        for (table, needed) in required {
            guard let present = columns[table] else { missing.append(table); continue }
            missing += needed.filter { !present.contains($0.lowercased()) }.map { "\(table).\($0)" }
        }
        if !missing.isEmpty { throw ConferenceError.missingTables(missing) }
        return CoreSchema(columns: columns)
    }

    private init(columns: [String: Set<String>]) {
        self.columns = columns
        let talk = columns["talk"] ?? []
        let media: MediaColumns
        if talk.contains("audiourl") || talk.contains("videohighurl") {
            media = .streams
        } else if talk.contains("listenurl") || talk.contains("watchurl") {
            media = .listenWatch
        } else {
            media = .none
        }
        let citation = columns["citation"] ?? []
        let book = columns["book"] ?? []
        let citations = ["id", "talkid", "bookid", "chapter"].allSatisfy(citation.contains)
            && ["id", "fullname", "parentbookid"].allSatisfy(book.contains)
        let verseIndex = citations && ["citationid", "verse"].allSatisfy((columns["citation_verse"] ?? []).contains)
        capabilities = DatabaseCapabilities(
            media: media,
            citations: citations,
            verseIndex: verseIndex,
            lastUpdated: (columns["updated"] ?? []).contains("last_updated"),
            publication: (columns["conference"] ?? []).contains("publication")
        )
    }

    /// Whether `table` has `column`.
    func has(_ table: String, _ column: String) -> Bool {
        columns[table.lowercased()]?.contains(column.lowercased()) ?? false
    }

    /// `alias.column` when the column exists, else `NULL`, so one query text fits every database.
    func column(_ table: String, _ column: String, as alias: String) -> String {
        has(table, column) ? "\(alias).\(column)" : "NULL"
    }

    /// The `talk` columns of each media kind, in the order a talk screen lists them.
    var mediaColumns: [(kind: MediaLink.Kind, column: String)] {
        switch capabilities.media {
        case .streams:
            return [(MediaLink.Kind.audio, "AudioUrl"), (.videoLow, "VideoLowUrl"), (.videoMedium, "VideoMedUrl"), (.videoHigh, "VideoHighUrl")]
                .filter { has("talk", $0.1) }
        case .listenWatch:
            return [(MediaLink.Kind.audio, "ListenURL"), (.video, "WatchURL")].filter { has("talk", $0.1) }
        case .none:
            return []
        }
    }
}
