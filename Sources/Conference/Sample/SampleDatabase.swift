import Crypto
import Foundation
import GRDB

/// Pocket's built-in sample: a real subset of the Scripture Citation Index with the real schema —
/// the April and October 2025 conferences, their speakers, every book, and the talks' citations —
/// built from the committed facts in `Resources/sample/`. Pocket uses it until a full database is
/// installed. The build is reproducible: the same facts give the same bytes.
public enum SampleDatabase {
    /// How screens and the CLI name the sample.
    public static let label = "Sample data (April and October 2025)"
    /// Bumped whenever the generator's output changes, so an older built copy is replaced.
    public static let formatVersion = 1
    /// The built sample's file name in the data folder.
    public static let fileName = "sample-2025.v\(formatVersion).db"

    /// Builds the sample database at `url` from the bundled facts.
    public static func build(at url: URL) throws {
        try CoreDatabaseWriter.write(rows(from: SampleFacts.bundled()), to: url)
    }

    /// SHA-256 of a database's schema and rows in a canonical order: equal for equal content,
    /// whatever the SQLite version or page layout.
    public static func contentDigest(of url: URL) throws -> String {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            var hasher = SHA256()
            func feed(_ text: String) { hasher.update(data: Data((text + "\n").utf8)) }
            let tables = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
            for table in tables {
                let name: String = table["name"]
                feed("table \(name): \(table["sql"] as String? ?? "")")
                let columnCount = try Row.fetchAll(db, sql: "PRAGMA table_info(\(name.quotedDatabaseIdentifier))").count
                let order = (1...max(columnCount, 1)).map(String.init).joined(separator: ", ")
                let rows = try Row.fetchCursor(db, sql: "SELECT * FROM \(name.quotedDatabaseIdentifier) ORDER BY \(order)")
                while let row = try rows.next() {
                    feed(row.databaseValues.map(\.description).joined(separator: "\t"))
                }
            }
            return hasher.finalize().map { String(format: "%02x", $0) }.joined()
        }
    }

    /// Interprets the facts as sci-core rows (see `Resources/SOURCES.md` for each rule).
    static func rows(from facts: SampleFacts) throws -> CoreRows {
        var rows = CoreRows(lastUpdated: facts.lastUpdated)
        let books = try bookRows(facts)
        let speakers = SpeakerMatcher(facts.speakers)

        var speakerIDs: Set<Int> = []
        var talkIDs: [String: Int] = [:] // "2025/04/13holland" → talk ID
        for conference in facts.conferences {
            rows.conferences.append(.init(id: conference.id, description: conference.description, abbr: conference.abbr,
                                          year: conference.year, annual: conference.annual, issueDate: conference.issueDate))
            let prefix = conference.urlPrefix + "/"
            let talks = facts.talks.filter { $0.urlKey.hasPrefix(prefix) }
            let pages = Dictionary((facts.pages[conference.files] ?? []).map { ($0.key, $0) }) { first, _ in first }
            let abbrs = Dictionary(grouping: facts.citations[conference.files] ?? [], by: \.key).mapValues { Set($0.map(\.speakerAbbr)) }
            var usedSessions: Set<Int> = []
            for talk in talks {
                let key = String(talk.urlKey.dropFirst(prefix.count))
                guard case let (session, sequence)? = talkPosition(key),
                      let sessionFacts = conference.sessions.first(where: { $0.sequence == session }) else {
                    throw ConferenceError.sampleDataInvalid("talk \(talk.id) has the key “\(key)”, which names no session")
                }
                guard talk.date == conference.urlPrefix.replacingOccurrences(of: "/", with: "-") else {
                    throw ConferenceError.sampleDataInvalid("talk \(talk.id) is dated \(talk.date), not in its conference")
                }
                let speaker = try speakers.match(talk.speaker, abbrs: abbrs[key] ?? [], talkID: talk.id)
                speakerIDs.insert(speaker)
                usedSessions.insert(session)
                talkIDs[talk.urlKey] = talk.id
                rows.talks.append(.init(id: talk.id, corpus: talk.corpus, url: facts.talkURL.replacingOccurrences(of: "{key}", with: talk.urlKey),
                                        title: talk.title, date: sessionFacts.date, speakerID: speaker))
                rows.conferenceTalks.append(.init(talkID: talk.id, sessionID: conference.id * 10 + session,
                                                  startPage: pages[key]?.start, endPage: pages[key]?.end, sequence: sequence))
            }
            // Only the sessions the talk keys name: a conference without an evening session gets none.
            for session in conference.sessions where usedSessions.contains(session.sequence) {
                rows.sessions.append(.init(id: conference.id * 10 + session.sequence, description: session.description, abbr: session.abbr,
                                           date: session.date, sequence: session.sequence, conferenceID: conference.id))
            }
            for citation in facts.citations[conference.files] ?? [] {
                // Citations of talks the sample lacks (none in 2025) are left out with them.
                guard let talkID = talkIDs[prefix + citation.key] else { continue }
                guard let reference = CitationReference(citation.reference), let book = books.lookup(reference.path) else {
                    throw ConferenceError.sampleDataInvalid("the citation “\(citation.reference)” names no book")
                }
                let (minVerse, maxVerse) = CitationReference.verseBounds(reference.verses)
                let id = rows.citations.count + 1
                rows.citations.append(.init(id: id, talkID: talkID, bookID: book, chapter: reference.chapter, verses: reference.verses,
                                            flag: reference.jst ? "J" : nil, minVerse: minVerse, maxVerse: maxVerse, page: citation.page,
                                            volume: (10_000..<270_000).contains(talkID) ? talkID / 10_000 : nil))
                rows.citationVerses += CitationFormatter.verses(in: reference.verses).map { CoreRows.CitationVerse(citationID: id, verse: $0) }
            }
        }
        rows.talks.sort { $0.id < $1.id }
        rows.conferenceTalks.sort { $0.talkID < $1.talkID }
        rows.speakers = facts.speakers.filter { speakerIDs.contains($0.id) }.map(speakerRow)
            .sorted { ($0.nameSort, $0.id) < ($1.nameSort, $1.id) }
        rows.books = books.rows(counting: rows.citations)
        return rows
    }
}

