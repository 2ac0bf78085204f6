import Conference
import Foundation
import NIOCore
import Testing
@testable import PocketWeb

/// The Conference page models and helpers, without a server.
@Suite("Conference page models")
struct ConferenceModelTests {
    @Test func listSourcesRoundTripThroughTheirToken() {
        let sources: [TalkListSource] = [.conference(202504), .speaker(12), .verse(book: 141, chapter: 9, verse: 33),
                                         .verse(book: 4, chapter: 76, verse: nil), .search("faith & hope")]
        for source in sources {
            #expect(TalkListSource(token: source.token) == source)
        }
        for bad in [nil, "", "speaker", "speaker-x", "verse-1-2", "verse-1-2-x", "planet-3", "search-"] {
            #expect(TalkListSource(token: bad) == nil)
        }
        #expect(ConferenceRoute.talkHref(8, from: .search("a&b=c")) == "/conference/talks/8?from=search-a%26b%3Dc")
        #expect(ConferenceRoute.verseHref(book: 4, chapter: 76, verse: nil) == "/conference/citations/4/76/all")
        #expect(ConferenceRoute.searchHref("a b") == "/conference/search?q=a%20b")
    }

    @Test func formattingOfDatesSizesAndTimeLeft() {
        #expect(ConferenceFormat.date("2025-04-05") == "April 5, 2025")
        #expect(ConferenceFormat.date("2025-10-05 00:00:00") == "October 5, 2025")
        #expect(ConferenceFormat.date("Spring 1971") == "Spring 1971")
        #expect(ConferenceFormat.date("") == nil)
        #expect(ConferenceFormat.bytes(1) == "1 byte")
        #expect(ConferenceFormat.bytes(999) == "999 bytes")
        #expect(ConferenceFormat.bytes(12_306_144) == "12.3 MB")
        #expect(ConferenceFormat.remaining(0.2) == "about 1 s left")
        #expect(ConferenceFormat.remaining(61) == "about 2 min left")
        #expect(ConferenceFormat.remaining(.infinity) == nil)
    }

    @Test func theInstallPanelShowsBytesSpeedAndTimeLeftWhileDownloading() throws {
        let progress = InstallProgress(phase: .downloading, bytesDone: 3_700_000, totalBytes: 12_300_000, bytesPerSecond: 2_100_000,
                                       secondsRemaining: 4.1, version: "53")
        let panel = InstallPanel(job: .download, progress: progress, outcome: nil)
        #expect(panel.running)
        #expect(panel.heading == "Installing version 53")
        let transfer = try #require(panel.transfer)
        #expect(transfer.value == 3_700_000 && transfer.max == 12_300_000 && transfer.percent == 30)
        #expect(transfer.bytes == "3.7 MB of 12.3 MB")
        #expect(transfer.speed == "2.1 MB/s")
        #expect(transfer.remaining == "about 5 s left")
        let checking = InstallPanel(job: .download, progress: InstallProgress(phase: .checkingDatabase), outcome: nil)
        #expect(checking.running && checking.transfer == nil && checking.phase == "Checking the database")
        let failed = InstallPanel(job: nil, progress: InstallProgress(phase: .failed("x")), outcome: .failed("The zip archive does not contain core.53.db"))
        #expect(!failed.running)
        #expect(failed.failure == "The zip archive does not contain core.53.db. The previous database is still in use.")
        #expect(InstallPanel.failureText(ConferenceError.cancelled.description) == ConferenceError.cancelled.description)
        let idle = InstallPanel(job: nil, progress: .idle, outcome: nil)
        #expect(!idle.running && idle.success == nil && idle.failure == nil)
    }

