import GRDB

// The citation index: volumes → books → chapters → verses → citing talks, and a talk's citations.
// Counts come from the `citation` rows themselves (book.CitationCount is absent in old databases).

extension CoreQueries {
    static func talkCitations(_ db: Database, schema: CoreSchema, talkID: Int) throws -> [TalkCitation] {
        guard schema.capabilities.citations else { return [] }
        let sql = """
            SELECT ci.ID, ci.BookID, ci.Chapter, \(schema.column("citation", "Verses", as: "ci")) AS Verses,
                   \(schema.column("citation", "Flag", as: "ci")) AS Flag, \(schema.column("citation", "Page", as: "ci")) AS Page,
                   b.FullName, \(schema.column("book", "CiteAbbr", as: "b")) AS CiteAbbr,
                   \(schema.column("book", "NumChapters", as: "b")) AS NumChapters
            FROM citation ci JOIN book b ON b.ID = ci.BookID
            WHERE ci.TalkID = ?
            ORDER BY ci.ID
            """
        var seen: Set<Int> = []
        return try Row.fetchAll(cached: db, sql: sql, arguments: [talkID]).compactMap { row in
            guard let id = row.integer("ID"), let bookID = row.integer("BookID"), seen.insert(id).inserted else { return nil }
            let chapter = row.integer("Chapter") ?? 0
            let verses = row.optionalDisplay("Verses")
            return TalkCitation(id: id, bookID: bookID, chapter: chapter, verses: verses,
                                reference: reference(row, chapter: chapter, verses: verses), page: row.integer("Page"))
        }
    }

    /// The volumes with their books; `counts` is a query of `BookID, citationCount` (the digest
    /// gives its own, the sums of its chapter counts, to spare a second pass over `citation`).
    static func volumes(_ db: Database, schema: CoreSchema,
                        counts: String = "SELECT BookID, COUNT(*) AS citationCount FROM citation GROUP BY BookID",
                        arguments: StatementArguments = []) throws -> [VolumeCitations] {
        guard schema.capabilities.citations else { throw ConferenceError.citationsUnavailable }
        let sql = """
            SELECT b.ID, b.FullName, \(schema.column("book", "CiteAbbr", as: "b")) AS CiteAbbr,
                   \(schema.column("book", "NumChapters", as: "b")) AS NumChapters, b.ParentBookID,
                   COALESCE(n.citationCount, 0) AS citationCount
            FROM book b
            LEFT JOIN (\(counts)) n ON n.BookID = b.ID
            ORDER BY b.ID
            """
        var volumes: [(book: BookReference, own: Int)] = []
        var books: [Int: [BookCount]] = [:]
        var seen: Set<Int> = []
        for row in try Row.fetchAll(cached: db, sql: sql, arguments: arguments) {
            guard let book = BookReference(row: row), seen.insert(book.id).inserted else { continue }
            let count = row.integer("citationCount") ?? 0
            if let parent = row.integer("ParentBookID"), parent != 0 {
                books[parent, default: []].append(BookCount(book: book, citationCount: count))
            } else {
                volumes.append((book, count))
            }
        }
        return volumes.map { volume, own in
            let children = books[volume.id] ?? []
            return VolumeCitations(volume: volume, citationCount: own + children.reduce(0) { $0 + $1.citationCount }, books: children)
        }
    }

    /// A book's screen; its chapters counted here, or given (from the digest).
    static func book(_ db: Database, schema: CoreSchema, id: Int, chapters given: [ChapterCount]? = nil) throws -> BookCitations {
        guard schema.capabilities.citations else { throw ConferenceError.citationsUnavailable }
        let book = try bookReference(db, schema: schema, id: id)
        let parentID = try Row.fetchOne(cached: db, sql: "SELECT ParentBookID FROM book WHERE ID = ? LIMIT 1", arguments: [id])?.integer("ParentBookID")
        let volume = try parentID.map { try bookReference(db, schema: schema, id: $0) }
        let chapters = try given ?? Row.fetchAll(cached: db, sql: """
            SELECT Chapter, COUNT(*) AS citationCount FROM citation WHERE BookID = ? GROUP BY Chapter ORDER BY Chapter
            """, arguments: [id]).map { row in
            ChapterCount(chapter: row.integer("Chapter") ?? 0, citationCount: row.integer("citationCount") ?? 0)
        }
        return BookCitations(volume: volume, book: book, chapters: chapters)
    }

