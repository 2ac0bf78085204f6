import Foundation
import GRDB
import PocketCore
import Testing
@testable import Conference

/// Screens' answers are kept with the file that gave them (`ScreenMemo`): used again while that
/// file is in use, never after another file is installed, by this process or another.
@Suite("Conference screen memo")
struct ScreenMemoTests {
    @Test func answersAreKeptWithTheirFileAndANewFileStartsAfresh() async throws {
        let folder = TestFiles.folder("screen-memo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await ConferenceLibrary.open(folder: folder)
        #expect(try await server.conferences().conferences.map(\.talkCount) == [33, 32])
        #expect(try await server.talk(id: 8769).title == "As a Little Child")
        #expect(try await server.search("little", limit: 10).map(\.id).contains(8769))
        let sample = try await server.generation()
        #expect(sample.screens.count == 3)
        // The same questions again are answered from memory: nothing more is kept.
        _ = try await server.conferences()
        _ = try await server.talk(id: 8769)
        #expect(sample.screens.count == 3)

        // Another process (the command line beside the server) installs a file that differs.
        let cli = try await ConferenceLibrary.open(folder: folder)
        let file = try TestFiles.coreDatabase(in: TestFiles.folder("screen-memo-release"), name: "core.2.db") { db in
            try db.execute(sql: "DELETE FROM conference_talk WHERE TalkID = 8769")
            try db.execute(sql: "UPDATE talk SET Title = 'Like a Little Child' WHERE ID = 8769")
        }
        _ = try await DatabaseInstaller(library: cli).importDatabase(at: file)

        #expect(try await server.conferences().conferences.map(\.talkCount) == [33, 31])
        #expect(try await server.talk(id: 8769).title == "Like a Little Child")
        #expect(try await server.search("like little", limit: 10).map(\.id) == [8769])
        #expect(try await server.generation() !== sample)
    }

    @Test func aFullMemoStartsAgainRatherThanGrowing() async throws {
        let memo = ScreenMemo()
        #expect(try await memo.answer(.conference(1)) { 1 } == 1)
        for id in 0..<(ScreenMemo.capacity + 10) {
            #expect(try await memo.answer(.talk(id)) { id * 2 } == id * 2)
        }
        // The talks started again; the conference, another kind, stayed.
        #expect(memo.count == 11)
        #expect(try await memo.answer(.conference(1)) { 2 } == 1)
        // A failure is not kept: the next ask computes again.
        await #expect(throws: ConferenceError.unknownTalk(1)) { try await memo.answer(.speaker(1)) { () throws -> Int in throw ConferenceError.unknownTalk(1) } }
        #expect(try await memo.answer(.speaker(1)) { 7 } == 7)
    }
}
