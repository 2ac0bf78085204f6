import Foundation
import GRDB
import PocketCore
import Testing
@testable import Conference

/// The screen queries against the real-schema sample (newer era) and an older-era copy of it.
@Suite("Conference queries")
struct ConferenceQueryTests {
    /// A library whose database is the sample.
    private func sampleLibrary() async throws -> (ConferenceLibrary, URL) {
        let folder = TestFiles.folder()
        return (try await ConferenceLibrary.open(folder: folder), folder)
    }

    /// A library with an older-era database imported.
    private func oldEraLibrary() async throws -> (ConferenceLibrary, URL) {
        let folder = TestFiles.folder()
        let library = try await ConferenceLibrary.open(folder: folder)
        let file = try TestFiles.oldEraDatabase(in: TestFiles.folder("old-era"))
        _ = try await DatabaseInstaller(library: library).importDatabase(at: file)
        return (library, folder)
    }

    @Test func conferencesAreNewestFirstWithTheSampleFooter() async throws {
        let (library, folder) = try await sampleLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = try await library.conferences()
        #expect(list.conferences.map(\.abbr) == ["Oct 2025", "Apr 2025"])
        #expect(list.conferences.map(\.talkCount) == [33, 32])
        #expect(list.conferences.first?.description == "October 2025 General Conference")
        #expect(list.conferences.first?.year == 2025)
        #expect(list.footer == DatabaseFooter(isSample: true, version: nil, lastUpdated: "2025-10-05 00:00:00"))
        #expect(list.footer.label == "Sample data (April and October 2025)")
    }