// MARK: - Private

private extension SampleDatabase {
    /// "13holland" → session 1, talk 3: the URL key's first digit is the session, the second the order in it.
    static func talkPosition(_ key: String) -> (session: Int, sequence: Int)? {
        let digits = key.prefix(2).compactMap(\.wholeNumberValue)
        guard digits.count == 2, digits[0] > 0, digits[1] > 0 else { return nil }
        return (digits[0], digits[1])
    }

    static func speakerRow(_ speaker: SampleFacts.Speaker) -> CoreRows.Speaker {
        let given = HTMLEntities.decode(speaker.givenNames), last = HTMLEntities.decode(speaker.lastNames)
        let suffix = speaker.suffix?.trimmingCharacters(in: .whitespaces) ?? ""
        return CoreRows.Speaker(id: speaker.id, givenNames: speaker.givenNames, lastNames: speaker.lastNames, abbr: speaker.abbr,
                                info: suffix.isEmpty ? nil : suffix, nameSort: "\(last), \(given)")
    }

    /// The book table: the five volumes and their books, one row per id (books.json has listed
    /// book 303 twice; an exact repeat is dropped, a conflicting one refused).
    static func bookRows(_ facts: SampleFacts) throws -> BookTable {
        var table = BookTable()
        for volume in facts.volumes {
            try table.add(.init(id: volume.id, abbr: volume.abbr, citeAbbr: volume.citeAbbr, fullName: volume.fullName,
                                numChapters: volume.numChapters ?? 0, urlPath: volume.urlPath, parentBookID: nil, webTitle: nil,
                                jstTitle: nil, tocName: nil, subdiv: nil, backName: nil, gridName: nil, citeFull: nil, citationCount: 0),
                          isVolume: true)
            for book in volume.books {
                func text(_ value: String?) -> String? { value == "NULL" ? nil : value }
                try table.add(.init(id: book.id, abbr: book.abbr, citeAbbr: book.citeAbbr, fullName: book.fullName,
                                    numChapters: book.numChapters, urlPath: book.urlPath, parentBookID: book.parentBookId,
                                    webTitle: text(book.webTitle), jstTitle: text(book.jstTitle), tocName: text(book.tocName),
                                    subdiv: text(book.subdiv), backName: text(book.backName), gridName: text(book.gridName),
                                    citeFull: text(book.citeFull), citationCount: 0),
                              isVolume: false)
            }
        }
        return table
    }
}

/// The book rows, with the look-up the citation files need.
struct BookTable {
    private var byID: [Int: CoreRows.Book] = [:]
    private var order: [Int] = []
    private var byPath: [String: Int] = [:]

