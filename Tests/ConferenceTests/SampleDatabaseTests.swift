import Foundation
import GRDB
import Testing
@testable import Conference

@Suite("Sample database")
struct SampleDatabaseTests {
    @Test func theBuildIsReproducible() throws {
        let folder = TestFiles.folder("sample")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("first.db"), second = folder.appendingPathComponent("second.db")
        try SampleDatabase.build(at: first)
        try SampleDatabase.build(at: second)
        // Same bytes, and the same content by a digest that does not depend on SQLite's file layout.
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
        #expect(try SampleDatabase.contentDigest(of: first) == SampleDatabase.contentDigest(of: second))
        // The digest does see a change of content.
        let changed = try TestFiles.release("x", in: folder)
        #expect(try SampleDatabase.contentDigest(of: changed) != SampleDatabase.contentDigest(of: first))
    }

    @Test func theFactsBecomeTheRealSchemasRows() throws {
        let rows = try SampleDatabase.rows(from: SampleFacts.bundled())
        #expect(rows.conferences.map(\.id) == [202504, 202510])
        #expect(rows.talks.count == 65)
        #expect(Set(rows.talks.map(\.id)).count == 65)
        #expect(rows.conferenceTalks.count == 65)
        // Both conferences' keys name sessions 1–5.
        #expect(rows.sessions.map(\.id) == [2025041, 2025042, 2025043, 2025044, 2025045, 2025101, 2025102, 2025103, 2025104, 2025105])
        #expect(rows.sessions.filter { $0.conferenceID == 202510 }.map(\.date) == ["2025-10-04", "2025-10-04", "2025-10-04", "2025-10-05", "2025-10-05"])
        #expect(rows.books.count == 99)
        #expect(rows.books.filter { $0.parentBookID == nil }.map(\.id) == [1, 2, 3, 4, 5])
        #expect(rows.citations.count == 1457)
        #expect(rows.citations.map(\.id) == Array(1...1457))
        #expect(Set(rows.speakers.map(\.id)).count == rows.speakers.count)
        #expect(Set(rows.talks.map(\.speakerID)) == Set(rows.speakers.map(\.id)))

        let holland = try #require(rows.conferenceTalks.first { $0.talkID == 8769 })
        #expect(holland == CoreRows.ConferenceTalk(talkID: 8769, sessionID: 2025041, startPage: 7, endPage: 9, sequence: 3))
        let talk = try #require(rows.talks.first { $0.id == 8769 })
        #expect(talk.url == "https://www.churchofjesuschrist.org/study/general-conference/2025/04/13holland?lang=eng")
        #expect(talk.date == "2025-04-05")
        #expect(talk.speakerID == 1127)

        // Volume counts are the sums of their books'; a book's count is its own citations.
        let dc = try #require(rows.books.first { $0.id == 4 })
        #expect(dc.citationCount == rows.books.filter { $0.parentBookID == 4 }.reduce(0) { $0 + $1.citationCount })
        #expect(rows.books.reduce(0) { $0 + ($1.parentBookID == nil ? $1.citationCount : 0) } == 1457)
        #expect(rows.books.first { $0.id == 101 }?.jstTitle == nil) // "NULL" in books.json
    }

    @Test func speakersKeepTheirEntitiesAndGetASortName() throws {
        let rows = try SampleDatabase.rows(from: SampleFacts.bundled())
        let gimenez = try #require(rows.speakers.first { $0.id == 1550 })
        #expect(gimenez.lastNames == "Gim&eacute;nez")
        #expect(gimenez.nameSort == "Giménez, Ricardo P.")
        #expect(gimenez.info == nil)
    }

    @Test(arguments: [
        ("mosiah/3.19", CitationReference.expected(path: "mosiah", chapter: 3, verses: "19", jst: false)),
        ("3-ne/17.11-24", .expected(path: "3-ne", chapter: 17, verses: "11-24", jst: false)),
        ("js-m/1.5-6,8-9", .expected(path: "js-m", chapter: 1, verses: "5-6,8-9", jst: false)),
        ("jst-matt/4.1", .expected(path: "matt", chapter: 4, verses: "1", jst: true)),
        ("dc/20.study_intro1", .expected(path: "dc", chapter: 20, verses: nil, jst: false)),
        ("bofm-title", .expected(path: "bofm-title", chapter: 0, verses: nil, jst: false)),
        ("introduction.1", .expected(path: "introduction", chapter: 0, verses: "1", jst: false)),
        ("dc/88", .expected(path: "dc", chapter: 88, verses: nil, jst: false)),
    ])
    func citationReferencesAreParsed(_ text: String, _ expected: CitationReference) {
        #expect(CitationReference(text) == expected)
    }

