import GRDB

// Speakers A–Z, a speaker's talks, and the rows the search index is built from.

extension CoreQueries {
    static func speakers(_ db: Database, schema: CoreSchema) throws -> [SpeakerSection] {
        let sql = """
            SELECT sp.ID, sp.GivenNames, sp.LastNames, \(schema.column("speaker", "Info", as: "sp")) AS Info,
                   COUNT(DISTINCT t.ID) AS talkCount
            FROM speaker sp JOIN talk t ON t.SpeakerID = sp.ID
            GROUP BY sp.ID
            """
        let speakers = try Row.fetchAll(cached: db, sql: sql).compactMap { row -> (summary: SpeakerSummary, key: String)? in
            guard let id = row.integer("ID") else { return nil }
            let summary = SpeakerSummary(
                id: id,
                name: row.personName(given: "GivenNames", last: "LastNames"),
                info: row.optionalDisplay("Info"),
                talkCount: row.integer("talkCount") ?? 0
            )
            let key = TextFolding.sortKey(row.display("LastNames")) + "\u{1}" + TextFolding.sortKey(row.display("GivenNames"))
            return (summary, key)
        }
        .sorted { ($0.key, $0.summary.id) < ($1.key, $1.summary.id) }

        var sections: [SpeakerSection] = []
        for (summary, key) in speakers {
            let letter = TextFolding.indexLetter(key)
            if let last = sections.last, last.letter == letter {
                sections[sections.count - 1] = SpeakerSection(letter: letter, speakers: last.speakers + [summary])
            } else {
                sections.append(SpeakerSection(letter: letter, speakers: [summary]))
            }
        }
        // "#" (names that do not start with a letter) goes last, as in an iOS index.
        return sections.filter { $0.letter != "#" } + sections.filter { $0.letter == "#" }
    }

    static func speaker(_ db: Database, schema: CoreSchema, id: Int) throws -> SpeakerDetail {
        let sql = """
            SELECT ID, GivenNames, LastNames, \(schema.column("speaker", "Info", as: "speaker")) AS Info
            FROM speaker WHERE ID = ? LIMIT 1
            """
        guard let row = try Row.fetchOne(cached: db, sql: sql, arguments: [id]) else { throw ConferenceError.unknownSpeaker(id) }
        let talksSQL = """
            SELECT t.ID, t.Title, \(schema.column("talk", "Date", as: "t")) AS talkDate, c.Abbr AS conferenceAbbr
            FROM talk t
            LEFT JOIN conference_talk ct ON ct.TalkID = t.ID
            LEFT JOIN conf_session s ON s.ID = ct.SessionID
            LEFT JOIN conference c ON c.ID = s.ConferenceID
            WHERE t.SpeakerID = ?
            ORDER BY COALESCE(c.IssueDate, talkDate) DESC, talkDate DESC, t.ID DESC
            """
        var seen: Set<Int> = []
        let talks = try Row.fetchAll(cached: db, sql: talksSQL, arguments: [id]).compactMap { row -> SpeakerTalk? in
            guard let talkID = row.integer("ID"), seen.insert(talkID).inserted else { return nil }
            return SpeakerTalk(id: talkID, title: row.display("Title"), conference: row.optionalDisplay("conferenceAbbr"), date: row.optionalDisplay("talkDate"))
        }
        let summary = SpeakerSummary(id: id, name: row.personName(given: "GivenNames", last: "LastNames"),
                                     info: row.optionalDisplay("Info"), talkCount: talks.count)
        return SpeakerDetail(speaker: summary, talks: talks)
    }

    /// Talk rows for a list of ids, in the order given; ids the database lacks are left out.
    static func talkSummaries(_ db: Database, schema: CoreSchema, ids: [Int]) throws -> [TalkSummary] {
        let byID = try talkSummaries(db, schema: schema, keys: ids.map(\.databaseValue))
        return ids.compactMap { byID[$0] }
    }

    /// Talk rows by `talk.ID` as stored, keyed by the id the screens read (the first row of each).
    static func talkSummaries(_ db: Database, schema: CoreSchema, keys: [DatabaseValue]) throws -> [Int: TalkSummary] {
        guard !keys.isEmpty else { return [:] }
        // The list is padded with NULLs (which match nothing) to a power of two, so a connection
        // keeps at most a handful of these statements prepared instead of preparing one per call.
        let slots = keys.count <= 128 ? 1 << (Int.bitWidth - (keys.count - 1).leadingZeroBitCount) : keys.count
        let padded = keys + Array(repeating: DatabaseValue.null, count: slots - keys.count)
        let placeholders = Array(repeating: "?", count: slots).joined(separator: ", ")
        let sql = """
            SELECT t.ID, t.Title, sp.ID AS joinedSpeakerID, sp.GivenNames, sp.LastNames,
                   \(schema.column("conference_talk", "StartPageNum", as: "ct")) AS StartPageNum,
                   \(schema.column("conference_talk", "EndPageNum", as: "ct")) AS EndPageNum
            FROM talk t
            LEFT JOIN speaker sp ON sp.ID = t.SpeakerID
            LEFT JOIN conference_talk ct ON ct.TalkID = t.ID
            WHERE t.ID IN (\(placeholders))
            """
        var byID: [Int: TalkSummary] = [:]
        let rows = keys.count > 128
            ? try Row.fetchAll(db, sql: sql, arguments: StatementArguments(padded))
            : try Row.fetchAll(cached: db, sql: sql, arguments: StatementArguments(padded))
        for row in rows {
            if let talk = TalkSummary(row: row, id: "ID"), byID[talk.id] == nil { byID[talk.id] = talk }
        }
        return byID
    }
}