    @Test func theInstallPanelFragmentIsWhatTheEventStreamSends() throws {
        let progress = InstallProgress(phase: .downloading, bytesDone: 3_700_000, totalBytes: 12_300_000, bytesPerSecond: nil,
                                       secondsRemaining: 4.1, version: "<53>")
        let running = InstallPanel(job: .download, progress: progress, outcome: nil).html.text
        #expect(running.hasPrefix(#"<div class="conference-install" id="conference-install" aria-live="polite">"#))
        #expect(running.contains(#"<span class="cell__title" id="conference-install-heading">Installing version &lt;53&gt;</span>"#))
        #expect(running.contains(#"<progress class="progress" id="conference-install-bar" max="12300000" value="3700000">30%</progress>"#))
        #expect(running.contains(#"id="conference-install-phase">Downloading 30%…</label>"#))
        #expect(running.contains(#"<span id="conference-install-remaining">about 5 s left</span>"#))
        // No speed measured yet: no separator and no empty speed.
        #expect(!running.contains("conference-install-speed"))
        let checking = InstallPanel(job: .download, progress: InstallProgress(phase: .checkingDatabase), outcome: nil).html.text
        #expect(checking.contains(#"<progress class="progress" id="conference-install-bar">Checking the database</progress>"#))
        #expect(!checking.contains("conference-install-bytes"))
        let failed = InstallPanel(job: nil, progress: InstallProgress(phase: .failed("x")), outcome: .failed("<b>broken</b>"))
        let event = ConferencePages.panelEvent(failed)
        #expect(event.data.hasPrefix("<div") && event.data.hasSuffix("</div>"))
        #expect(event.data.contains(#"role="alert">&lt;b&gt;broken&lt;/b&gt;. The previous database is still in use.</p>"#))
        #expect(!event.data.contains("conference-install-heading"))
    }

