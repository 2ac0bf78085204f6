import Foundation
import GRDB
import PocketCore
import Testing
@testable import Conference

/// The digest (`CoreDigest`): counts and orderings computed once per installed file into Pocket's
/// own database, which the screens read instead of the file.
@Suite("Conference digest")
struct DigestTests {
    // MARK: Same answers

    @Test(arguments: DatabaseKind.allCases)
    func theDigestAnswersExactlyAsTheFileDoes(_ kind: DatabaseKind) async throws {
        let folder = TestFiles.folder("digest")
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try await ConferenceLibrary.open(folder: folder.appendingPathComponent("pocket"))
        let file = try kind.make(in: folder)
        if kind != .sample { _ = try await DatabaseInstaller(library: library).importDatabase(at: file) }
        let digest = try await Self.digestID(of: library)
        #expect(digest != nil)
        try await Self.expectSameAnswers(library, as: library.generation().file)
    }

    /// The screens really read the digest: a count changed in it shows (and a new install puts it right).
    @Test func theScreensReadTheDigest() async throws {
        let folder = TestFiles.folder("digest-read")
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try await ConferenceLibrary.open(folder: folder)
        let book = try #require(try await Self.state(of: folder).read { db in try Int.fetchOne(db, sql: "SELECT bookKey FROM digest_chapter") })
        try await Self.state(of: folder).write { db in
            try db.execute(sql: "UPDATE digest_conference SET talkCount = 99")
            try db.execute(sql: "UPDATE digest_speaker SET talkCount = 98")
            try db.execute(sql: "UPDATE digest_chapter SET citationCount = 97")
            try db.execute(sql: "UPDATE digest_book SET citationCount = 96")
            // April's talks in reverse.
            try db.execute(sql: "UPDATE digest_talk SET position = -1 - position WHERE conferenceKey = 202504")
            try db.execute(sql: "UPDATE digest SET talks = 95")
        }
        #expect(try await library.conferences().conferences.map(\.talkCount) == [99, 99])
        let april = try await library.conference(id: 202504).sessions.flatMap(\.talks).map(\.id)
        #expect(april.count == 32 && april.last == 8769)
        #expect(try await library.talk(id: 8774).next?.id == 8773)
        #expect(try await library.speakers().first?.speakers.first?.talkCount == 98)
        #expect(try await library.citationVolumes().first?.citationCount == 96)
        #expect(try await library.citations(bookID: book).chapters.first?.citationCount == 97)
        #expect(try await library.status().counts.talks == 95)

        let release = try TestFiles.release("2", in: TestFiles.folder("digest-read-release"))
        _ = try await DatabaseInstaller(library: library).importDatabase(at: release)
        #expect(try await library.conferences().conferences.map(\.talkCount) == [33, 32])
        try await Self.expectSameAnswers(library, as: library.generation().file)
    }

    // MARK: Installs

    /// Each install brings its own digest; the previous one is deleted with it.
    @Test func aNewInstallReplacesTheDigest() async throws {
        try await InstallerHarness.run { harness in
            try await harness.install(Release.make("2", in: TestFiles.folder("digest-2")))
            let first = try await Self.digests(in: harness.folder)
            #expect(first.count == 1)
            #expect(first.first?.fileName == (await harness.library.installedDatabase())?.fileName)

            // Version 3 lacks October's Saturday sessions and a speaker's talks move to another.
            let folder = TestFiles.folder("digest-3")
            let file = try TestFiles.coreDatabase(in: folder, name: "core.3.db") { db in
                try db.execute(sql: """
                    UPDATE updated SET last_updated = 'release 3';
                    DELETE FROM conference_talk WHERE SessionID IN (SELECT ID FROM conf_session WHERE ConferenceID = 202510 AND Sequence <= 3);
                    UPDATE talk SET SpeakerID = 1127 WHERE ID IN (8770, 8771);
                    DELETE FROM citation WHERE BookID = 102;
                    """)
            }
            let content = try Data(contentsOf: file)
            let release = Release(version: "3", database: content, zip: try TestFiles.zip([("core.3.db", content)]),
                                  zipName: "sci-core.3.zip", contentName: "core.3.db")
            try await harness.install(release)
            let second = try await Self.digests(in: harness.folder)
            #expect(second.count == 1)
            #expect(second.first?.fileName == (await harness.library.installedDatabase())?.fileName)
            #expect(second.first?.id != first.first?.id)
            #expect(try await harness.library.conference(id: 202510).sessions.map(\.sequence) == [4, 5])
            try await Self.expectSameAnswers(harness.library, as: harness.library.generation().file)
        }
    }

