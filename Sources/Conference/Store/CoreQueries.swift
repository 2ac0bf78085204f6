import Foundation
import GRDB

/// The read-only queries on a sci-core database, one per screen. Each takes the detected schema,
/// so optional columns read as NULL and both schema eras give the same models.
enum CoreQueries {
    // MARK: Conferences

    static func conferences(_ db: Database, schema: CoreSchema) throws -> [ConferenceSummary] {
        let sql = """
            SELECT c.ID, c.Abbr, c.Description, \(schema.column("conference", "Year", as: "c")) AS Year,
                   c.IssueDate, \(schema.column("conference", "Publication", as: "c")) AS Publication,
                   COALESCE(k.talkCount, 0) AS talkCount
            FROM conference c
            LEFT JOIN (SELECT s.ConferenceID AS conferenceID, COUNT(*) AS talkCount
                       FROM conf_session s JOIN conference_talk ct ON ct.SessionID = s.ID
                       GROUP BY s.ConferenceID) k ON k.conferenceID = c.ID
            ORDER BY c.IssueDate DESC, c.ID DESC
            """
        var seen: Set<Int> = []
        return try Row.fetchAll(cached: db, sql: sql).compactMap { row in
            guard let summary = ConferenceSummary(row: row), seen.insert(summary.id).inserted else { return nil }
            return summary
        }
    }

    static func footer(_ db: Database, schema: CoreSchema, source: DatabaseSource) throws -> DatabaseFooter {
        var lastUpdated: String?
        if schema.capabilities.lastUpdated {
            lastUpdated = try Row.fetchOne(cached: db, sql: "SELECT last_updated FROM updated LIMIT 1")?.optionalDisplay("last_updated")
        }
        switch source {
        case .sample: return DatabaseFooter(isSample: true, version: nil, lastUpdated: lastUpdated)
        case .installed(let record):
            return DatabaseFooter(isSample: false, version: record.version, lastUpdated: lastUpdated,
                                  importedFile: record.origin == .import ? record.contentName : nil)
        }
    }

    static func conference(_ db: Database, schema: CoreSchema, id: Int) throws -> ConferenceDetail {
        let sql = """
            SELECT c.ID, c.Abbr, c.Description, \(schema.column("conference", "Year", as: "c")) AS Year,
                   c.IssueDate, \(schema.column("conference", "Publication", as: "c")) AS Publication,
                   (SELECT COUNT(*) FROM conference_talk
                    WHERE SessionID IN (SELECT ID FROM conf_session WHERE ConferenceID = :id)) AS talkCount
            FROM conference c WHERE c.ID = :id LIMIT 1
            """
        // `:id`, not `c.ID`, in the count: a correlated list would be re-read for every talk row.
        guard let row = try Row.fetchOne(cached: db, sql: sql, arguments: ["id": id]), let conference = ConferenceSummary(row: row) else {
            throw ConferenceError.unknownConference(id)
        }
        return ConferenceDetail(conference: conference, sessions: try sessions(db, schema: schema, conferenceID: id))
    }

    /// A conference's sessions with their talks, in session then talk order; empty sessions are left out.
    ///
    /// sci-core has no index on `conference_talk(SessionID)`, and joined directly SQLite scans every
    /// talk once per session. So this conference's rows of `conference_talk` are picked out first, in
    /// one pass, and the join runs on that short list.
    static func sessions(_ db: Database, schema: CoreSchema, conferenceID: Int) throws -> [SessionSection] {
        let sql = """
            WITH ct AS MATERIALIZED (
                SELECT * FROM conference_talk
                WHERE SessionID IN (SELECT ID FROM conf_session WHERE ConferenceID = :conference)
            )
            SELECT s.ID AS sessionID, s.Description AS sessionDescription,
                   \(schema.column("conf_session", "Date", as: "s")) AS sessionDate, s.Sequence AS sessionSequence,
                   t.ID AS talkID, t.Title, sp.ID AS joinedSpeakerID, sp.GivenNames, sp.LastNames,
                   \(schema.column("conference_talk", "StartPageNum", as: "ct")) AS StartPageNum,
                   \(schema.column("conference_talk", "EndPageNum", as: "ct")) AS EndPageNum
            FROM conf_session s
            JOIN ct ON ct.SessionID = s.ID
            JOIN talk t ON t.ID = ct.TalkID
            LEFT JOIN speaker sp ON sp.ID = t.SpeakerID
            WHERE s.ConferenceID = :conference
            ORDER BY s.Sequence, s.ID, ct.Sequence, t.ID
            """
        var sections: [SessionSection] = []
        var talks: [TalkSummary] = []
        var current: Row?
        var seenTalks: Set<Int> = []
        func close() {
            if let current, let id = current.integer("sessionID"), !talks.isEmpty {
                sections.append(SessionSection(
                    id: id,
                    description: current.display("sessionDescription"),
                    date: current.optionalDisplay("sessionDate"),
                    sequence: current.integer("sessionSequence") ?? 0,
                    talks: talks
                ))
            }
            talks = []
        }
        for row in try Row.fetchAll(cached: db, sql: sql, arguments: ["conference": conferenceID]) {
            if current?.integer("sessionID") != row.integer("sessionID") {
                close()
                current = row
            }
            // A speaker id listed twice in `speaker` (the table has no key) must not list the talk twice.
            guard let talk = TalkSummary(row: row, id: "talkID"), seenTalks.insert(talk.id).inserted else { continue }
            talks.append(talk)
        }
        close()
        return sections
    }