    @Test func talkModelLinksCitationsAndClassifiesMedia() throws {
        let detail = TalkDetail(
            id: 5, title: "T <b>", speaker: "A Speaker", speakerID: 7,
            conference: ConferenceReference(id: 1, abbr: "Apr 1990", description: "April 1990"),
            session: SessionReference(id: 2, description: "Sunday Morning", date: "1990-04-01"), date: nil, corpus: "G",
            pages: PageRange(start: 4, end: 6), url: URL(string: "https://example.org/talk"),
            contentURL: TalkDetail.contentURL(talkID: 5),
            media: [MediaLink(kind: .audio, url: try #require(URL(string: "https://media.example/a.mp3"))),
                    MediaLink(kind: .videoHigh, url: try #require(URL(string: "https://media.example/v.MP4"))),
                    MediaLink(kind: .video, url: try #require(URL(string: "https://www.example.org/watch?v=1"))),
                    MediaLink(kind: .audio, url: try #require(URL(string: "javascript:alert(1)")))],
            previous: nil, next: TalkSummary(id: 6, title: "Next", speaker: "", speakerID: nil, pages: nil),
            citations: [TalkCitation(id: 1, bookID: 141, chapter: 9, verses: "33-35", reference: "Mark 9:33–35", page: 9),
                        TalkCitation(id: 2, bookID: 401, chapter: 76, verses: nil, reference: "D&C 76", page: nil)])
        let talk = ConferenceTalk(detail, from: .speaker(7), citationsAvailable: true)
        // Not bookmarked: the button bookmarks, and the form returns to the talk in its list.
        #expect(talk.bookmark.action == "/conference/talks/5/bookmark")
        #expect(talk.bookmark.newValue == "1" && talk.bookmark.label == "Bookmark")
        #expect(talk.bookmark.returnTo == "/conference/talks/5?from=speaker-7")
        let bookmarked = ConferenceTalk(detail, from: nil, citationsAvailable: true, isBookmarked: true)
        #expect(bookmarked.bookmark.newValue == "0" && bookmarked.bookmark.label == "Remove Bookmark")
        #expect(bookmarked.bookmark.returnTo == "/conference/talks/5")
        // The text comes from Pocket's own origin (a stored copy), never straight from the source.
        #expect(talk.textURL == "/conference/talks/5/text")
        #expect(talk.media.map(\.kind) == [.audio, .video, .link])
        #expect(talk.media[0].label == "Listen" && talk.media[1].label == "Watch (high quality)")
        #expect(talk.citations.map(\.href) == ["/conference/citations/141/9/33", "/conference/citations/401/76/all"])
        #expect(talk.next?.href == "/conference/talks/6")
        #expect(talk.facts.map(\.label) == ["Speaker", "Conference", "Session", "Date", "Pages"])
        #expect(talk.facts[3].value == "April 1, 1990" && talk.facts[4].value == "pp. 4–6")
        #expect(ConferenceTalk.firstVerse(" 1,3") == 1 && ConferenceTalk.firstVerse("x") == nil)
    }

    @Test func theBannerOffersTheDownloadOnlyWithTheSample() throws {
        let manifest = try SCIManifest.parse(Data(#"{"version":"53","download-name":"sci-core.53.zip","download-size":"12306144","download-md5":"98a5fb6b992609736d4a8590cbd448e3","content-name":"core.53.db","content-size":"39211008","content-md5":"f44ac4aa3ee1fe32c7cf7bd44687ee6f"}"#.utf8))
        let sample = ConferenceShell(section: .search, isSample: true, offer: UpdateOffer(manifest))
        #expect(sample.banner?.actionLabel == "Download the full database (12.3 MB)")
        #expect(sample.tabs.filter(\.current).map(\.label) == ["Search"])
        #expect(ConferenceShell(section: .conferences, isSample: false, offer: UpdateOffer(manifest)).banner == nil)
        #expect(ConferenceShell(section: .conferences, isSample: true, offer: nil).banner?.actionLabel == "Install the full database")
        // Offline, the manifest's server could not be reached: no size, and the banner says why.
        #expect(ConferenceShell(section: .conferences, isSample: true, offer: nil, unreachable: true).banner?.actionLabel
            == "Install the full database (its server cannot be reached now)")
        // While the start-up check is still waiting for the server (up to its timeout), the banner says so.
        let asking = ConferenceShell(section: .conferences, isSample: true, offer: nil, unreachable: true, checking: "/conference/settings/events?since=3")
        #expect(asking.banner?.actionLabel == "Install the full database (asking its server now)")
        #expect(asking.banner?.liveHref == "/conference/settings/events?since=3", "the banner changes by itself when the check ends")
        #expect(ConferenceShell(section: .settings, isSample: true, offer: nil, checking: "/conference/settings/events?since=3").banner?.liveHref == nil)
    }

    /// Every event `Reader` gives for `body` fed `size` bytes at a time, then whether it finished.
    private static func read(_ body: [UInt8], boundary: String, size: Int) -> (events: [MultipartFileUpload.Event], finished: Bool) {
        var events: [MultipartFileUpload.Event] = []
        do {
            var reader = try MultipartFileUpload.Reader(boundary: boundary)
            var index = 0
            while index < body.count {
                events += try reader.feed(ByteBuffer(bytes: body[index..<min(body.count, index + size)]))
                index += size
            }
            try reader.finish()
            return (events, true)
        } catch {
            // Each way of being refused is the one failure, so a form has one message for all.
            let isMalformed = error == .malformed
            #expect(isMalformed)
            return (events, false)
        }
    }

    @Test func multipartPartsAreFoundWhereverTheChunksSplit() {
        let boundary = "XyZ123"
        let payload = Array("line one\r\n--XyZ12 not quite\r\n--Xy".utf8) + [0, 255, 13, 10]
        var body = Array("preamble\r\n--XyZ123\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue\r\n".utf8)
        body += Array("--XyZ123\r\nContent-Disposition: form-data; name=\"database\"; filename=\"core.db\"\r\n\r\n".utf8)
        body += payload
        body += Array("\r\n--XyZ123--\r\nepilogue".utf8)
        for size in [1, 2, 3, 7, 16, body.count] {
            let (events, finished) = Self.read(body, boundary: boundary, size: size)
            #expect(finished, "chunk size \(size)")
            var parts: [(headers: MultipartFileUpload.PartHeaders, bytes: [UInt8], ended: Bool)] = []
            for event in events {
                switch event {
                case .part(let headers): parts.append((headers, [], false))
                case .data(let bytes): parts[parts.count - 1].bytes += Array(bytes.readableBytesView)
                case .partEnd: parts[parts.count - 1].ended = true
                }
            }
            #expect(parts.map(\.headers) == [.init(name: "a"), .init(name: "database", fileName: "core.db")], "chunk size \(size)")
            #expect(parts.map(\.bytes) == [Array("value".utf8), payload], "chunk size \(size)")
            #expect(parts.map(\.ended) == [true, true], "chunk size \(size)")
        }
        #expect(MultipartFileUpload.boundary(contentType: "multipart/form-data; boundary=\"abc\"") == "abc")
        #expect(MultipartFileUpload.boundary(contentType: "Multipart/Form-Data; charset=utf-8; Boundary=abc") == "abc")
        #expect(MultipartFileUpload.boundary(contentType: "multipart/form-data; boundary=\"\"") == nil)
        #expect(MultipartFileUpload.boundary(contentType: "multipart/form-data; boundary=" + String(repeating: "b", count: 71)) == nil)
        #expect(MultipartFileUpload.boundary(contentType: "application/json") == nil)
        #expect(MultipartFileUpload.sanitisedName("C:\\x\\..\\core 53<b>.db") == "core53b.db")
        #expect(MultipartFileUpload.sanitisedName("../..") == "imported.db")
    }

    @Test func aMultipartBodyThatIsCutShortOrNotAFormIsMalformed() {
        let part = "--B0und\r\nContent-Disposition: form-data; name=\"database\"; filename=\"core.db\"\r\n\r\nabc"
        let whole = part + "\r\n--B0und--\r\n"
        for size in [1, 5, 4096] {
            #expect(Self.read(Array(whole.utf8), boundary: "B0und", size: size).finished)
            // A long epilogue after the closing delimiter is ignored, as before.
            #expect(Self.read(Array((whole + String(repeating: "e", count: 40_000)).utf8), boundary: "B0und", size: size).finished)
            let refused = [
                ("another boundary", whole, "Other"),
                ("cut inside a part", part, "B0und"),
                ("cut inside the closing delimiter", part + "\r\n--B0u", "B0und"),
                ("cut after a part's delimiter", part + "\r\n--B0und\r\n", "B0und"),
                ("cut inside the next part's headers", part + "\r\n--B0und\r\nContent-Disposition: form-da", "B0und"),
                ("a header without a colon", "--B0und\r\nnonsense\r\n\r\nabc\r\n--B0und--", "B0und"),
                ("an empty body", "", "B0und"),
                ("a preamble longer than a form has", String(repeating: "p", count: 40_000) + whole, "B0und"),
                ("a header line longer than a form has",
                 "--B0und\r\nContent-Disposition: form-data; name=\"" + String(repeating: "n", count: 40_000) + "\"\r\n\r\nabc\r\n--B0und--", "B0und"),
            ]
            for (what, body, boundary) in refused {
                #expect(!Self.read(Array(body.utf8), boundary: boundary, size: size).finished, "\(what), chunk size \(size)")
            }
        }
    }

    @Test func uploadsStopAtTheSizeLimit() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let upload = ConferenceFixtures.multipart(fileName: "big.db", data: Data(repeating: 7, count: 5000), boundary: "B0und")
        let chunks = stride(from: 0, to: upload.body.readableBytes, by: 1000).map { start in
            upload.body.getSlice(at: start, length: min(1000, upload.body.readableBytes - start)) ?? ByteBuffer()
        }
        await #expect(throws: MultipartFileUpload.Failure.tooLarge(limit: 4096)) {
            try await MultipartFileUpload(field: "database", boundary: "B0und", limit: 4096).save(AsyncStreamOf(chunks), into: folder)
        }
        let saved = try await MultipartFileUpload(field: "database", boundary: "B0und", limit: 5000).save(AsyncStreamOf(chunks), into: folder)
        #expect(saved.size == 5000 && saved.fileName == "big.db")
        #expect(try Data(contentsOf: saved.file) == Data(repeating: 7, count: 5000))
    }

    @Test func bookmarkFormsMayOnlyReturnIntoTheApp() {
        #expect(ReturnAddress.within(ConferenceRoute.prefix, "/conference/talks/5?from=speaker-7", otherwise: ConferenceRoute.talk.href(5)) == "/conference/talks/5?from=speaker-7")
        for hostile in [nil, "", "https://evil.example/", "//evil.example", "/conference//evil", "/conferences", "/plates", "/conference/x\r\nSet-Cookie: a"] {
            #expect(ReturnAddress.within(ConferenceRoute.prefix, hostile, otherwise: ConferenceRoute.talk.href(5)) == "/conference/talks/5")
        }
        #expect(ConferenceRoute.bookmark.href(5) == "/conference/talks/5/bookmark")
    }

    @Test func theConferencesScreenListsBookmarksBesideRecentTalks() {
        let talk = TalkSummary(id: 8802, title: "A Talk", speaker: "A Speaker", speakerID: 1, pages: nil)
        let list = ConferenceList(conferences: [], footer: DatabaseFooter(isSample: true, version: nil, lastUpdated: nil))
        let shell = ConferenceShell(section: .conferences, isSample: true, offer: nil)
        let model = ConferenceScreens.Conferences(shell: shell, list: list, recent: [], bookmarks: [talk], warning: nil)
        #expect(model.bookmarks.map(\.href) == ["/conference/talks/8802"])
        #expect(model.bookmarks.first?.subtitle == "A Speaker")
        let html = ConferenceScreens.Conferences.View(model: model).body.text
        #expect(html.contains(#"id="conference-bookmarks""#) && !html.contains("conference-recent"))
        let recentOnly = ConferenceScreens.Conferences.View(model: ConferenceScreens.Conferences(shell: shell, list: list, recent: [talk], warning: nil)).body.text
        #expect(recentOnly.contains(#"id="conference-recent""#) && !recentOnly.contains("conference-bookmarks"))
    }

    @Test func onlyOwnersSeeTheInstallImportAndCheckControls() async throws {
        let library = try await ConferenceFixtures.library()
        defer { try? FileManager.default.removeItem(at: library.folder) }
        let updates = ConferenceUpdates(library: library, installer: DatabaseInstaller(library: library),
                                        manifestURL: try #require(URL(string: "http://127.0.0.1:9/sci-core.json")), autoUpdate: false)
        let status = try await library.status()
        let snapshot = await updates.snapshot()
        let shell = ConferenceShell(section: .settings, isSample: true, offer: nil)
        let owner = ConferenceSettings(shell: shell, status: status, updates: snapshot, csrfToken: "t", isOwner: true)
        #expect(owner.canInstall)
        let member = ConferenceSettings(shell: shell, status: status, updates: snapshot, csrfToken: "t", isOwner: false)
        #expect(!member.canInstall)
        // The page itself: no forms that change the database, only the one line.
        let pageContext = ConferenceFixtures.pageContext(csrfToken: "t&k")
        let html = ConferenceSettings.View(model: member, pageContext: pageContext).body.text
        #expect(html.contains(#"id="conference-owner-only">Only an owner can install or import a database."#))
        #expect(!html.contains("conference-check-button"))
        #expect(!html.contains("conference-import"))
        let ownerHTML = ConferenceSettings.View(model: owner, pageContext: pageContext).body.text
        #expect(ownerHTML.contains("conference-check-button"))
        #expect(ownerHTML.contains("conference-import"))
        #expect(!ownerHTML.contains("Only an owner"))
        // The check form posts the request's CSRF token, escaped.
        #expect(ownerHTML.contains(#"<form class="cell" method="post" action="/conference/settings/check"><input type="hidden" name="_csrf" value="t&amp;k">"#))
    }
}

/// An async sequence over a fixed array of chunks, as a request body delivers them.
private struct AsyncStreamOf: AsyncSequence {
    typealias Element = ByteBuffer
    let chunks: [ByteBuffer]
    init(_ chunks: [ByteBuffer]) { self.chunks = chunks }
    struct AsyncIterator: AsyncIteratorProtocol {
        var rest: ArraySlice<ByteBuffer>
        mutating func next() async -> ByteBuffer? { rest.popFirst() }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(rest: chunks[...]) }
}
