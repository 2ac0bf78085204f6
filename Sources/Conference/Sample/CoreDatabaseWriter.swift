import Foundation
import GRDB

/// The rows of a sci-core database, as the index's build scripts lay them out.
struct CoreRows: Sendable {
    struct Conference: Sendable, Equatable {
        var id: Int, description: String, abbr: String, year: Int, annual: String, issueDate: String
    }
    struct Session: Sendable, Equatable {
        var id: Int, description: String, abbr: String, date: String, sequence: Int, conferenceID: Int
    }
    struct Talk: Sendable, Equatable {
        var id: Int, corpus: String, url: String, title: String, date: String, speakerID: Int
    }
    struct ConferenceTalk: Sendable, Equatable {
        var talkID: Int, sessionID: Int, startPage: Int?, endPage: Int?, sequence: Int
    }
    struct Speaker: Sendable, Equatable {
        var id: Int, givenNames: String, lastNames: String, abbr: String, info: String?, nameSort: String
    }
    struct Book: Sendable, Equatable {
        var id: Int, abbr: String, citeAbbr: String, fullName: String, numChapters: Int, urlPath: String
        var parentBookID: Int?, webTitle: String?, jstTitle: String?, tocName: String?, subdiv: String?
        var backName: String?, gridName: String?, citeFull: String?, citationCount: Int
    }
    struct Citation: Sendable, Equatable {
        var id: Int, talkID: Int, bookID: Int, chapter: Int, verses: String?, flag: String?
        var minVerse: Int, maxVerse: Int, page: Int?, volume: Int?
    }
    struct CitationVerse: Sendable, Equatable {
        var citationID: Int, verse: Int
    }

    var lastUpdated: String
    var conferences: [Conference] = []
    var sessions: [Session] = []
    var talks: [Talk] = []
    var conferenceTalks: [ConferenceTalk] = []
    var speakers: [Speaker] = []
    var books: [Book] = []
    var citations: [Citation] = []
    var citationVerses: [CitationVerse] = []
}

/// Writes `CoreRows` as a new SQLite file with the real sci-core schema (the newer era, with
/// `AudioUrl` … `VideoHighUrl`). Same rows in, same bytes out: one connection, no WAL, rows in
/// a fixed order, then `VACUUM`.
enum CoreDatabaseWriter {
    /// The tables, as the index's build scripts create them.
    static let schema = """
        CREATE TABLE updated (last_updated text);
        CREATE TABLE conference (ID int primary key, Description text, Abbr text, Year int, Annual text, IssueDate text);
        CREATE TABLE conf_session (ID int primary key, Description text, Abbr text, Date text, Sequence int, ConferenceID int);
        CREATE TABLE talk (ID int primary key, Corpus text, URL text, Title text, Date text, SpeakerID int,
                           AudioUrl text, VideoLowUrl text, VideoMedUrl text, VideoHighUrl text);
        CREATE TABLE conference_talk (TalkID int primary key, SessionID int, StartPageNum int, EndPageNum int, Sequence int);
        CREATE TABLE speaker (ID int, GivenNames text, LastNames text, Abbr text, Info text, NameSort text);
        CREATE TABLE citation (ID int primary key, TalkID int, BookID int, Chapter int, Verses text, Flag text,
                               MinVerse int, MaxVerse int, Page int, Volume int, ColumnAB text);
        CREATE TABLE citation_verse (CitationID int, Verse int);
        CREATE TABLE book (ID int primary key, Abbr text, CiteAbbr text, FullName text, NumChapters int, URLPath text,
                           ParentBookID int, WebTitle text, JSTTitle text, TOCName text, Subdiv text, BackName text,
                           GridName text, CiteFull text, CitationCount int, JSTNote TEXT);
        """

    /// The indexes the build scripts create. `book.Abbr` is not unique here: books.json gives
    /// "introduction" to both the Book of Mormon's and the D&C's introductions.
    static let indexes = """
        CREATE UNIQUE INDEX sessionorder_ix ON conf_session (ConferenceID, Sequence);
        CREATE INDEX speakerid_ix ON talk (SpeakerID);
        CREATE INDEX reference_ix ON citation (BookID, Chapter);
        CREATE INDEX bookid_ix ON citation (BookID);
        CREATE INDEX cchapter_ix ON citation (Chapter);
        CREATE INDEX talkid_ix ON citation (TalkID);
        CREATE INDEX citation_verse_ix ON citation_verse (CitationID, Verse);
        CREATE INDEX lastnames ON speaker (LastNames);
        CREATE INDEX givennames ON speaker (LastNames, GivenNames);
        CREATE INDEX abbr ON speaker (Abbr);
        CREATE INDEX abbr_ix ON book (Abbr);
        CREATE INDEX parent_ix ON book (ParentBookID);
        """

    /// Writes a new database at `url` (replacing any file there).
    static func write(_ rows: CoreRows, to url: URL) throws {
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
        var configuration = Configuration()
        configuration.label = "conference-writer"
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        try queue.inDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
            try db.inTransaction {
                try db.execute(sql: schema)
                try insertAll(rows, db)
                try db.execute(sql: indexes)
                return .commit
            }
            try db.execute(sql: "VACUUM")
        }
        try queue.close()
    }

    private static func insertAll(_ rows: CoreRows, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO updated VALUES (?)", arguments: [rows.lastUpdated])
        let conference = try db.makeStatement(sql: "INSERT INTO conference VALUES (?, ?, ?, ?, ?, ?)")
        for row in rows.conferences {
            try conference.execute(arguments: [row.id, row.description, row.abbr, row.year, row.annual, row.issueDate])
        }
        let session = try db.makeStatement(sql: "INSERT INTO conf_session VALUES (?, ?, ?, ?, ?, ?)")
        for row in rows.sessions {
            try session.execute(arguments: [row.id, row.description, row.abbr, row.date, row.sequence, row.conferenceID])
        }
        let talk = try db.makeStatement(sql: "INSERT INTO talk VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, NULL, NULL)")
        for row in rows.talks {
            try talk.execute(arguments: [row.id, row.corpus, row.url, row.title, row.date, row.speakerID])
        }
        let conferenceTalk = try db.makeStatement(sql: "INSERT INTO conference_talk VALUES (?, ?, ?, ?, ?)")
        for row in rows.conferenceTalks {
            try conferenceTalk.execute(arguments: [row.talkID, row.sessionID, row.startPage, row.endPage, row.sequence])
        }
        let speaker = try db.makeStatement(sql: "INSERT INTO speaker VALUES (?, ?, ?, ?, ?, ?)")
        for row in rows.speakers {
            try speaker.execute(arguments: [row.id, row.givenNames, row.lastNames, row.abbr, row.info, row.nameSort])
        }
        let book = try db.makeStatement(sql: "INSERT INTO book VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)")
        for row in rows.books {
            try book.execute(arguments: [row.id, row.abbr, row.citeAbbr, row.fullName, row.numChapters, row.urlPath, row.parentBookID,
                                         row.webTitle, row.jstTitle, row.tocName, row.subdiv, row.backName, row.gridName, row.citeFull,
                                         row.citationCount])
        }
        let citation = try db.makeStatement(sql: "INSERT INTO citation VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)")
        for row in rows.citations {
            try citation.execute(arguments: [row.id, row.talkID, row.bookID, row.chapter, row.verses, row.flag,
                                             row.minVerse, row.maxVerse, row.page, row.volume])
        }
        let verse = try db.makeStatement(sql: "INSERT INTO citation_verse VALUES (?, ?)")
        for row in rows.citationVerses {
            try verse.execute(arguments: [row.citationID, row.verse])
        }
    }
}