    /// A file that fails its check leaves the digest in use and no staged one behind.
    @Test func aDamagedFileLeavesTheDigestAsItWas() async throws {
        let folder = TestFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try await ConferenceLibrary.open(folder: folder)
        let before = try await Self.digests(in: folder)
        var bytes = try Data(contentsOf: TestFiles.coreDatabase(in: TestFiles.folder("digest-damaged")))
        for index in stride(from: 4096, to: bytes.count, by: 7) { bytes[index] = 0xFF }
        let damaged = TestFiles.folder("digest-damaged-file").appendingPathComponent("core.db")
        try bytes.write(to: damaged)
        await #expect(throws: ConferenceError.self) { try await DatabaseInstaller(library: library).importDatabase(at: damaged) }
        #expect(try await Self.digests(in: folder) == before)
        #expect(try await library.conferences().conferences.map(\.talkCount) == [33, 32])
    }

    /// Another Pocket process (the CLI beside the server) installs: this one finds that file's digest.
    @Test func anotherProcessesInstallBringsItsDigest() async throws {
        let folder = TestFiles.folder("digest-processes")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await ConferenceLibrary.open(folder: folder)
        let cli = try await ConferenceLibrary.open(folder: folder)
        let file = try TestFiles.coreDatabase(in: TestFiles.folder("digest-processes-release"), name: "core.2.db") { db in
            try db.execute(sql: "DELETE FROM conference_talk WHERE TalkID = 8769")
        }
        _ = try await DatabaseInstaller(library: cli).importDatabase(at: file)
        #expect(try await server.conferences().conferences.map(\.talkCount) == [33, 31])
        try await Self.expectSameAnswers(server, as: server.generation().file)
        #expect(try await Self.digests(in: folder).count == 1)
    }

    /// A digest deleted under a running library (by another process's install) is not needed to answer.
    @Test func aMissingDigestIsRebuiltAndTheFileAnswersMeanwhile() async throws {
        let folder = TestFiles.folder("digest-missing")
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try await ConferenceLibrary.open(folder: folder)
        try await Self.state(of: folder).write { db in try CoreDigest.delete(db, where: "1") }
        try await Self.expectSameAnswers(library, as: library.generation().file)
        #expect(try await Self.digests(in: folder).count == 1)
    }

    // MARK: Upgrades

    /// The previous release's data folder (sample in use, no digest tables) gets its digest when opened.
    @Test func thePreviousReleasesDataFolderGetsADigest() async throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/previous-release-data/conference", isDirectory: true).standardizedFileURL
        let parent = TestFiles.folder("digest-previous-release")
        defer { try? FileManager.default.removeItem(at: parent) }
        let folder = parent.appendingPathComponent("conference", isDirectory: true)
        try FileManager.default.copyItem(at: fixture, to: folder)
        let before = try await TestFiles.stateDatabase(in: folder).read { db in try db.tableExists("digest") }
        #expect(!before)