    /// A conference's screen from its digest (`CoreDigest.ConferenceOrder`): the talks in the
    /// order it keeps, read by primary key, grouped under the conference's sessions (read through
    /// the file's index on `ConferenceID`) as `sessions` groups them.
    static func conference(_ db: Database, schema: CoreSchema, order: CoreDigest.ConferenceOrder) throws -> ConferenceDetail {
        var sessions: [Int: Row] = [:]
        let sql = """
            SELECT s.ID, s.Description, \(schema.column("conf_session", "Date", as: "s")) AS sessionDate, s.Sequence
            FROM conf_session s WHERE s.ConferenceID = ?
            """
        for row in try Row.fetchAll(cached: db, sql: sql, arguments: [order.conference.id]) {
            if let id = row.integer("ID"), sessions[id] == nil { sessions[id] = row }
        }
        let talks = try talkSummaries(db, schema: schema, keys: order.talks.map(\.talkKey))
        var sections: [SessionSection] = []
        var session: Int?
        var list: [TalkSummary] = []
        func close() {
            if let session, let row = sessions[session], !list.isEmpty {
                sections.append(SessionSection(id: session, description: row.display("Description"), date: row.optionalDisplay("sessionDate"),
                                               sequence: row.integer("Sequence") ?? 0, talks: list))
            }
            list = []
        }
        for place in order.talks {
            if place.sessionID != session {
                close()
                session = place.sessionID
            }
            if let talk = talks[place.talkID] { list.append(talk) }
        }
        close()
        return ConferenceDetail(conference: order.conference, sessions: sections)
    }

    // MARK: Talk

    /// A talk's screen; with `neighbours` false its previous and next talks are left for the caller
    /// (who reads them from the digest instead of listing the whole conference).
    static func talk(_ db: Database, schema: CoreSchema, id: Int, neighbours: Bool = true) throws -> TalkDetail {
        let media = schema.mediaColumns.map { "t.\($0.column) AS media_\($0.column)" }.joined(separator: ", ")
        let sql = """
            SELECT t.ID, t.Title, sp.ID AS joinedSpeakerID, sp.GivenNames, sp.LastNames,
                   \(schema.column("talk", "Date", as: "t")) AS talkDate,
                   \(schema.column("talk", "Corpus", as: "t")) AS Corpus,
                   \(schema.column("talk", "URL", as: "t")) AS URL
                   \(media.isEmpty ? "" : ", " + media),
                   \(schema.column("conference_talk", "StartPageNum", as: "ct")) AS StartPageNum,
                   \(schema.column("conference_talk", "EndPageNum", as: "ct")) AS EndPageNum,
                   s.ID AS sessionID, s.Description AS sessionDescription,
                   \(schema.column("conf_session", "Date", as: "s")) AS sessionDate,
                   c.ID AS conferenceID, c.Abbr AS conferenceAbbr, c.Description AS conferenceDescription
            FROM talk t
            LEFT JOIN speaker sp ON sp.ID = t.SpeakerID
            LEFT JOIN conference_talk ct ON ct.TalkID = t.ID
            LEFT JOIN conf_session s ON s.ID = ct.SessionID
            LEFT JOIN conference c ON c.ID = s.ConferenceID
            WHERE t.ID = ?
            LIMIT 1
            """
        guard let row = try Row.fetchOne(cached: db, sql: sql, arguments: [id]), let summary = TalkSummary(row: row, id: "ID") else {
            throw ConferenceError.unknownTalk(id)
        }
        let conference = row.integer("conferenceID").map {
            ConferenceReference(id: $0, abbr: row.display("conferenceAbbr"), description: row.display("conferenceDescription"))
        }
        let session = row.integer("sessionID").map {
            SessionReference(id: $0, description: row.display("sessionDescription"), date: row.optionalDisplay("sessionDate"))
        }
        var previous: TalkSummary?
        var next: TalkSummary?
        if neighbours, let conference {
            let order = try sessions(db, schema: schema, conferenceID: conference.id).flatMap(\.talks)
            if let index = order.firstIndex(where: { $0.id == id }) {
                previous = index > order.startIndex ? order[index - 1] : nil
                next = index + 1 < order.endIndex ? order[index + 1] : nil
            }
        }
        return TalkDetail(
            id: summary.id,
            title: summary.title,
            speaker: summary.speaker,
            speakerID: summary.speakerID,
            conference: conference,
            session: session,
            date: row.optionalDisplay("talkDate"),
            corpus: row.optionalDisplay("Corpus"),
            pages: summary.pages,
            url: row.webURL("URL"),
            contentURL: TalkDetail.contentURL(talkID: summary.id),
            media: schema.mediaColumns.compactMap { kind, column in
                row.webURL("media_\(column)").map { MediaLink(kind: kind, url: $0) }
            },
            previous: previous,
            next: next,
            citations: try talkCitations(db, schema: schema, talkID: id)
        )
    }

    // MARK: Counts

    static func counts(_ db: Database, schema: CoreSchema) throws -> DatabaseCounts {
        func count(_ table: String) throws -> Int {
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
        }
        return DatabaseCounts(
            conferences: try count("conference"),
            sessions: try count("conf_session"),
            talks: try count("talk"),
            speakers: try count("speaker"),
            citations: schema.capabilities.citations ? try count("citation") : 0
        )
    }
}