    @Test func aConferenceListsItsTalksBySessionThenSequence() async throws {
        let (library, folder) = try await sampleLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let april = try await library.conference(id: 202504)
        #expect(april.sessions.map(\.description) == [
            "Saturday Morning Session", "Saturday Afternoon Session", "Saturday Evening Session",
            "Sunday Morning Session", "Sunday Afternoon Session",
        ])
        #expect(april.sessions.map(\.talks.count) == [6, 7, 5, 7, 7])
        let first = try #require(april.sessions.first?.talks.first)
        #expect(first == TalkSummary(id: 8769, title: "As a Little Child", speaker: "Jeffrey R. Holland", speakerID: 1127,
                                     pages: PageRange(start: 7, end: 9)))
        // Entities are decoded for display: speakers.json writes "Gim&eacute;nez".
        #expect(april.sessions[0].talks.map(\.speaker).contains("Ricardo P. Giménez"))

        // Talk sequence, not talk id, orders a session: 16uchtdorf (8807) comes before 17johnson (8806).
        let october = try await library.conference(id: 202510)
        #expect(october.sessions[0].talks.map(\.id) == [8802, 8803, 8804, 8805, 8807, 8806])
        #expect(october.sessions[0].date == "2025-10-04")
        await #expect(throws: ConferenceError.unknownConference(1)) { try await library.conference(id: 1) }
    }

    @Test func aTalkHasItsSessionPagesLinksNeighboursAndCitations() async throws {
        let (library, folder) = try await sampleLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let talk = try await library.talk(id: 8774)
        #expect(talk.title == "“Draw Near unto Me”")
        #expect(talk.speaker == "Henry B. Eyring")
        #expect(talk.conference == ConferenceReference(id: 202504, abbr: "Apr 2025", description: "April 2025 General Conference"))
        #expect(talk.session?.description == "Saturday Morning Session")
        #expect(talk.date == "2025-04-05")
        #expect(talk.pages?.description == "pp. 24–28")
        #expect(talk.url?.absoluteString == "https://www.churchofjesuschrist.org/study/general-conference/2025/04/18eyring?lang=eng")
        #expect(talk.contentURL.absoluteString == "http://scriptures.byu.edu/content/talks_ajax/8774")
        #expect(talk.media.isEmpty)
        // The neighbours cross the session boundary.
        #expect(talk.previous?.id == 8773)
        #expect(talk.next?.id == 8775)
        #expect(talk.next?.title == "Cherishing Life")
        #expect(!talk.citations.isEmpty)

        let holland = try await library.talk(id: 8769)
        #expect(holland.previous == nil)
        #expect(holland.citations.prefix(3).map(\.reference) == ["Mark 9:33", "Mark 9:34", "Luke 9:47"])
        #expect(holland.citations.contains { $0.reference == "3 Ne. 17:11–24" })
        #expect(holland.citations.first?.page == 9)
        await #expect(throws: ConferenceError.unknownTalk(42)) { try await library.talk(id: 42) }
    }

    @Test func citationReferencesCoverJSTTitlePagesAndSections() async throws {
        let (library, folder) = try await sampleLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 14johnson cites jst-matt/25.12 and dc/33.17.
        let johnson = try await library.talk(id: 8770)
        #expect(johnson.citations.contains { $0.reference == "JST Matt. 25:12" })
        #expect(johnson.citations.contains { $0.reference == "D&C 33:17" })
        // 41bednar cites dc/20.study_intro1: a section heading, so no verses.
        let bednar = try await library.talk(id: 8787)
        #expect(bednar.citations.contains { $0.reference == "D&C 20" && $0.verses == nil })
    }

    @Test func theCitationIndexGoesFromVolumesToCitingTalks() async throws {
        let (library, folder) = try await sampleLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let volumes = try await library.citationVolumes()
        #expect(volumes.map(\.volume.name) == ["Old Testament", "New Testament", "Book of Mormon", "Doctrine and Covenants", "Pearl of Great Price"])
        #expect(volumes.reduce(0) { $0 + $1.citationCount } == 1457)
        #expect(volumes[3].books.map(\.book.citeAbbr) == ["D&C Intro.", "D&C", "O.D."])
        #expect(volumes[3].books[1].citationCount == 272)
        #expect(volumes[4].books.map(\.book.name).contains("Joseph Smith—History"))

        let john = try #require(volumes[1].books.first { $0.book.name == "John" })
        #expect(john.citationCount == 130)
        let book = try await library.citations(bookID: john.id)
        #expect(book.volume?.name == "New Testament")
        #expect(book.chapters.first { $0.chapter == 3 }?.citationCount == 13)
        #expect(book.chapters.map(\.chapter) == book.chapters.map(\.chapter).sorted())

        let chapter = try await library.citations(bookID: john.id, chapter: 3)
        #expect(chapter.verses == [
            VerseCount(verse: 3, citationCount: 1), VerseCount(verse: 14, citationCount: 1), VerseCount(verse: 15, citationCount: 1),
            VerseCount(verse: 16, citationCount: 12), VerseCount(verse: 17, citationCount: 3),
        ])

        let verse = try await library.citations(bookID: john.id, chapter: 3, verse: 16)
        #expect(verse.title == "John 3:16")
        #expect(verse.talks.count == 12)
        // Newest conference first.
        #expect(verse.talks.first?.conference == "Oct 2025")
        #expect(verse.talks.last?.conference == "Apr 2025")
        #expect(verse.talks.contains { $0.title == "My Love for the Savior Is My “Why”" && $0.speaker == "Ricardo P. Giménez" && $0.reference == "John 3:16" })
        await #expect(throws: ConferenceError.unknownBook(999)) { try await library.citations(bookID: 999) }
    }

    @Test func speakersAreGroupedByLetterIgnoringAccents() async throws {
        let (library, folder) = try await sampleLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sections = try await library.speakers()
        #expect(sections.map(\.letter) == sections.map(\.letter).sorted())
        let g = try #require(sections.first { $0.letter == "G" })
        #expect(g.speakers.map(\.name).contains("Ricardo P. Giménez"))
        let c = try #require(sections.first { $0.letter == "C" })
        #expect(c.speakers.map(\.name).contains("Gérald Caussé"))
        let h = try #require(sections.first { $0.letter == "H" })
        #expect(h.speakers.map(\.name) == ["Jeffrey R. Holland", "Matthew S. Holland"])
        #expect(h.speakers.first?.talkCount == 2)

        let holland = try await library.speaker(id: 1127)
        #expect(holland.talks.map(\.title) == ["And Now I See", "As a Little Child"])
        #expect(holland.talks.map(\.conference) == ["Oct 2025", "Apr 2025"])
        await #expect(throws: ConferenceError.unknownSpeaker(5)) { try await library.speaker(id: 5) }
    }

    @Test func searchFindsTitlesAndSpeakersAsYouType() async throws {
        let (library, folder) = try await sampleLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await library.search("holl").map(\.id).sorted() == [8769, 8820, 8829])
        #expect(try await library.search("little chi").map(\.id) == [8769])
        // Accents are ignored both ways.
        #expect(try await library.search("gimenez").map(\.speaker) == ["Ricardo P. Giménez"])
        #expect(try await library.search("Caussé").first?.id == 8790)
        #expect(try await library.search("").isEmpty)
        #expect(try await library.search("\"*) OR (").isEmpty)
        #expect(try await library.search("zzzzzz").isEmpty)
    }

    @Test func recentTalksAreRememberedInPocketsOwnDatabase() async throws {
        let (library, folder) = try await sampleLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await library.recordView(talkID: 8770, by: .firstOwner)
        try await library.recordView(talkID: 8834, by: .firstOwner)
        try await library.recordView(talkID: 8770, by: .firstOwner)
        try await library.recordView(talkID: 1, by: .firstOwner) // not in the database: left out of the list
        #expect(try await library.recentTalks(of: .firstOwner, limit: 10).map(\.id) == [8770, 8834])
        // Reopening the library keeps them.
        let reopened = try await ConferenceLibrary.open(folder: folder)
        #expect(try await reopened.recentTalks(of: .firstOwner, limit: 1).map(\.id) == [8770])
    }

    @Test func statusSaysSampleDataWithCountsAndCapabilities() async throws {
        let (library, folder) = try await sampleLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let status = try await library.status()
        #expect(status.source == .sample)
        #expect(status.counts == DatabaseCounts(conferences: 2, sessions: 10, talks: 65, speakers: status.counts.speakers, citations: 1457))
        #expect((50...65).contains(status.counts.speakers))
        #expect(status.capabilities == DatabaseCapabilities(media: .streams, citations: true, verseIndex: true, lastUpdated: true, publication: false))
        #expect(status.warning == nil)
    }

    // MARK: Older era

    @Test func theOlderEraGivesTheSameScreensWithListenAndWatchLinks() async throws {
        let (library, folder) = try await oldEraLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let status = try await library.status()
        #expect(status.capabilities.media == .listenWatch)
        #expect(!status.capabilities.verseIndex)
        #expect(status.footer.version == "imported")
        #expect(status.footer.label == "Imported database old-era.db")
        #expect(status.footer.lastUpdated == "2017-11-30 12:00:00")

        let talk = try await library.talk(id: 8769)
        #expect(talk.media == [
            MediaLink(kind: .audio, url: try #require(URL(string: "https://media.example/8769.mp3"))),
            MediaLink(kind: .video, url: try #require(URL(string: "https://media.example/8769.mp4"))),
        ])
        #expect(talk.media.map(\.kind.label) == ["Listen", "Watch"])
        #expect(try await library.conferences().conferences.count == 2)
        #expect(try await library.conference(id: 202510).sessions[0].talks.map(\.id) == [8802, 8803, 8804, 8805, 8807, 8806])

        // Without citation_verse the verses come from citation.Verses, with the same counts.
        let john = try #require(try await library.citationVolumes()[1].books.first { $0.book.name == "John" })
        let chapter = try await library.citations(bookID: john.id, chapter: 3)
        #expect(chapter.verses.first { $0.verse == 16 }?.citationCount == 12)
        #expect(try await library.citations(bookID: john.id, chapter: 3, verse: 16).talks.count == 12)
        #expect(try await library.search("holland").count == 3)
    }

    @Test func newerEraMediaColumnsBecomeFourLinks() async throws {
        let folder = TestFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try await ConferenceLibrary.open(folder: folder)
        let file = try TestFiles.coreDatabase(in: TestFiles.folder("streams")) { db in
            try db.execute(sql: """
                UPDATE talk SET AudioUrl = 'https://media.example/a.mp3', VideoLowUrl = 'https://media.example/l.mp4',
                                VideoMedUrl = '', VideoHighUrl = 'not a url' WHERE ID = 8800
                """)
        }
        _ = try await DatabaseInstaller(library: library).importDatabase(at: file)
        let talk = try await library.talk(id: 8800)
        #expect(talk.media.map(\.kind) == [.audio, .videoLow])
    }

    @Test func missingOptionalTablesHideTheirFeatures() async throws {
        let folder = TestFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try await ConferenceLibrary.open(folder: folder)
        let file = try TestFiles.coreDatabase(in: TestFiles.folder("partial")) { db in
            try db.execute(sql: "DROP TABLE citation; DROP TABLE citation_verse; DROP TABLE updated; DROP TABLE book")
        }
        _ = try await DatabaseInstaller(library: library).importDatabase(at: file)
        let status = try await library.status()
        #expect(status.capabilities == DatabaseCapabilities(media: .streams, citations: false, verseIndex: false, lastUpdated: false, publication: false))
        #expect(status.counts.citations == 0)
        #expect(status.footer.lastUpdated == nil)
        #expect(try await library.talk(id: 8769).citations.isEmpty)
        await #expect(throws: ConferenceError.citationsUnavailable) { try await library.citationVolumes() }
        await #expect(throws: ConferenceError.citationsUnavailable) { try await library.citations(bookID: 143, chapter: 3, verse: 16) }
    }

    @Test func aDatabaseInWALModeIsReadWithoutBeingWritten() async throws {
        let folder = TestFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try await ConferenceLibrary.open(folder: folder)
        let file = try TestFiles.coreDatabase(in: TestFiles.folder("wal")) { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
        }
        let record = try await DatabaseInstaller(library: library).importDatabase(at: file).database
        let installed = folder.appendingPathComponent("databases/\(record.fileName)")
        let before = try Data(contentsOf: installed)
        #expect(try await library.conferences().conferences.count == 2)
        #expect(try await library.talk(id: 8769).title == "As a Little Child")
        #expect(try Data(contentsOf: installed) == before)
    }

    @Test func odditiesInARealDatabaseDoNotCrashTheQueries() async throws {
        let folder = TestFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try await ConferenceLibrary.open(folder: folder)
        let file = try TestFiles.coreDatabase(in: TestFiles.folder("odd")) { db in
            try db.execute(sql: """
                ALTER TABLE conference ADD COLUMN Publication text;
                UPDATE conference SET Publication = 'Liahona', Year = 'two thousand' WHERE ID = 202504;
                UPDATE conference_talk SET StartPageNum = '12', EndPageNum = NULL WHERE TalkID = 8770;
                UPDATE conference_talk SET StartPageNum = 'x' WHERE TalkID = 8771;
                INSERT INTO speaker VALUES (1127, 'Jeffrey R.', 'Holland', 'JRH', NULL, 'Holland, Jeffrey R.');
                UPDATE talk SET SpeakerID = 99999, Title = 'Women&rsquo;s &#8220;Work&#x201D; &amp;c' WHERE ID = 8772;
                """)
        }
        _ = try await DatabaseInstaller(library: library).importDatabase(at: file)
        #expect(try await library.status().capabilities.publication)
        let april = try await library.conference(id: 202504)
        #expect(april.conference.publication == "Liahona")
        #expect(april.conference.year == nil)
        let talks = april.sessions[0].talks
        // A speaker row listed twice does not list the talk twice.
        #expect(talks.map(\.id) == [8769, 8770, 8771, 8772, 8773, 8774])
        #expect(talks[1].pages == PageRange(start: 12, end: nil))
        #expect(talks[2].pages == nil)
        #expect(talks[3].title == "Women’s “Work” &c")
        #expect(talks[3].speaker == "")
        #expect(talks[3].speakerID == nil)
    }

    /// The chapter screen counts without reading the talks, and the verse screen reads only the
    /// citations that may name its verse: both must still agree, verse by verse, including a
    /// verse stored as text ("3-5"), a verse that is not a number, and an old-era database.
    @Test(arguments: [false, true])
    func chapterCountsAndVerseListsAgree(oldEra: Bool) async throws {
        let folder = TestFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try await ConferenceLibrary.open(folder: folder)
        let file = oldEra
            ? try TestFiles.oldEraDatabase(in: TestFiles.folder("old-era-verses"))
            : try TestFiles.coreDatabase(in: TestFiles.folder("verses")) { db in
                // In John 3, one citation gets a verse range stored as text, another a verse that is not a number.
                try db.execute(sql: """
                    INSERT INTO citation_verse SELECT ci.ID, '3-5' FROM citation ci JOIN book b ON b.ID = ci.BookID
                        WHERE b.FullName = 'John' AND ci.Chapter = 3 AND ci.Verses = '16' ORDER BY ci.ID LIMIT 1;
                    INSERT INTO citation_verse SELECT ci.ID, 'x' FROM citation ci JOIN book b ON b.ID = ci.BookID
                        WHERE b.FullName = 'John' AND ci.Chapter = 3 AND ci.Verses = '17' ORDER BY ci.ID LIMIT 1;
                    """)
            }
        _ = try await DatabaseInstaller(library: library).importDatabase(at: file)
        let books = try await library.citationVolumes().flatMap(\.books).filter { $0.citationCount > 0 }
        var checked = 0
        for book in books {
            for chapter in try await library.citations(bookID: book.id).chapters {
                let counts = try await library.citations(bookID: book.id, chapter: chapter.chapter)
                for verse in counts.verses {
                    let talks = try await library.citations(bookID: book.id, chapter: chapter.chapter, verse: verse.verse).talks
                    #expect(talks.count == verse.citationCount, "\(book.book.name) \(chapter.chapter):\(verse.verse ?? 0)")
                    checked += 1
                }
            }
        }
        #expect(checked > 500)
        if !oldEra {
            let john = try #require(books.first { $0.book.name == "John" })
            let chapter = try await library.citations(bookID: john.id, chapter: 3)
            // The text range adds verses 3 to 5 to the citation of 16, and "x" adds nothing.
            #expect(chapter.verses.first { $0.verse == 4 }?.citationCount == 1)
            #expect(chapter.verses.first { $0.verse == 16 }?.citationCount == 12)
            let four = try await library.citations(bookID: john.id, chapter: 3, verse: 4).talks
            #expect(four.count == 1 && four.first?.reference == "John 3:16")
        }
    }
}
