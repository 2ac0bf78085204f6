import Conference
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import PocketWeb

/// The Conference screens through the real router, on a library in a temporary folder serving the
/// built-in sample (real 2025 data); installs come from a loopback server.
@Suite("Conference routes")
struct ConferenceRouteTests {
    @Test func conferencesAreNewestFirstWithFooterTabsAndSampleBanner() async throws {
        let app = try await makeApplication(apps: [ConferenceFixtures.app(try await ConferenceFixtures.library())])
        try await app.test(.router) { client in
            let home = try await client.text("/")
            #expect(home.text.contains(#"<a class="app-tile" href="/conference""#))
            let page = try await client.text("/conference")
            #expect(page.status == .ok)
            #expect(page.text.contains("<title>Conferences · Pocket</title>"))
            let october = try #require(page.text.range(of: "October 2025 General Conference"))
            let april = try #require(page.text.range(of: "April 2025 General Conference"))
            #expect(october.lowerBound < april.lowerBound)
            #expect(page.text.contains(#"<p class="list-section__footer" id="conference-footer">Sample data (April and October 2025) · Last updated 2025-10-05 00:00:00</p>"#))
            #expect(page.text.contains(#"id="conference-sample-banner""#))
            #expect(page.text.contains(#"href="/static/css/apps/conference.css?v="#))
            for tab in ["Conferences", "Citations", "Speakers", "Search", "Settings"] {
                #expect(page.text.contains(#"<span class="conference-tab__label">\#(tab)</span>"#))
            }
            #expect(page.text.contains(#"<a class="conference-tab" href="/conference" data-transition="none" aria-current="page">"#))
        }
    }