    /// A chapter's verses with their counts: the chapter's citations whose book and talk exist,
    /// each once, by the verses it names (or as a citation of the whole chapter).
    ///
    /// Only the citations' ids and verses are read: the talks' titles, speakers and conferences
    /// that the verse screen shows are not needed to count.
    static func chapter(_ db: Database, schema: CoreSchema, bookID: Int, chapter: Int) throws -> ChapterCitations {
        guard schema.capabilities.citations else { throw ConferenceError.citationsUnavailable }
        let book = try bookReference(db, schema: schema, id: bookID)
        let sql = """
            SELECT ci.ID, t.ID AS talkID, \(verseSource(schema)) AS verseSource
            FROM citation ci
            JOIN book b ON b.ID = ci.BookID
            JOIN talk t ON t.ID = ci.TalkID
            WHERE ci.BookID = ? AND ci.Chapter = ?
            """
        var counts: [Int?: Int] = [:]
        var seen: Set<Int> = []
        for row in try Row.fetchAll(cached: db, sql: sql, arguments: [bookID, chapter]) {
            guard let id = row.integer("ID"), row.integer("talkID") != nil, seen.insert(id).inserted else { continue }
            let verses = CitationFormatter.verses(in: row.text("verseSource"))
            if verses.isEmpty {
                counts[nil, default: 0] += 1
            } else {
                for verse in verses { counts[verse, default: 0] += 1 }
            }
        }
        let verses = counts.map { VerseCount(verse: $0.key, citationCount: $0.value) }
            .sorted { ($0.verse ?? 0) < ($1.verse ?? 0) }
        return ChapterCitations(book: book, chapter: chapter, verses: verses)
    }

    static func verse(_ db: Database, schema: CoreSchema, bookID: Int, chapter: Int, verse: Int?) throws -> VerseCitations {
        guard schema.capabilities.citations else { throw ConferenceError.citationsUnavailable }
        let book = try bookReference(db, schema: schema, id: bookID)
        let talks = try chapterCitations(db, schema: schema, bookID: bookID, chapter: chapter, verse: verse)
            .filter { citation in
                guard let verse else { return citation.verses.isEmpty }
                return citation.verses.contains(verse)
            }
            .map(\.talk)
        return VerseCitations(book: book, chapter: chapter, verse: verse, talks: talks)
    }
}

// MARK: - Private

private extension CoreQueries {
    struct ChapterCitation {
        let verses: [Int]
        let talk: CitingTalk
    }

    static func bookReference(_ db: Database, schema: CoreSchema, id: Int) throws -> BookReference {
        let sql = """
            SELECT ID, FullName, \(schema.column("book", "CiteAbbr", as: "book")) AS CiteAbbr,
                   \(schema.column("book", "NumChapters", as: "book")) AS NumChapters
            FROM book WHERE ID = ? LIMIT 1
            """
        guard let row = try Row.fetchOne(cached: db, sql: sql, arguments: [id]), let book = BookReference(row: row) else {
            throw ConferenceError.unknownBook(id)
        }
        return book
    }

    /// The text a citation's verses are read from: its `citation_verse` rows when the database
    /// has them, else its `Verses`.
    static func verseSource(_ schema: CoreSchema) -> String {
        schema.capabilities.verseIndex
            ? "(SELECT group_concat(cv.Verse) FROM citation_verse cv WHERE cv.CitationID = ci.ID)"
            : schema.column("citation", "Verses", as: "ci")
    }