    @Test func malformedReferencesAreRefused() {
        #expect(CitationReference("") == nil)
        #expect(CitationReference("john/x.3") == nil)
        #expect(CitationReference("/3.16") == nil)
    }

    @Test func verseBoundsFollowTheIndexsBuildScript() {
        #expect(CitationReference.verseBounds("11-24") == (11, 24))
        #expect(CitationReference.verseBounds("5-6,8-9,21-22") == (5, 22))
        #expect(CitationReference.verseBounds(nil) == (200, 0))
        #expect(CitationReference.verseBounds("") == (200, 0))
    }

    @Test func booksListedTwiceAreKeptOnceUnlessTheyDisagree() throws {
        let book = CoreRows.Book(id: 303, abbr: "od", citeAbbr: "O.D.", fullName: "Official Declarations", numChapters: 2, urlPath: "od/",
                                 parentBookID: 4, webTitle: nil, jstTitle: nil, tocName: nil, subdiv: nil, backName: nil, gridName: nil,
                                 citeFull: nil, citationCount: 0)
        var table = BookTable()
        try table.add(book, isVolume: false)
        try table.add(book, isVolume: false)
        #expect(table.rows(counting: []).count == 1)
        #expect(table.lookup("od") == 303)
        var other = book
        other.fullName = "Something else"
        #expect(throws: ConferenceError.sampleDataInvalid("book 303 is listed twice, differently")) { try table.add(other, isVolume: false) }
    }

    @Test func theURLPathFindsBooksWhoseAbbreviationDiffers() throws {
        let facts = try SampleFacts.bundled()
        let rows = try SampleDatabase.rows(from: facts)
        // "js-h" is both the abbreviation and (with "_") the URL path of Joseph Smith—History.
        let jsh = try #require(rows.books.first { $0.abbr == "js-h" })
        #expect(rows.citations.contains { $0.bookID == jsh.id })
        // "introduction" is the Book of Mormon's, listed first.
        #expect(rows.citations.contains { $0.bookID == 202 })
        #expect(!rows.citations.contains { $0.bookID == 301 })
    }

    @Test func unmatchedSpeakersStopTheBuild() throws {
        let matcher = SpeakerMatcher([
            .init(id: 1, givenNames: "Joseph F.", lastNames: "Smith", abbr: "JFS", suffix: nil),
            .init(id: 2, givenNames: "Joseph F.", lastNames: "Smith", abbr: "JfS", suffix: "[Patr.]"),
        ])
        #expect(try matcher.match("Joseph F Smith", abbrs: ["JfS"], talkID: 7) == 2)
        #expect(throws: ConferenceError.self) { try matcher.match("Joseph F. Smith", abbrs: [], talkID: 7) }
        #expect(throws: ConferenceError.self) { try matcher.match("Nobody", abbrs: [], talkID: 7) }
    }
}

extension CitationReference {
    static func expected(path: String, chapter: Int, verses: String?, jst: Bool) -> CitationReference {
        CitationReference(path: path, chapter: chapter, verses: verses, jst: jst)
    }
}

extension CitationReference: CustomTestStringConvertible {
    public var testDescription: String { "\(jst ? "jst-" : "")\(path) \(chapter):\(verses ?? "-")" }
}

@Suite("Synthetic database")
struct SyntheticDatabaseTests {
    @Test func theSameSeedGivesTheSameRowsAndCountsAreAsAsked() throws {
        let facts = try SampleFacts.bundled()
        let first = try SyntheticDatabase.rows(from: facts, seed: 7, conferences: 6, talks: 200, citations: 1500)
        let second = try SyntheticDatabase.rows(from: facts, seed: 7, conferences: 6, talks: 200, citations: 1500)
        let other = try SyntheticDatabase.rows(from: facts, seed: 8, conferences: 6, talks: 200, citations: 1500)
        #expect(first.talks == second.talks && first.citations == second.citations && first.citationVerses == second.citationVerses)
        #expect(first.citations != other.citations)
        #expect(first.conferences.count == 6)
        #expect(first.sessions.count == 30)
        #expect(first.talks.count == 200)
        #expect(first.citations.count == 1500)
        #expect(Set(first.conferenceTalks.map(\.sessionID)).isSubset(of: Set(first.sessions.map(\.id))))
        #expect(first.lastUpdated == "synthetic data, seed 7")
    }

