import Foundation
import GRDB
import PocketCore
import Testing
@testable import Conference

/// Talk texts fetched from a loopback stand-in for their site, stored in the Conference state
/// database and answered from there afterwards.
@Suite("Talk texts")
struct TalkTextArchiveTests {
    private func library() async throws -> (ConferenceLibrary, URL) {
        let folder = TestFiles.folder("talk-texts")
        return (try await ConferenceLibrary.open(folder: folder), folder)
    }

    @Test func aTextIsFetchedOnceStoredWithItsSizeAndKeptAcrossRestarts() async throws {
        let (library, folder) = try await library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = TalkTextFixture()
        let html = "<p>Ünïcode — “quoted” text</p>"
        fixture.set(8769, .text(html))
        try await fixture.serving { base in
            let archive = TalkTextArchive(library: library, base: base, fetcher: LiveHTTPFetcher())
            let before = try await archive.stored(talkID: 8769)
            #expect(before == nil)
            let text = try await archive.text(talkID: 8769)
            #expect(text.html == html)
            #expect(text.size == Data(html.utf8).count)
            #expect(text.source.absoluteString == base.absoluteString + "/content/talks_ajax/8769")
            let again = try await archive.text(talkID: 8769)
            #expect(again.html == html)
            #expect(fixture.requests(for: 8769) == 1)
            // Pocket restarted on the same data: the stored text answers, the site is not asked.
            let reopened = try await ConferenceLibrary.open(folder: folder)
            let later = TalkTextArchive(library: reopened, base: base, fetcher: LiveHTTPFetcher())
            let kept = try await later.text(talkID: 8769)
            #expect(kept.size == Data(html.utf8).count)
            #expect(fixture.requests(for: 8769) == 1)
        }
    }

    @Test func twoReadersAtOnceCauseOneFetch() async throws {
        let (library, folder) = try await library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = TalkTextFixture()
        try await fixture.serving { base in
            let archive = TalkTextArchive(library: library, base: base, fetcher: LiveHTTPFetcher())
            async let first = archive.text(talkID: 8770)
            async let second = archive.text(talkID: 8770)
            let (a, b) = try await (first, second)
            #expect(a.html == "<p>Text of talk 8770</p>" && a == b)
            #expect(fixture.requests(for: 8770) == 1)
        }
    }