    mutating func add(_ book: CoreRows.Book, isVolume: Bool) throws {
        if let existing = byID[book.id] {
            guard existing == book else { throw ConferenceError.sampleDataInvalid("book \(book.id) is listed twice, differently") }
            return
        }
        byID[book.id] = book
        order.append(book.id)
        guard !isVolume else { return }
        // Citation files name books by abbreviation ("js-h") or URL path ("js_h"); the first book
        // listed wins, so "introduction" is the Book of Mormon's (202), not the D&C's (301).
        for key in [book.abbr, String(book.urlPath.hasSuffix("/") ? book.urlPath.dropLast() : book.urlPath[...])] where byPath[key] == nil {
            byPath[key] = book.id
        }
    }

    func lookup(_ path: String) -> Int? {
        byPath[path]
    }

    /// Rows in id order, with `CitationCount` as the index's build script computes it: a book's
    /// own citations, and for a volume the sum over its books.
    func rows(counting citations: [CoreRows.Citation]) -> [CoreRows.Book] {
        let counts = Dictionary(grouping: citations, by: \.bookID).mapValues(\.count)
        let books = order.sorted().compactMap { byID[$0] }
        return books.map { book in
            var book = book
            if book.parentBookID == nil {
                book.citationCount = books.filter { $0.parentBookID == book.id }.reduce(0) { $0 + (counts[$1.id] ?? 0) }
            } else {
                book.citationCount = counts[book.id] ?? 0
            }
            return book
        }
    }
}

/// A citation as the sci-crawler files write it: `[jst-]path/chapter.verses`, `path.paragraph`
/// (a book without chapters) or `path` alone (a title page).
struct CitationReference: Equatable, Sendable {
    let path: String
    let chapter: Int
    let verses: String?
    let jst: Bool

    init(path: String, chapter: Int, verses: String?, jst: Bool) {
        self.path = path
        self.chapter = chapter
        self.verses = verses
        self.jst = jst
    }

    init?(_ text: String) {
        var rest = Substring(text)
        jst = rest.hasPrefix("jst-")
        if jst { rest = rest.dropFirst(4) }
        var location: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            path = String(rest[..<slash])
            location = rest[rest.index(after: slash)...]
        } else if let dot = rest.firstIndex(of: ".") {
            path = String(rest[..<dot])
            location = Substring("0." + rest[rest.index(after: dot)...])
        } else {
            path = String(rest)
        }
        guard !path.isEmpty else { return nil }
        if location.isEmpty {
            chapter = 0
            verses = nil
            return
        }
        let parts = location.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let chapter = Int(parts[0]) else { return nil }
        self.chapter = chapter
        // Only verse lists ("11-24", "1,3,5-7") are verses; a heading such as "study_intro1" is not.
        let list = parts.count > 1 ? String(parts[1]) : ""
        let isVerseList = !list.isEmpty && list.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "," || $0 == "-") }
        verses = isVerseList ? list : nil
    }

    /// MinVerse and MaxVerse as the index's build script computes them: the smallest and largest
    /// number in the list, and (200, 0) when there is none.
    static func verseBounds(_ verses: String?) -> (Int, Int) {
        var low = 200, high = 0
        for token in (verses ?? "").split(whereSeparator: { $0 == "-" || $0 == "," || $0.isWhitespace }) {
            guard let number = Int(token.prefix { $0.isASCII && $0.isNumber }) else { continue }
            low = min(low, number)
            high = max(high, number)
        }
        return (low, high)
    }
}

/// Finds a talk's speaker in speakers.json by name, accents and punctuation ignored, using the
/// citation files' speaker abbreviations to tell apart two people with one name.
struct SpeakerMatcher {
    private let byName: [String: [SampleFacts.Speaker]]

    init(_ speakers: [SampleFacts.Speaker]) {
        byName = Dictionary(grouping: speakers) { Self.key(HTMLEntities.decode($0.givenNames) + " " + HTMLEntities.decode($0.lastNames)) }
    }

    func match(_ name: String, abbrs: Set<String>, talkID: Int) throws -> Int {
        var candidates = byName[Self.key(name)] ?? []
        if candidates.count > 1 { candidates = candidates.filter { abbrs.contains($0.abbr) } }
        guard candidates.count == 1, let speaker = candidates.first else {
            throw ConferenceError.sampleDataInvalid("talk \(talkID)'s speaker “\(name)” matches \(candidates.count) speakers")
        }
        return speaker.id
    }

    static func key(_ name: String) -> String {
        TextFolding.sortKey(name).replacingOccurrences(of: ".", with: " ").split(separator: " ").joined(separator: " ")
    }
}