        let library = try await ConferenceLibrary.open(folder: folder)
        #expect(try await Self.digests(in: folder).map(\.fileName) == [SampleDatabase.fileName])
        try await Self.expectSameAnswers(library, as: library.generation().file)
        #expect(try await library.recentTalks(of: .firstOwner, limit: 10).map(\.id) == [8803, 8802])
    }

    /// A database installed before digests existed (its state database without the third
    /// migration) is given one when next opened, without reinstalling.
    @Test func aDatabaseInstalledBeforeDigestsGetsOneWhenOpened() async throws {
        let folder = TestFiles.folder("digest-upgrade")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let library = try await ConferenceLibrary.open(folder: folder)
            let rows = try SyntheticDatabase.rows(from: SampleFacts.bundled(), seed: 5, conferences: 4, talks: 160, citations: 1200)
            let path = TestFiles.folder("digest-upgrade-file").appendingPathComponent("synthetic.db")
            try CoreDatabaseWriter.write(rows, to: path)
            _ = try await DatabaseInstaller(library: library).importDatabase(at: path)
            try await library.setBookmark(true, talkID: 3, for: .firstOwner)
        }
        // As the previous release left it: no digest tables, and its migration not yet run.
        try await Self.state(of: folder).write { db in
            for table in CoreDigest.tables + ["digest"] { try db.execute(sql: "DROP TABLE \(table)") }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v3:%'")
        }
        let reopened = try await ConferenceLibrary.open(folder: folder)
        let record = try #require(await reopened.installedDatabase())
        #expect(try await Self.digests(in: folder).map(\.fileName) == [record.fileName])
        try await Self.expectSameAnswers(reopened, as: reopened.generation().file)
        #expect(try await reopened.bookmarkedTalks(of: .firstOwner).map(\.id) == [3])
    }

    // MARK: Support

    enum DatabaseKind: String, CaseIterable, Sendable {
        case sample, oldEra, synthetic, syntheticWithHistory, untidy

        func make(in folder: URL) throws -> URL {
            switch self {
            case .sample:
                return folder
            case .oldEra:
                return try TestFiles.oldEraDatabase(in: folder)
            case .synthetic, .syntheticWithHistory:
                let rows = try SyntheticDatabase.rows(from: SampleFacts.bundled(), seed: 3, scale: self == .synthetic ? 1 : 3,
                                                      conferences: 8, talks: 400, citations: 4000)
                let file = folder.appendingPathComponent("\(rawValue).db")
                try CoreDatabaseWriter.write(rows, to: file)
                return file
            case .untidy:
                // What real files hold: entities and spaces to tidy, a dangling speaker, a speaker
                // listed twice, a talk without pages, a chapter stored as text, a citation of no book.
                return try TestFiles.coreDatabase(in: folder, name: "untidy.db") { db in
                    try db.execute(sql: """
                        UPDATE talk SET Title = '  Women&rsquo;s &#8220;Work&#x201D;&nbsp;' WHERE ID = 8772;
                        UPDATE talk SET SpeakerID = 99999 WHERE ID = 8777;
                        INSERT INTO speaker SELECT * FROM speaker WHERE ID = (SELECT SpeakerID FROM talk WHERE ID = 8780);
                        UPDATE conference_talk SET StartPageNum = NULL, EndPageNum = NULL WHERE TalkID = 8781;
                        UPDATE conf_session SET Description = ' Sunday&nbsp;Morning ' WHERE ID = 2025044;
                        UPDATE citation SET Chapter = 'x' WHERE ID = 5;
                        UPDATE citation SET BookID = 9999 WHERE ID = 6;
                        UPDATE conference SET Abbr = '&nbsp;Apr&nbsp;2025' WHERE ID = 202504;
                        """)
                }
            }
        }
    }

    /// Every screen the digest serves, asked of `library` and computed directly from `file` by
    /// the screens' own queries, for every conference, talk and book (and ids that do not exist).
    static func expectSameAnswers(_ library: ConferenceLibrary, as file: URL,
                                  sourceLocation: SourceLocation = #_sourceLocation) async throws {
        var configuration = Configuration()
        configuration.readonly = true
        let core = try DatabaseQueue(path: file.path, configuration: configuration)
        defer { try? core.close() }
        let schema = try await core.read { db in try CoreSchema.detect(db) }
        let status = try await library.status()
        #expect(status.counts == (try await core.read { db in try CoreQueries.counts(db, schema: schema) }), sourceLocation: sourceLocation)

        let list = try await library.conferences()
        let conferences = try await core.read { db in try CoreQueries.conferences(db, schema: schema) }
        #expect(list.conferences == conferences, sourceLocation: sourceLocation)
        for id in conferences.map(\.id) + [0, -1] {
            let direct = try await core.read { db in Result(catching: { try CoreQueries.conference(db, schema: schema, id: id) }) }
            let digest = await Result(catching: { try await library.conference(id: id) })
            #expect(String(describing: digest) == String(describing: direct), "conference \(id)", sourceLocation: sourceLocation)
        }
        let talkIDs = try await core.read { db in try Int.fetchAll(db, sql: "SELECT ID FROM talk WHERE typeof(ID) = 'integer'") }
        for id in talkIDs + [0] {
            let direct = try await core.read { db in Result(catching: { try CoreQueries.talk(db, schema: schema, id: id) }) }
            let digest = await Result(catching: { try await library.talk(id: id) })
            #expect(String(describing: digest) == String(describing: direct), "talk \(id)", sourceLocation: sourceLocation)
        }
        #expect(try await library.speakers() == (try await core.read { db in try CoreQueries.speakers(db, schema: schema) }),
                sourceLocation: sourceLocation)
        guard schema.capabilities.citations else {
            await #expect(throws: ConferenceError.citationsUnavailable, sourceLocation: sourceLocation) { try await library.citationVolumes() }
            return
        }
        #expect(try await library.citationVolumes() == (try await core.read { db in try CoreQueries.volumes(db, schema: schema) }),
                sourceLocation: sourceLocation)
        let bookIDs = try await core.read { db in try Int.fetchAll(db, sql: "SELECT ID FROM book") }
        for id in bookIDs + [9999, 0] {
            let direct = try await core.read { db in Result(catching: { try CoreQueries.book(db, schema: schema, id: id) }) }
            let digest = await Result(catching: { try await library.citations(bookID: id) })
            #expect(String(describing: digest) == String(describing: direct), "book \(id)", sourceLocation: sourceLocation)
        }
    }

    static func state(of folder: URL) throws -> DatabaseQueue {
        try TestFiles.stateDatabase(in: folder)
    }

    static func digestID(of library: ConferenceLibrary) async throws -> Int64? {
        let generation = try await library.generation()
        return try await library.state.digestID(for: generation.file.lastPathComponent)
    }

    struct Digest: Equatable {
        let id: Int64
        let fileName: String?
    }

    static func digests(in folder: URL) async throws -> [Digest] {
        try await state(of: folder).read { db in
            try Row.fetchAll(db, sql: "SELECT id, fileName FROM digest ORDER BY id").map { Digest(id: $0["id"], fileName: $0["fileName"]) }
        }
    }
}

private extension Result where Failure == any Error {
    /// Captures an async throwing call.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