    @Test func aFailedFetchSaysWhyAndStoresNothing() async throws {
        let (library, folder) = try await library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = TalkTextFixture()
        fixture.set(1, .status(500))
        fixture.set(2, .stall(seconds: 4))
        fixture.set(3, .text("  \n"))
        try await fixture.serving { base in
            // A generous timeout where the site answers, so a busy test machine cannot turn an
            // answer into a timeout; a short one only for the site that stalls.
            let archive = TalkTextArchive(library: library, base: base, fetcher: LiveHTTPFetcher(), timeout: .seconds(30))
            let impatient = TalkTextArchive(library: library, base: base, fetcher: LiveHTTPFetcher(), timeout: .seconds(1))
            await #expect(throws: ConferenceError.talkTextUnavailable(talkID: 1, detail: "127.0.0.1: the server answered 500")) {
                try await archive.text(talkID: 1)
            }
            await #expect(throws: ConferenceError.talkTextUnavailable(talkID: 2, detail: "127.0.0.1: the server did not answer in time")) {
                try await impatient.text(talkID: 2)
            }
            await #expect(throws: ConferenceError.talkTextUnavailable(talkID: 3, detail: "127.0.0.1 sent no text")) {
                try await archive.text(talkID: 3)
            }
            let stored = try await archive.storedSizes(talkIDs: [1, 2, 3])
            #expect(stored.isEmpty)
            // The site recovers: the next view fetches and stores it.
            fixture.set(1, .text("<p>back</p>"))
            let back = try await archive.text(talkID: 1)
            #expect(back.html == "<p>back</p>")
            #expect(fixture.requests(for: 1) == 2)
        }
        #expect(ConferenceError.talkTextUnavailable(talkID: 1, detail: "x answered 500").description == "The text of talk 1 could not be fetched: x answered 500.")
    }

    /// The talk-text site may not send Pocket on to another server (issue #23, D2: an internal
    /// page's text was shown as a talk's text).
    @Test func aRedirectToAnotherServerIsNotFollowed() async throws {
        let (library, folder) = try await library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let intranet = TalkTextFixture()
        intranet.set(9, .text("<p>the router's admin page</p>"))
        let site = TalkTextFixture()
        try await intranet.serving { intranetBase in
            site.set(5, .redirect(intranetBase.appendingPathComponent("content/talks_ajax/9").absoluteString))
            site.set(6, .redirect("/content/talks_ajax/7"))
            try await site.serving { base in
                let archive = TalkTextArchive(library: library, base: base, fetcher: LiveHTTPFetcher())
                await #expect(throws: ConferenceError.talkTextUnavailable(
                    talkID: 5, detail: "127.0.0.1: the server sent Pocket on to another host (127.0.0.1), which Pocket does not fetch from")) {
                    try await archive.text(talkID: 5)
                }
                let sameSite = try await archive.text(talkID: 6)
                #expect(sameSite.html == "<p>Text of talk 7</p>", "a redirect on the site itself is followed")
            }
        }
        #expect(intranet.requests(for: 9) == 0)
    }

    @Test func ensuringFetchesOnlyTheMissingTextsAndReportsFailures() async throws {
        let (library, folder) = try await library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = TalkTextFixture()
        fixture.set(13, .status(404))
        try await fixture.serving { base in
            let archive = TalkTextArchive(library: library, base: base, fetcher: LiveHTTPFetcher())
            _ = try await archive.text(talkID: 10)
            let results = try await archive.ensure(talkIDs: Array(10...20))
            #expect(results.count == 11)
            for id in 10...20 where id != 13 {
                #expect(try results[id]?.get() == Data("<p>Text of talk \(id)</p>".utf8).count)
            }
            #expect(throws: ConferenceError.talkTextUnavailable(talkID: 13, detail: "127.0.0.1: the server answered 404")) { try results[13]?.get() }
            #expect(fixture.requests(for: 10) == 1)
            let sizes = try await archive.storedSizes(talkIDs: Array(10...20))
            #expect(sizes.count == 10)
        }
    }

    @Test func textsAreFetchedBelowTheBaseKeepingItsPath() {
        // Which base is used (POCKET_SCI_TALKS_URL, checked) is PocketConfiguration's; see PocketCoreTests.
        #expect(TalkTextSource.defaultURL.absoluteString == "http://scriptures.byu.edu")
        let mirror = URL(string: "https://mirror.example/sci/")
        #expect(mirror.map { TalkTextSource.url(talkID: 42, base: $0).absoluteString } == "https://mirror.example/sci/content/talks_ajax/42")
    }

    @Test func thePreviousReleasesStateDatabaseGainsStoredTextsAndKeepsItsData() async throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/previous-release-data/conference", isDirectory: true)
        let root = TestFiles.folder("previous-release-texts")
        let folder = root.appendingPathComponent("conference", isDirectory: true)
        try FileManager.default.copyItem(at: fixture, to: folder)
        defer { try? FileManager.default.removeItem(at: root) }
        let library = try await ConferenceLibrary.open(folder: folder)
        #expect(try await library.recentTalks(of: .firstOwner, limit: 10).map(\.id) == [8803, 8802])
        let texts = TalkTextFixture()
        try await texts.serving { base in
            let archive = TalkTextArchive(library: library, base: base, fetcher: LiveHTTPFetcher())
            let text = try await archive.text(talkID: 8802)
            #expect(text.html == "<p>Text of talk 8802</p>")
            let sizes = try await archive.storedSizes(talkIDs: [8802, 8803])
            #expect(sizes == [8802: 24])
        }
    }
}