    /// Every citation of a chapter that may name `verse` (nil: the whole chapter), with its verses
    /// and its talk, newest conference first; the caller keeps those that do.
    ///
    /// With `citation_verse`, the citations that cannot match are left out before the talks,
    /// speakers and conferences are joined: a verse is cited by a few of a chapter's hundreds of
    /// citations. A row whose verse is not a plain number (a range written as text, say) is read
    /// by `CitationFormatter` like any other, so its citation is always kept for the caller.
    static func chapterCitations(_ db: Database, schema: CoreSchema, bookID: Int, chapter: Int, verse: Int?) throws -> [ChapterCitation] {
        let verseList = schema.capabilities.verseIndex
            ? "(SELECT group_concat(cv.Verse) FROM citation_verse cv WHERE cv.CitationID = ci.ID)"
            : "NULL"
        var filter = ""
        if schema.capabilities.verseIndex {
            let unusual = "EXISTS (SELECT 1 FROM citation_verse cv WHERE cv.CitationID = ci.ID AND typeof(cv.Verse) != 'integer')"
            if let verse {
                filter = "AND (EXISTS (SELECT 1 FROM citation_verse cv WHERE cv.CitationID = ci.ID AND cv.Verse = \(verse)) OR \(unusual))"
            } else {
                filter = "AND (NOT EXISTS (SELECT 1 FROM citation_verse cv WHERE cv.CitationID = ci.ID AND cv.Verse > 0) OR \(unusual))"
            }
        }
        // `speaker` has no index on ID, and for a chapter cited a thousand times SQLite chose to scan it
        // once per citation; read once into a CTE, it gets an automatic index instead.
        let sql = """
            WITH sp AS MATERIALIZED (SELECT ID, GivenNames, LastNames FROM speaker)
            SELECT ci.ID, ci.Chapter, \(schema.column("citation", "Verses", as: "ci")) AS Verses,
                   \(schema.column("citation", "Flag", as: "ci")) AS Flag, \(verseList) AS verseList,
                   b.FullName, \(schema.column("book", "CiteAbbr", as: "b")) AS CiteAbbr,
                   \(schema.column("book", "NumChapters", as: "b")) AS NumChapters,
                   t.ID AS talkID, t.Title, \(schema.column("talk", "Date", as: "t")) AS talkDate,
                   sp.GivenNames, sp.LastNames, c.Abbr AS conferenceAbbr
            FROM citation ci
            JOIN book b ON b.ID = ci.BookID
            JOIN talk t ON t.ID = ci.TalkID
            LEFT JOIN sp ON sp.ID = t.SpeakerID
            LEFT JOIN conference_talk ct ON ct.TalkID = t.ID
            LEFT JOIN conf_session s ON s.ID = ct.SessionID
            LEFT JOIN conference c ON c.ID = s.ConferenceID
            WHERE ci.BookID = ? AND ci.Chapter = ? \(filter)
            ORDER BY c.IssueDate DESC, talkDate DESC, s.Sequence, ct.Sequence, ci.ID
            """
        var seen: Set<Int> = []
        return try Row.fetchAll(cached: db, sql: sql, arguments: [bookID, chapter]).compactMap { row in
            guard let id = row.integer("ID"), let talkID = row.integer("talkID"), seen.insert(id).inserted else { return nil }
            let verses = schema.capabilities.verseIndex
                ? CitationFormatter.verses(in: row.text("verseList"))
                : CitationFormatter.verses(in: row.text("Verses"))
            let talk = CitingTalk(
                citationID: id,
                talkID: talkID,
                title: row.display("Title"),
                speaker: row.personName(given: "GivenNames", last: "LastNames"),
                conference: row.optionalDisplay("conferenceAbbr"),
                date: row.optionalDisplay("talkDate"),
                reference: reference(row, chapter: chapter, verses: row.optionalDisplay("Verses"))
            )
            return ChapterCitation(verses: verses, talk: talk)
        }
    }

    static func reference(_ row: Row, chapter: Int, verses: String?) -> String {
        let name = row.display("FullName")
        return CitationFormatter.reference(
            citeAbbr: row.optionalDisplay("CiteAbbr") ?? name,
            chapterCount: row.integer("NumChapters") ?? 1,
            chapter: chapter,
            verses: verses,
            jst: (row.text("Flag") ?? "").uppercased() == "J"
        )
    }
}