    @Test func aConferenceListsItsTalksBySessionWithSpeakers() async throws {
        let app = try await makeApplication(apps: [ConferenceFixtures.app(try await ConferenceFixtures.library())])
        try await app.test(.router) { client in
            let page = try await client.text("/conference/conferences/202504")
            #expect(page.status == .ok)
            let headers = page.text.components(separatedBy: #"<h2 class="list-section__header" id="session-"#).dropFirst()
                .compactMap { $0.split(separator: ">", maxSplits: 1).last.map { String($0.prefix { $0 != "<" }) } }
            #expect(headers.first == "Saturday Morning Session")
            #expect(headers.count == 5)
            #expect(page.text.contains(#"<span class="cell__title">As a Little Child</span><span class="cell__subtitle">Jeffrey R. Holland</span>"#))
            #expect(page.text.contains(#"<a class="cell__main" href="/conference/talks/8769?from=conference-202504">"#))
            #expect(page.text.contains(#"class="split split--pane conference-split""#))
            #expect(page.text.contains(#"<p class="split__placeholder">Select a talk</p>"#))
            #expect(page.text.contains(#"class="navbar__back" href="/conference" data-nav="back""#))
        }
    }

    @Test func aTalkShowsItsFactsFrameNeighboursAndCitations() async throws {
        let app = try await makeApplication(apps: [ConferenceFixtures.app(try await ConferenceFixtures.library())])
        try await app.test(.router) { client in
            try await client.execute(uri: "/conference/talks/8770?from=conference-202504", method: .get) { response in
                let text = response.text
                #expect(response.status == .ok)
                #expect(text.contains(#"class="split split--pane conference-split split--detail""#))
                #expect(text.contains(#"<li class="cell cell--selected" data-talk="8770">"#))
                #expect(text.contains(#"<iframe class="conference-talk__frame" id="conference-talk-frame" src="/conference/talks/8770/text" title="Text of "#))
                // allow-same-origin lets the service worker answer the frame's navigation offline; the
                // text's own policy still sandboxes its document (no scripts, an origin of its own).
                #expect(text.contains(#" sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox" referrerpolicy="no-referrer""#))
                #expect(text.contains("<dt>Speaker</dt><dd><a href=\"/conference/speakers/"))
                #expect(text.contains("<dt>Session</dt><dd>Saturday Morning Session</dd>"))
                #expect(text.contains("<dt>Date</dt><dd>April 5, 2025</dd>"))
                #expect(text.contains(#"id="conference-talk-previous" href="/conference/talks/8769?from=conference-202504""#))
                #expect(text.contains(#"id="conference-talk-next" href="/conference/talks/8771?from=conference-202504""#))
                #expect(text.contains(#"id="conference-talk-link" href="https://www.churchofjesuschrist.org/study/general-conference/2025/04/14johnson?lang=eng""#))
                // The sample has no recordings: no Listen or Watch buttons.
                #expect(!text.contains(">Listen<") && !text.contains(">Watch<"))
                #expect(text.contains(#"class="navbar__back" href="/conference/conferences/202504" data-nav="back"><span class="navbar__chevron" aria-hidden="true"></span><span class="navbar__back-label">Apr 2025</span>"#))
                let csp = response.headers[.contentSecurityPolicy] ?? ""
                #expect(csp.contains("frame-src 'self';"))
                #expect(!csp.contains("scriptures.byu.edu"))
            }
            let first = try await client.text("/conference/talks/8769")
            #expect(first.text.contains(#"<a href="/conference/citations/141/9/33"#) || first.text.contains(#"href="/conference/citations/141/9/33""#))
            #expect(first.text.contains("<span class=\"cell__title\">Mark 9:33</span>"))
            #expect(!first.text.contains("conference-talk-previous"))
            // A talk's page alone is not a talk opened: its text, which only a page shown asks
            // for, is (ConferenceOfflineTests, against a stand-in for the text's site).
            let list = try await client.text("/conference")
            #expect(!list.text.contains(#"id="conference-recent""#))
        }
    }

    @Test func theCitationIndexLeadsFromVolumesToTheCitingTalks() async throws {
        let app = try await makeApplication(apps: [ConferenceFixtures.app(try await ConferenceFixtures.library())])
        try await app.test(.router) { client in
            let volumes = try await client.text("/conference/citations")
            #expect(volumes.text.contains(#"<h2 class="list-section__header" id="volume-1-h">Old Testament ("#))
            #expect(volumes.text.contains(#"href="/conference/citations/141" aria-label="Mark: "#))
            let book = try await client.text("/conference/citations/141")
            #expect(book.text.contains(#"href="/conference/citations/141/9""#))
            #expect(book.text.contains("<title>Mark · Pocket</title>"))
            let chapter = try await client.text("/conference/citations/141/9")
            #expect(chapter.text.contains(#"href="/conference/citations/141/9/33""#))
            #expect(chapter.text.contains(#"<span class="cell__title">Verse 33</span>"#))
            let verse = try await client.text("/conference/citations/141/9/33")
            #expect(verse.text.contains("<title>Mark 9:33 · Pocket</title>"))
            #expect(verse.text.contains(#"href="/conference/talks/8769?from=verse-141-9-33""#))
            #expect(verse.text.contains("Apr 2025 · Jeffrey R. Holland"))
            let talk = try await client.text("/conference/talks/8769?from=verse-141-9-33")
            #expect(talk.text.contains(#"<span class="navbar__back-label">Mark 9:33</span>"#))
            #expect(talk.text.contains(#"<a class="conference-tab" href="/conference/citations" data-transition="none" aria-current="page">"#))
        }
    }

    @Test func speakersAreSectionedWithAnIndexAndListTheirTalks() async throws {
        let app = try await makeApplication(apps: [ConferenceFixtures.app(try await ConferenceFixtures.library())])
        try await app.test(.router) { client in
            let page = try await client.text("/conference/speakers")
            #expect(page.text.contains(##"<nav class="section-index__letters" aria-label="Section index"><a href="#section-A">A</a><a href="#section-B">B</a>"##))
            #expect(page.text.contains(#"<a class="cell__main" href="/conference/speakers/1127"><span class="cell__text"><span class="cell__title">Jeffrey R. Holland</span>"#))
            let speaker = try await client.text("/conference/speakers/1127")
            #expect(speaker.text.contains(#"href="/conference/talks/8769?from=speaker-1127""#))
            #expect(speaker.text.contains("<title>Jeffrey R. Holland · Pocket</title>"))
        }
    }

    @Test func searchFindsTitlesAndSpeakersAndEscapesWhatWasTyped() async throws {
        let app = try await makeApplication(apps: [ConferenceFixtures.app(try await ConferenceFixtures.library())])
        try await app.test(.router) { client in
            let empty = try await client.text("/conference/search")
            #expect(empty.text.contains("data-live-search"))
            #expect(empty.text.contains("Type a word of a talk’s title or a speaker’s name."))
            // Before anything is typed there are no results and no "no results" status either (it was an empty element).
            #expect(empty.text.contains(#"<div id="conference-results">"#) && !empty.text.contains("conference-empty\" id=\"conference-empty"))
            let none = try await client.text("/conference/search?q=zzzzqqq")
            #expect(none.text.contains(#"<p class="conference-empty" id="conference-empty" role="status">No talk title or speaker matches “zzzzqqq”.</p>"#))
            let byTitle = try await client.text("/conference/search?q=little%20chil")
            #expect(byTitle.text.contains(#"href="/conference/talks/8769?from=search-little%20chil""#))
            let bySpeaker = try await client.text("/conference/search?q=holland")
            #expect(bySpeaker.text.contains("As a Little Child"))
            let hostile = try await client.text("/conference/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E")
            #expect(hostile.status == .ok)
            #expect(!hostile.text.contains("<script>alert(1)</script>"))
            #expect(hostile.text.contains("value=\"&lt;script&gt;alert(1)&lt;&#47;script&gt;\"") || hostile.text.contains("value=\"&lt;script&gt;alert(1)&lt;/script&gt;\""))
        }
    }

    @Test func unknownIdsAre404() async throws {
        let app = try await makeApplication(apps: [ConferenceFixtures.app(try await ConferenceFixtures.library())])
        try await app.test(.router) { client in
            for uri in ["/conference/talks/99999", "/conference/conferences/1", "/conference/speakers/999999",
                        "/conference/citations/9999", "/conference/talks/abc", "/conference/talks/-1", "/conference/talks/8769999999999"] {
                let page = try await client.text(uri)
                #expect(page.status == .notFound, "\(uri)")
            }
            let talk = try await client.text("/conference/talks/99999")
            #expect(talk.text.contains("There is no talk number 99999."))
            let named = try await client.text("/conference/talks/%3Cb%3Ex")
            #expect(named.status == .notFound)
            #expect(!named.text.contains("<b>x"))
        }
    }

    @Test func postsNeedTheSessionToken() async throws {
        let app = try await makeApplication(apps: [ConferenceFixtures.app(try await ConferenceFixtures.library())])
        try await app.test(.router) { client in
            for uri in ["/conference/settings/check", "/conference/settings/install"] {
                try await client.execute(uri: uri, method: .post) { #expect($0.status == .forbidden) }
            }
            let upload = ConferenceFixtures.multipart(fileName: "core.db", data: Data("x".utf8))
            try await client.execute(uri: "/conference/settings/import", method: .post, headers: [.contentType: upload.contentType], body: upload.body) {
                #expect($0.status == .forbidden)
            }
            let token = try await client.sessionToken()
            try await client.execute(uri: "/conference/settings/import?_csrf=wrong", method: .post,
                                     headers: [.contentType: upload.contentType, .cookie: "pocket_csrf=\(token)"], body: upload.body) {
                #expect($0.status == .forbidden)
            }
        }
    }

    @Test func settingsShowTheDatabaseAndTheImportFormCarriesTheTokenInItsAction() async throws {
        let app = try await makeApplication(apps: [ConferenceFixtures.app(try await ConferenceFixtures.library())])
        try await app.test(.router) { client in
            try await client.execute(uri: "/conference/settings", method: .get) { response in
                let token = try #require(response.pageToken)
                #expect(response.text.contains(#"<span class="cell__detail" id="conference-db-label">Sample data (April and October 2025)</span>"#))
                #expect(response.text.contains(#"<span class="cell__detail" id="conference-db-talks">65</span>"#))
                #expect(response.text.contains(#"id="conference-manifest-url">http://127.0.0.1:9/sci-core.json</span>"#))
                #expect(response.text.contains(#"action="/conference/settings/import?_csrf=\#(token)" enctype="multipart/form-data""#))
                #expect(response.text.contains(#"data-sse="/conference/settings/events?since=0""#))
            }
        }
    }

    @Test func aTalkIsBookmarkedWithoutJavaScriptAndListedOnTheConferencesScreen() async throws {
        let app = try await makeApplication(apps: [ConferenceFixtures.app(try await ConferenceFixtures.library())])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            func post(_ uri: String, _ body: String) async throws -> TestResponse {
                try await client.execute(uri: uri, method: .post, headers: [.contentType: "application/x-www-form-urlencoded", .cookie: "pocket_csrf=\(token)"],
                                         body: ByteBuffer(string: "_csrf=\(token)&" + body))
            }
            // The talk page offers the button as a plain form
            var talk = try await client.text("/conference/talks/8770?from=conference-202504").text
            #expect(talk.contains(#"<form class="conference-bookmark" method="post" action="/conference/talks/8770/bookmark" data-talk="8770" data-changes="/conference/bookmarks/changes"><input type="hidden" name="_csrf""#))
            #expect(talk.contains(#"<input type="hidden" name="bookmark" value="1"><input type="hidden" name="return" value="/conference/talks/8770?from=conference-202504">"#))
            #expect(talk.contains(#"aria-pressed="false" data-on-label="Remove Bookmark" data-off-label="Bookmark">Bookmark</button>"#))
            #expect(try await !client.text("/conference").text.contains("conference-bookmarks"))
            // Bookmarking goes back to the talk, which now offers to remove it
            let added = try await post("/conference/talks/8770/bookmark", "bookmark=1&return=%2Fconference%2Ftalks%2F8770%3Ffrom%3Dconference-202504")
            #expect(added.status == .seeOther)
            #expect(added.headers[.location] == "/conference/talks/8770?from=conference-202504")
            talk = try await client.text("/conference/talks/8770").text
            #expect(talk.contains(#"aria-pressed="true" data-on-label="Remove Bookmark" data-off-label="Bookmark">Remove Bookmark</button>"#))
            // The Conferences screen lists it, title and speaker, linking to the talk
            let home = try await client.text("/conference").text
            #expect(home.contains(#"<h2 class="list-section__header" id="conference-bookmarks-h">Bookmarks</h2>"#))
            let bookmarks = try #require(home.range(of: #"id="conference-bookmarks""#))
            #expect(home[bookmarks.upperBound...].contains(#"<a class="cell__main" href="/conference/talks/8770">"#))
            // Removing it, with a return address outside the app, lands on the talk
            let removed = try await post("/conference/talks/8770/bookmark", "bookmark=0&return=https%3A%2F%2Fevil.example%2F")
            #expect(removed.headers[.location] == "/conference/talks/8770")
            #expect(try await !client.text("/conference").text.contains("conference-bookmarks"))
            // Unknown talks and unclear requests are refused
            #expect(try await post("/conference/talks/1/bookmark", "bookmark=1").status == .notFound)
            #expect(try await post("/conference/talks/8770/bookmark", "bookmark=yes").status == .badRequest)
        }
    }
}
