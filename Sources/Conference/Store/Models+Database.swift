import GRDB

// Row decoding lives here so the model types never import the database.

extension ConferenceSummary {
    /// A conference from `ID, Abbr, Description, Year, IssueDate, Publication, talkCount`; nil without an id.
    init?(row: Row) {
        guard let id = row.integer("ID") else { return nil }
        self.init(
            id: id,
            abbr: row.display("Abbr"),
            description: row.display("Description"),
            year: row.integer("Year"),
            issueDate: row.optionalDisplay("IssueDate"),
            publication: row.optionalDisplay("Publication"),
            talkCount: row.integer("talkCount") ?? 0
        )
    }
}

extension TalkSummary {
    /// A talk row from `Title, joinedSpeakerID, GivenNames, LastNames, StartPageNum, EndPageNum` and
    /// the id in column `id`; nil without an id. `joinedSpeakerID` is the joined speaker's id (not
    /// `talk.SpeakerID`: GRDB matches column names case-insensitively), so a dangling
    /// `talk.SpeakerID` gives no speaker link.
    init?(row: Row, id column: String) {
        guard let id = row.integer(column) else { return nil }
        self.init(
            id: id,
            title: row.display("Title"),
            speaker: row.personName(given: "GivenNames", last: "LastNames"),
            speakerID: row.integer("joinedSpeakerID"),
            pages: row.integer("StartPageNum").map { PageRange(start: $0, end: row.integer("EndPageNum")) }
        )
    }
}

extension BookReference {
    /// A book from `ID, FullName, CiteAbbr, NumChapters`; nil without an id.
    init?(row: Row) {
        guard let id = row.integer("ID") else { return nil }
        let name = row.display("FullName")
        self.init(id: id, name: name, citeAbbr: row.optionalDisplay("CiteAbbr") ?? name, chapterCount: row.integer("NumChapters") ?? 0)
    }
}
