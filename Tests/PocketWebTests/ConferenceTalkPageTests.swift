import Conference
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import PocketWeb

/// The talk page on data the sample does not have: citations with no page number.
@Suite("Conference talk page")
struct ConferenceTalkPageTests {
    @Test func aCitationWithoutAPageShowsNoPageAndNothingOfThePageModel() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conference-nopage-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try await ConferenceLibrary.open(folder: folder)
        // Real data often has no Page; the full-size synthetic database has none at all.
        let databases = folder.appendingPathComponent("databases", isDirectory: true)
        let sample = try #require(try FileManager.default.contentsOfDirectory(atPath: databases.path).first { $0.hasSuffix(".db") })
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('UPDATE citation SET Page = NULL WHERE TalkID = 8770'); c.commit()",
                             databases.appendingPathComponent(sample).path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let app = try await makeApplication(apps: [ConferenceFixtures.app(library)])
        try await app.test(.router) { client in
            let (status, text) = try await client.text("/conference/talks/8770")
            #expect(status == .ok)
            let citations = try #require(text.components(separatedBy: #"id="conference-talk-citations""#).last)
            let cells = citations.components(separatedBy: #"<li class="cell">"#).dropFirst()
            #expect(!cells.isEmpty)
            for cell in cells {
                #expect(!cell.contains("cell__detail"), "a citation without a page shows a detail: \(cell.prefix(300))")
            }
            // Nothing of the page model's debug description leaks into the page.
            for leak in ["PocketWeb.", "Split(", "ConferenceShell", "Optional("] {
                #expect(!text.contains(leak), "the page shows \(leak)")
            }
        }
    }
}
