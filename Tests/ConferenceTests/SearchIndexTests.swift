import Foundation
import GRDB
import Testing
@testable import Conference

@Suite("Search index")
struct SearchIndexTests {
    /// The index is built in SQL; every row must read exactly as the screens' Swift code
    /// (`Row.display`, `Row.personName`, `Row.integer`) shows the same talk.
    @Test func theIndexHoldsTextAsTheScreensShowIt() async throws {
        let folder = TestFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try await ConferenceLibrary.open(folder: folder)
        let file = try TestFiles.coreDatabase(in: TestFiles.folder("odd-search")) { db in
            try db.execute(sql: """
                UPDATE talk SET Title = '  Women&rsquo;s &#8220;Work&#x201D;&nbsp;' WHERE ID = 8772;
                UPDATE talk SET Title = char(8203) || 'Zero width' || char(12288, 10) WHERE ID = 8773;
                UPDATE talk SET Title = NULL, Date = '  ' WHERE ID = 8774;
                UPDATE talk SET ID = ' 8775 ' WHERE ID = 8775;
                UPDATE talk SET ID = 'not a number' WHERE ID = 8776;
                UPDATE talk SET SpeakerID = 99999 WHERE ID = 8777;
                UPDATE speaker SET GivenNames = NULL, LastNames = ' Bl&aacute;z ' WHERE ID = (SELECT SpeakerID FROM talk WHERE ID = 8778);
                UPDATE conference SET Abbr = '&nbsp;' WHERE ID = 202510;
                """)
        }
        let expected = try await DatabaseQueue(path: file.path).read { db in try Self.screenRows(db) }
        _ = try await DatabaseInstaller(library: library).importDatabase(at: file)
        // The index follows the install: the first search waits for it.
        #expect(try await library.search("blaz").count == expected.filter { $0.speaker == "Bláz" }.count)

        let state = try TestFiles.stateDatabase(in: folder)
        let indexed = try await state.read { db in
            try Row.fetchAll(db, sql: "SELECT talkID, title, speaker, conference, date FROM talk_search ORDER BY talkID").map(Self.hit)
        }
        #expect(indexed.count == expected.count)
        #expect(indexed == expected)
        #expect(indexed.first { $0.id == 8772 }?.title == "Women’s “Work”")
        #expect(indexed.first { $0.id == 8773 }?.title == "Zero width")
        #expect(indexed.contains { $0.id == 8775 })
        // No staged table is left beside the index.
        #expect(try await state.read { db in try db.tableExists("talk_search_staged") } == false)
    }

    /// An install ends before the new file's index is built (a command that installs then exits
    /// spends nothing on it); the index still names the previous file, so no search reads it for
    /// the new one, and the first search builds it.
    @Test func theFirstSearchAfterAnInstallBuildsTheIndex() async throws {
        let folder = TestFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try await ConferenceLibrary.open(folder: folder, sample: .whenNeeded)
        #expect(try await library.search("little child").map(\.id) == [8769])
        let file = try TestFiles.coreDatabase(in: TestFiles.folder("renamed-talk")) { db in
            try db.execute(sql: "UPDATE talk SET Title = 'Like a Lamb' WHERE ID = 8769")
        }
        let installed = try await DatabaseInstaller(library: library).importDatabase(at: file).database
        let state = try TestFiles.stateDatabase(in: folder)
        let source = { try await state.read { db in try String.fetchOne(db, sql: "SELECT fileName FROM search_source") } }
        #expect(try await source() == SampleDatabase.fileName)

        #expect(try await library.search("little child").isEmpty)
        #expect(try await library.search("lamb").map(\.id) == [8769])
        #expect(try await source() == installed.fileName)
    }

    /// A server builds the new file's index as soon as the install ends, before anyone searches.
    @Test func aServerBuildsTheIndexAsSoonAsAnInstallEnds() async throws {
        let folder = TestFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try await ConferenceLibrary.open(folder: folder)
        let file = try TestFiles.coreDatabase(in: TestFiles.folder("server-index")) { _ in }
        let installed = try await DatabaseInstaller(library: library).importDatabase(at: file).database
        let state = try TestFiles.stateDatabase(in: folder)
        var source: String?
        for _ in 0..<500 where source != installed.fileName {
            source = try await state.read { db in try String.fetchOne(db, sql: "SELECT fileName FROM search_source") }
            if source != installed.fileName { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(source == installed.fileName)
        #expect(try await library.search("holland").count == 3)
    }

    /// A file that fails its check leaves the current index answering and no staged one behind.
    @Test func aDamagedFileLeavesTheIndexAsItWas() async throws {
        let folder = TestFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try await ConferenceLibrary.open(folder: folder)
        let before = try await library.search("holland").map(\.id)
        var bytes = try Data(contentsOf: TestFiles.coreDatabase(in: TestFiles.folder("damaged")))
        // Keep the header, wreck the pages after the first: quick_check fails.
        for index in stride(from: 4096, to: bytes.count, by: 7) { bytes[index] = 0xFF }
        let damaged = TestFiles.folder("damaged-file").appendingPathComponent("core.db")
        try bytes.write(to: damaged)
        await #expect(throws: ConferenceError.self) { try await DatabaseInstaller(library: library).importDatabase(at: damaged) }
        #expect(try await library.search("holland").map(\.id) == before)
        let state = try TestFiles.stateDatabase(in: folder)
        #expect(try await state.read { db in try db.tableExists("talk_search_staged") } == false)
    }

    /// The file is attached through a `file:` URI: characters that mean something in a URI must
    /// not change which file that is.
    @Test func aDataFolderWithURICharactersStillIndexes() async throws {
        let parent = TestFiles.folder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let folder = parent.appendingPathComponent("my data?x=1#frag %41 é", isDirectory: true)
        let library = try await ConferenceLibrary.open(folder: folder)
        #expect(try await library.search("holland").count == 3)
        let release = try TestFiles.release("2", in: TestFiles.folder("uri-release"))
        _ = try await DatabaseInstaller(library: library).importDatabase(at: release)
        #expect(try await library.search("holland").count == 3)
        #expect(await library.installedDatabase() != nil)
    }

    /// What the search index held when it was built in Swift: one row per talk, as the screens read it.
    private static func screenRows(_ db: Database) throws -> [SearchHit] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT t.ID, t.Title, t.Date AS talkDate, sp.GivenNames, sp.LastNames, c.Abbr AS conferenceAbbr
            FROM talk t
            LEFT JOIN speaker sp ON sp.ID = t.SpeakerID
            LEFT JOIN conference_talk ct ON ct.TalkID = t.ID
            LEFT JOIN conf_session s ON s.ID = ct.SessionID
            LEFT JOIN conference c ON c.ID = s.ConferenceID
            """)
        var hits: [Int: SearchHit] = [:]
        for row in rows {
            guard let id = row.integer("ID"), hits[id] == nil else { continue }
            hits[id] = SearchHit(id: id, title: row.display("Title"), speaker: row.personName(given: "GivenNames", last: "LastNames"),
                                 conference: row.optionalDisplay("conferenceAbbr"), date: row.optionalDisplay("talkDate"))
        }
        return hits.values.sorted { $0.id < $1.id }
    }

    private static func hit(_ row: Row) -> SearchHit {
        SearchHit(id: row["talkID"], title: row["title"], speaker: row["speaker"], conference: row["conference"], date: row["date"])
    }
}