    /// A larger scale keeps every 1× row and puts the history behind them: older conferences,
    /// later ids, speakers of its own who sort last, citations only of its own talks.
    @Test func aLargerScaleKeepsTheFullSizeRowsAndAddsOlderHistory() throws {
        let facts = try SampleFacts.bundled()
        let one = try SyntheticDatabase.rows(from: facts, seed: 7, conferences: 6, talks: 200, citations: 1500)
        let three = try SyntheticDatabase.rows(from: facts, seed: 7, scale: 3, conferences: 6, talks: 200, citations: 1500)
        #expect(Array(three.conferences.prefix(6)) == one.conferences)
        #expect(Array(three.sessions.prefix(30)) == one.sessions)
        #expect(Array(three.talks.prefix(200)) == one.talks)
        #expect(Array(three.conferenceTalks.prefix(200)) == one.conferenceTalks)
        #expect(Array(three.citations.prefix(1500)) == one.citations)
        #expect(Array(three.speakers.prefix(one.speakers.count)) == one.speakers)
        #expect(three.conferences.count == 18 && three.talks.count == 600 && three.citations.count == 4500)
        #expect(Set(three.talks.map(\.id)).count == 600 && Set(three.citations.map(\.id)).count == 4500)
        // The history is older, cites only its own talks, and is spoken by its own speakers.
        let oldest1x = try #require(one.conferences.map(\.issueDate).min())
        #expect(three.conferences.dropFirst(6).allSatisfy { $0.issueDate < oldest1x })
        #expect(three.citations.dropFirst(1500).allSatisfy { $0.talkID > 200 })
        let historySpeakers = Set(three.speakers.dropFirst(one.speakers.count).map(\.id))
        #expect(historySpeakers.count == 2 * SyntheticDatabase.historySpeakerCount)
        #expect(three.talks.dropFirst(200).allSatisfy { historySpeakers.contains($0.speakerID) })
        #expect(three.speakers.dropFirst(one.speakers.count).allSatisfy { $0.lastNames == "Zz Synthetic" })
        #expect(three.lastUpdated == "synthetic data, seed 7, 3× history")
        #expect(throws: ConferenceError.unsupportedScale(0)) { try SyntheticDatabase.rows(from: facts, seed: 7, scale: 0) }
    }

    @Test func itsScreensAreConsistent() async throws {
        let folder = TestFiles.folder("synthetic")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("synthetic.db")
        try CoreDatabaseWriter.write(SyntheticDatabase.rows(from: SampleFacts.bundled(), seed: 3, conferences: 8, talks: 400, citations: 4000), to: file)
        let library = try await ConferenceLibrary.open(folder: folder.appendingPathComponent("pocket"))
        _ = try await DatabaseInstaller(library: library).importDatabase(at: file)

        let list = try await library.conferences()
        #expect(list.conferences.map(\.abbr).prefix(3) == ["Oct 2025", "Apr 2025", "Oct 2024"])
        #expect(list.conferences.reduce(0) { $0 + $1.talkCount } == 400)
        for conference in list.conferences.prefix(2) {
            let detail = try await library.conference(id: conference.id)
            #expect(detail.sessions.reduce(0) { $0 + $1.talks.count } == conference.talkCount)
            let talks = detail.sessions.flatMap(\.talks)
            // Previous and next walk the conference in order.
            let middle = try await library.talk(id: talks[talks.count / 2].id)
            #expect(middle.previous?.id == talks[talks.count / 2 - 1].id)
            #expect(middle.next?.id == talks[talks.count / 2 + 1].id)
        }
        let volumes = try await library.citationVolumes()
        #expect(volumes.reduce(0) { $0 + $1.citationCount } == 4000)
        let book = try #require(volumes.flatMap(\.books).max { $0.citationCount < $1.citationCount })
        let chapters = try await library.citations(bookID: book.id)
        #expect(chapters.chapters.reduce(0) { $0 + $1.citationCount } == book.citationCount)
        let chapter = try #require(chapters.chapters.first)
        let verses = try await library.citations(bookID: book.id, chapter: chapter.chapter)
        let verse = try #require(verses.verses.first)
        #expect(try await library.citations(bookID: book.id, chapter: chapter.chapter, verse: verse.verse).talks.count == verse.citationCount)
        #expect(try await library.speakers().reduce(0) { $0 + $1.speakers.reduce(0) { $0 + $1.talkCount } } == 400)
    }
}
