import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Remote
import Testing
@testable import PocketWeb

/// The Remote screens through the real router, on in-memory devices.
@Suite("Remote routes")
struct RemoteRouteTests {
    private struct Fixture {
        let store: RemoteDatabase
        let app: RemoteApp
    }

    /// The pages' clock stands still at `date`: a lone first digit lasts 3 s, and a slow machine
    /// must not let one expire between two presses of a test.
    private func fixture(unboxedAt date: Date = Date()) throws -> Fixture {
        let store = try RemoteDatabase.inMemory(now: date)
        return Fixture(store: store, app: RemoteApp(store: store, now: { date }))
    }

    private func post(_ client: some TestClientProtocol, _ uri: String, token: String, body: String = "") async throws -> TestResponse {
        try await client.execute(uri: uri, method: .post, headers: [.contentType: "application/x-www-form-urlencoded", .cookie: "pocket_csrf=\(token)"], body: ByteBuffer(string: "_csrf=\(token)&" + body))
    }

    private func get(_ client: some TestClientProtocol, _ uri: String, referrer: String? = nil) async throws -> TestResponse {
        var headers = HTTPFields()
        if let referrer { headers[.referer] = referrer }
        return try await client.execute(uri: uri, method: .get, headers: headers)
    }

    // MARK: TV

    @Test func rootOpensTheLastRemoteAndTheHomeScreenListsTheApp() async throws {
        let fixture = try fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            #expect(try await get(client, "/").text.contains(#"<a class="app-tile" href="/remote""#))
            let first = try await get(client, "/remote")
            #expect(first.status == .seeOther)
            #expect(first.headers[.location] == "/remote/tv")
            _ = try await get(client, "/remote/dvr")
            #expect(try await get(client, "/remote").headers[.location] == "/remote/dvr")
            _ = try await get(client, "/remote/tv")
            #expect(try await get(client, "/remote").headers[.location] == "/remote/tv")
        }
    }

    @Test func aSwitchedOffTVRendersEveryControlButPowerDisabled() async throws {
        let fixture = try fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            let page = try await get(client, "/remote/tv").text
            #expect(page.contains("<title>My TV · Pocket</title>"))
            #expect(page.contains(#"href="/static/css/apps/remote.css?v="#))
            #expect(page.contains(#"<dd class="lcd__value" id="tv-power-state">Off</dd>"#))
            #expect(page.contains(#"<span id="tv-channel" aria-hidden="true">01</span>"#))
            #expect(page.contains(#"<input class="switch" type="checkbox" role="switch" name="power" id="tv-power">"#))
            for id in ["tv-key-0", "tv-key-9", "tv-channel-up", "tv-channel-down", "tv-preset-0", "tv-preset-3"] {
                #expect(tag(withID: id, in: page)?.hasSuffix(" disabled>") == true, "\(id) should be disabled")
            }
            #expect(tag(withID: "tv-volume", in: page)?.contains(" disabled") == true)
            #expect(tag(withID: "tv-power", in: page)?.contains("disabled") == false)
            #expect(page.contains(#"aria-disabled="true" id="tv-edit-favourites""#))
            // The toolbar names the other remote.
            #expect(page.contains(#"<span class="remote-switch__label" id="remote-switch-label">DVR</span>"#))
            #expect(page.contains(#"href="/remote/dvr" data-transition="flip" id="remote-switch""#))
        }
    }

    /// The TV page is kept once rendered (`RemotePages.tvPages`): a read again gives the same page,
    /// and whatever the page is made from (the set, a pending digit, arriving by the switch) still
    /// shows at once.
    @Test func aKeptTVPageChangesWithTheSetThePendingDigitAndTheFlip() async throws {
        let fixture = try fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            let plain = try await get(client, "/remote/tv").text
            #expect(try await get(client, "/remote/tv").text == plain)
            let flipped = try await get(client, "/remote/tv", referrer: "https://pocket.test/remote/dvr").text
            #expect(flipped.contains("remote--flip-in") && !plain.contains("remote--flip-in"))
            #expect(try await get(client, "/remote/tv").text == plain)
            _ = try await post(client, "/remote/tv/power", token: token, body: "power=on")
            _ = try await post(client, "/remote/tv/digit/4", token: token)
            let pending = try await get(client, "/remote/tv").text
            #expect(pending.contains(#"<span id="tv-channel" aria-hidden="true">4-</span>"#))
            #expect(pending.contains(#"id="tv-pending" data-refresh-after=""#))
            _ = try await post(client, "/remote/tv/digit/2", token: token)
            let tuned = try await get(client, "/remote/tv").text
            #expect(tuned.contains(#"<span id="tv-channel" aria-hidden="true">42</span>"#) && !tuned.contains("data-refresh-after"))
        }
    }

    @Test func keypadPresetsVolumeAndTheRockerChangeTheTV() async throws {
        let fixture = try fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            let on = try await post(client, "/remote/tv/power", token: token, body: "power=on")
            #expect(on.status == .seeOther)
            #expect(on.headers[.location] == "/remote/tv")
            _ = try await post(client, "/remote/tv/digit/4", token: token)
            var page = try await get(client, "/remote/tv").text
            #expect(page.contains(#"<span id="tv-channel" aria-hidden="true">4-</span>"#))
            #expect(page.contains("Enter the second digit"))
            #expect(tag(withID: "tv-key-1", in: page)?.contains("disabled") == false)
            _ = try await post(client, "/remote/tv/digit/2", token: token)
            #expect(try await fixture.store.television().device.channel.number == 42)
            // 00 is not a channel: the channel stays and the display says why.
            _ = try await post(client, "/remote/tv/digit/0", token: token)
            _ = try await post(client, "/remote/tv/digit/0", token: token)
            page = try await get(client, "/remote/tv").text
            #expect(page.contains(#"<span id="tv-channel" aria-hidden="true">42</span>"#))
            #expect(page.contains(#"<p class="lcd__notice lcd__notice--warning" id="tv-notice" role="status">00 is not a channel</p>"#))
            // Presets tune, and the current one is pressed.
            _ = try await post(client, "/remote/tv/favourite/2", token: token)
            page = try await get(client, "/remote/tv").text
            #expect(page.contains(#"<span id="tv-channel" aria-hidden="true">11</span>"#))
            #expect(tag(withID: "tv-preset-2", in: page)?.contains(#"aria-pressed="true""#) == true)
            #expect(tag(withID: "tv-preset-0", in: page)?.contains(#"aria-pressed="false""#) == true)
            // The rocker wraps both ways.
            _ = try await post(client, "/remote/tv/digit/9", token: token)
            _ = try await post(client, "/remote/tv/digit/9", token: token)
            _ = try await post(client, "/remote/tv/channel/up", token: token)
            #expect(try await fixture.store.television().device.channel.number == 1)
            _ = try await post(client, "/remote/tv/channel/down", token: token)
            #expect(try await fixture.store.television().device.channel.number == 99)
            // Volume.
            _ = try await post(client, "/remote/tv/volume", token: token, body: "volume=73")
            #expect(try await get(client, "/remote/tv").text.contains(#"<dd class="lcd__value" id="tv-volume-state">73</dd>"#))
            #expect(try await post(client, "/remote/tv/volume", token: token, body: "volume=101").status == .badRequest)
            #expect(try await post(client, "/remote/tv/volume", token: token, body: "volume=loud").status == .badRequest)
            // Off again: the switch sends nothing.
            _ = try await post(client, "/remote/tv/power", token: token)
            #expect(try await fixture.store.television().device.isOn == false)
        }
    }

    @Test func pressesNeedTheTokenAndUnknownKeysAre404() async throws {
        let fixture = try fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            #expect(try await client.execute(uri: "/remote/tv/power", method: .post).status == .forbidden)
            #expect(try await client.execute(uri: "/remote/dvr/press/play", method: .post).status == .forbidden)
            #expect(try await fixture.store.television().revision == 0)
            let token = try await client.sessionToken()
            _ = try await post(client, "/remote/tv/power", token: token, body: "power=on")
            #expect(try await post(client, "/remote/tv/digit/10", token: token).status == .notFound)
            #expect(try await post(client, "/remote/tv/digit/x", token: token).status == .notFound)
            #expect(try await post(client, "/remote/tv/favourite/4", token: token).status == .notFound)
            #expect(try await post(client, "/remote/dvr/press/rewind", token: token).status == .notFound)
            #expect(try await post(client, "/remote/dvr/force/eject", token: token).status == .notFound)
        }
    }

    // MARK: Favourites

    @Test func favouritesSaveTogetherAndAnInvalidLabelGetsAnAlertAndSavesNothing() async throws {
        let fixture = try fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            // Off: the form is there but disabled, and says why.
            var page = try await get(client, "/remote/tv/favourites").text
            #expect(page.contains("<title>Favourites · Pocket</title>"))
            #expect(page.contains("The TV is off. Turn it on to edit its favourites."))
            #expect(tag(withID: "favourite-label-0", in: page)?.contains(" disabled") == true)
            _ = try await post(client, "/remote/tv/power", token: token, body: "power=on")
            page = try await get(client, "/remote/tv/favourites").text
            #expect(tag(withID: "favourite-label-2", in: page)?.contains(#"value="FOX""#) == true)
            #expect(tag(withID: "favourite-channel-2", in: page)?.contains(#"value="11""#) == true)
            #expect(page.contains(#"class="stepper" data-stepper"#))
            // Invalid: an alert over the form, which keeps what was typed; nothing is saved.
            let invalid = try await post(client, "/remote/tv/favourites", token: token, body: "label0=hbo&channel0=9&label1=C%3CB%3ES1&channel1=2&label2=FOX&channel2=11&label3=NBC&channel3=4")
            #expect(invalid.status == .ok)
            #expect(invalid.text.contains(#"<dialog class="alert remote-alert" open data-modal id="favourites-alert""#))
            #expect(invalid.text.contains("Invalid Label"))
            #expect(invalid.text.contains("Favourite 2: Label must be 1 to 4 letters."))
            #expect(invalid.text.contains(#"value="C&lt;B&gt;S1""#))
            #expect(tag(withID: "favourite-label-1", in: invalid.text)?.contains(#"aria-invalid="true""#) == true)
            #expect(try await fixture.store.television().device.favourites.map(\.label) == ["ABC", "CBS", "FOX", "NBC"])
            let badChannel = try await post(client, "/remote/tv/favourites", token: token, body: "label0=ABC&channel0=0&label1=CBS&channel1=2&label2=FOX&channel2=11&label3=NBC&channel3=4")
            #expect(badChannel.text.contains("Favourite 1: Channel must be from 1 to 99."))
            // Valid: all four at once, then back to the remote.
            let saved = try await post(client, "/remote/tv/favourites", token: token, body: "label0=hbo&channel0=9&label1=PBS&channel1=28&label2=%20espn%20&channel2=33&label3=CNN&channel3=99")
            #expect(saved.status == .seeOther)
            #expect(saved.headers[.location] == "/remote/tv")
            let tv = try await fixture.store.television().device
            #expect(tv.favourites.map(\.label) == ["HBO", "PBS", "ESPN", "CNN"])
            #expect(tv.favourites.map(\.channel.number) == [9, 28, 33, 99])
            #expect(try await get(client, "/remote/tv").text.contains(#"aria-label="ESPN, channel 33""#))
        }
    }

    // MARK: DVR

    @Test func aRefusedPressAsksThenCancelChangesNothingAndForceStopsFirst() async throws {
        let fixture = try fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            var page = try await get(client, "/remote/dvr").text
            #expect(page.contains("<title>My DVR · Pocket</title>"))
            #expect(tag(withID: "dvr-play", in: page)?.contains(" disabled") == true)
            #expect(page.contains(#"<span class="remote-switch__label" id="remote-switch-label">TV</span>"#))
            _ = try await post(client, "/remote/dvr/power", token: token, body: "power=on")
            let play = try await post(client, "/remote/dvr/press/play", token: token)
            #expect(play.headers[.location] == "/remote/dvr")
            page = try await get(client, "/remote/dvr").text
            #expect(page.contains(#"<span class="lcd__value" id="dvr-state">Playing</span>"#))
            #expect(tag(withID: "dvr-play", in: page)?.contains(#"aria-pressed="true""#) == true)
            #expect(!page.contains("<dialog"))
            // Record while playing is refused: the redirect shows the action sheet.
            let refused = try await post(client, "/remote/dvr/press/record", token: token)
            #expect(refused.status == .seeOther)
            #expect(refused.headers[.location] == "/remote/dvr?confirm=record")
            #expect(try await fixture.store.dvr().device.state == .playing)
            page = try await get(client, "/remote/dvr?confirm=record").text
            #expect(page.contains(#"<dialog class="action-sheet remote-sheet" open data-modal id="dvr-sheet""#))
            #expect(page.contains("Can&#39;t record while playing. Stop playing and record?") || page.contains("Can't record while playing. Stop playing and record?"))
            #expect(page.contains(#"<form class="action-sheet__group" method="post" action="/remote/dvr/force/record""#))
            #expect(page.contains(">Stop Playing and Record</button>"))
            #expect(page.contains(#"href="/remote/dvr" data-transition="none" id="dvr-sheet-cancel" autofocus data-autofocus data-dialog-cancel>Cancel</a>"#))
            #expect(page.contains(#"id="remote-dvr" data-sse="/remote/events?view=dvr&amp;since=2" data-needs-server="Not connected to My DVR" inert>"#))
            // Cancel is just the remote again: still playing.
            #expect(!(try await get(client, "/remote/dvr").text.contains("<dialog")))
            // Force: the alert says what was stopped and what runs now.
            let forced = try await post(client, "/remote/dvr/force/record", token: token)
            #expect(forced.headers[.location] == "/remote/dvr?forced=record&from=playing")
            #expect(try await fixture.store.dvr().device.state == .recording)
            page = try await get(client, "/remote/dvr?forced=record&from=playing").text
            #expect(page.contains(#"<dialog class="alert remote-alert" open data-modal id="dvr-alert""#))
            #expect(page.contains(">Operation Stopped</h2>"))
            #expect(page.contains(">Playing was stopped. Now recording.</p>"))
            #expect(page.contains(#"<span class="lcd__value" id="dvr-state">Recording</span>"#))
        }
    }

    @Test func staleOrHandMadeSheetsAndAlertsAreNotShown() async throws {
        let fixture = try fixture()
        _ = try await fixture.store.setDVRPower(true, at: Date())
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            // Play from Stopped is allowed: there is nothing to ask.
            #expect(!(try await get(client, "/remote/dvr?confirm=play").text.contains("<dialog")))
            // Playing from Stopped was never a refusal, and the DVR is not recording.
            #expect(!(try await get(client, "/remote/dvr?forced=play&from=stopped").text.contains("<dialog")))
            #expect(!(try await get(client, "/remote/dvr?forced=record&from=playing").text.contains("<dialog")))
            #expect(!(try await get(client, "/remote/dvr?confirm=%3Cscript%3E").text.contains("<dialog")))
            // A force that nothing needs any more is a plain press.
            let token = try await client.sessionToken()
            let plain = try await post(client, "/remote/dvr/force/play", token: token)
            #expect(plain.headers[.location] == "/remote/dvr")
            #expect(try await fixture.store.dvr().device.state == .playing)
        }
    }

    @Test func theSwitchFlipsOnlyWhenComingFromTheOtherRemote() async throws {
        let fixture = try fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            let flipped = try await get(client, "/remote/dvr", referrer: "http://127.0.0.1:8080/remote/tv").text
            #expect(flipped.contains(#"class="remote remote--dvr remote--off remote--flip-in""#))
            let reloaded = try await get(client, "/remote/dvr", referrer: "http://127.0.0.1:8080/remote/dvr?confirm=play").text
            #expect(!reloaded.contains("remote--flip-in"))
            #expect(try await get(client, "/remote/tv", referrer: "http://127.0.0.1:8080/remote/dvr").text.contains("remote--flip-in"))
        }
    }

    // MARK: Screen, reset, events

    @Test func theScreenShowsNoSignalThenTheChannelAndTheDVR() async throws {
        // The page reads the counters at a fixed moment, so a slow machine cannot move them a second on;
        // a whole second, because the store keeps times to the millisecond.
        let moment = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let store = try RemoteDatabase.inMemory(now: moment.addingTimeInterval(-3600))
        let fixture = Fixture(store: store, app: RemoteApp(store: store, now: { moment }))
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            var page = try await get(client, "/remote/screen").text
            #expect(page.contains("<title>Screen · Pocket</title>"))
            #expect(page.contains(#"id="screen-no-signal" aria-hidden="true">No signal</p>"#))
            #expect(page.contains(#"data-sse="/remote/events?view=screen""#))
            #expect(page.contains(#"data-dialog="remote-reset""#))
            #expect(page.contains(#"<dialog class="alert" id="remote-reset""#))
            _ = try await fixture.store.apply([.setPower(true), .tuneFavourite(0)], deviceID: "test-phone", at: moment)
            // Recording started 75 seconds ago: the page shows the DVR as it is now.
            _ = try await fixture.store.setDVRPower(true, at: moment.addingTimeInterval(-75))
            _ = try await fixture.store.press(.record, at: moment.addingTimeInterval(-75))
            page = try await get(client, "/remote/screen").text
            #expect(page.contains(#"<span class="osd__channel" id="screen-channel">07</span><span class="osd__favourite" id="screen-favourite">ABC</span>"#))
            #expect(page.contains("Channel 07, ABC, volume 50"))
            #expect(!page.contains("screen-volume"))
            #expect(page.contains(#"<span class="stb__title" id="screen-dvr-state">Recording</span>"#))
            #expect(page.contains(#"id="screen-dvr-clock-recording">1:15</span>"#))
        }
    }

    @Test func resetAsksWithoutJavaScriptAndPutsBothDevicesBack() async throws {
        let fixture = try fixture()
        _ = try await fixture.store.apply([.setPower(true), .setVolume(90)], deviceID: "test-phone", at: Date())
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.router) { client in
            let confirm = try await get(client, "/remote/reset").text
            #expect(confirm.contains(#"<h2 class="alert__title" id="confirm-title">Reset Both Devices?</h2>"#))
            #expect(confirm.contains(#"action="/remote/reset""#))
            let token = try await client.sessionToken()
            let reset = try await post(client, "/remote/reset", token: token)
            #expect(reset.headers[.location] == "/remote/screen")
            #expect(try await fixture.store.television().device == Television())
        }
    }

    @Test func eventsNeedAViewAndReloadAStaleRemoteFirst() async throws {
        let fixture = try fixture()
        _ = try await fixture.store.apply(.setPower(true), deviceID: "test-phone", at: Date())
        let router = try await makeApplication(apps: [fixture.app])
        try await router.test(.router) { client in
            let missing = try await get(client, "/remote/events")
            #expect(missing.status == .badRequest)
            let unknown = try await get(client, "/remote/events?view=radio")
            #expect(unknown.status == .badRequest)
        }
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.live) { client in
            let port = try #require(client.port)
            // A page rendered at revision 0 is behind (the TV is at 1): its first event is a reload.
            var (contentType, first) = try await firstEvent("http://127.0.0.1:\(port)/remote/events?view=tv&since=0")
            #expect(contentType == "text/event-stream; charset=utf-8")
            #expect(first == ["event: reload", "data: "])
            // The Screen starts with both panels, brought up to date.
            (contentType, first) = try await firstEvent("http://127.0.0.1:\(port)/remote/events?view=screen")
            #expect(first.first == "event: patch")
            #expect(first.dropFirst().first?.hasPrefix(#"data: <div class="picture picture--on picture--hue-1" id="screen-tv">"#) == true)
        }
    }

    @Test func aPressIsHeardByAnOpenScreenAndAnotherRemote() async throws {
        let fixture = try fixture()
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let base = "http://127.0.0.1:\(port)"
            let remote = try await HTTPClient.shared.execute(HTTPClientRequest(url: "\(base)/remote/events?view=tv&since=0"), timeout: .seconds(60))
            var events = remote.body.makeAsyncIterator()
            // Subscribed: now another phone turns the TV on.
            try await Task.sleep(for: .milliseconds(200))
            let session = try await HTTPClient.shared.execute(HTTPClientRequest(url: "\(base)/remote/tv"), timeout: .seconds(60))
            let page = String(buffer: try await session.body.collect(upTo: 1 << 20))
            // The signed-in device's token, as the page carries it.
            let token = try #require(page.firstMatch(of: #/<meta name="csrf-token" content="([^"]+)">/#).map { String($0.1) })
            var press = HTTPClientRequest(url: "\(base)/remote/tv/power")
            press.method = .POST
            press.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            press.body = .bytes(ByteBuffer(string: "_csrf=\(token)&power=on"))
            // The client follows the 303 back to the remote.
            let answer = try await HTTPClient.shared.execute(press, timeout: .seconds(60))
            #expect(answer.status == .ok)
            _ = try await answer.body.collect(upTo: 1 << 20)
            var text = ""
            while !text.contains("\n\n"), let chunk = try await events.next() {
                text += String(buffer: chunk)
            }
            #expect(text.hasPrefix("event: reload\n"))
        }
    }

    @Test func aStreamWhoseBrowserWentAwayStopsListening() async throws {
        let fixture = try fixture()
        _ = try await fixture.store.setDVRPower(true, at: Date())
        _ = try await fixture.store.press(.play, at: Date())
        let app = try await makeApplication(apps: [fixture.app])
        try await app.test(.live) { client in
            let port = try #require(client.port)
            // A browser on the DVR remote: it hears the counters tick while the DVR plays…
            let listening = Task {
                let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/remote/events?view=dvr&since=2"), timeout: .seconds(60))
                var text = ""
                for try await chunk in response.body {
                    text += String(buffer: chunk)
                    if text.contains("\n\n") { return text }
                }
                return text
            }
            let first = try await listening.value
            #expect(first.hasPrefix("event: patch\ndata: <p class=\"counters\" id=\"dvr-clock\">"))
            // …then goes away: within a few ticks the server notices and its listener is gone.
            listening.cancel()
            var count = await fixture.app.signals.count
            for _ in 0..<50 where count > 0 {
                try await Task.sleep(for: .milliseconds(100))
                count = await fixture.app.signals.count
            }
            #expect(count == 0)
        }
    }

    // MARK: Helpers

    /// The opening tag of the element with `id`.
    private func tag(withID id: String, in html: String) -> String? {
        guard let idRange = html.range(of: #"id="\#(id)""#),
              let start = html[..<idRange.lowerBound].lastIndex(of: "<"),
              let end = html[idRange.upperBound...].firstIndex(of: ">")
        else { return nil }
        return String(html[start...end])
    }

    /// The content type and the lines of the first event of a stream.
    private func firstEvent(_ url: String) async throws -> (String?, [String]) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
        var text = ""
        for try await chunk in response.body {
            text += String(buffer: chunk)
            if text.contains("\n\n") { break }
        }
        let event = text.components(separatedBy: "\n\n").first ?? ""
        return (response.headers.first(name: "Content-Type"), event.components(separatedBy: "\n"))
    }
}

@Suite("Remote page models")
struct RemoteModelTests {
    @Test(arguments: [(0.0, "0:00"), (7.9, "0:07"), (75, "1:15"), (3599, "59:59"), (3723, "1:02:03"), (-4, "0:00"), (.infinity, "0:00")])
    func countersShowWholeSeconds(_ seconds: Double, _ text: String) {
        #expect(RemoteClock.format(seconds) == text)
    }

    @Test func slugsRoundTripForEveryButton() {
        for button in DVRButton.allCases {
            #expect(DVRButton(slug: button.slug) == button)
            #expect(RemoteRoute.dvrPress.href(button).hasPrefix("/remote/dvr/press/"))
        }
        #expect(DVRButton(slug: "fastForward") == nil)
        #expect(RemoteRoute.dvrPress.href(.fastForward) == "/remote/dvr/press/fast-forward")
    }

    @Test func theTVModelShowsThePendingDigitAndWhichPresetIsOn() throws {
        var tv = Television()
        tv.setPower(true)
        try tv.tuneFavourite(at: 3)
        var model = RemoteTV.Model(snapshot: TelevisionSnapshot(device: tv, notice: nil, revision: 4, updatedAt: Date()), now: Date(), flipIn: false)
        #expect(model.channelText == "04")
        #expect(model.presets.map(\.isCurrent) == [false, false, false, true])
        #expect(model.eventsHref == "/remote/events?view=tv&since=4")
        try tv.pressDigit(6)
        model = RemoteTV.Model(snapshot: TelevisionSnapshot(device: tv, notice: nil, revision: 5, updatedAt: Date()), now: Date(), flipIn: true)
        #expect(model.channelText == "6-")
        #expect(model.isPending)
        #expect(model.presets.allSatisfy { !$0.isCurrent })
        #expect(model.toolbar.switchLabel == "DVR")
    }

    @Test func theDVRModelRunsTheClockToNow() {
        var dvr = DVR()
        dvr.setPower(true)
        dvr.press(.play)
        let start = Date(timeIntervalSince1970: 1_000)
        let snapshot = DVRSnapshot(device: dvr, notice: nil, revision: 2, updatedAt: start)
        let model = RemoteDVR.Model(snapshot: snapshot, now: start.addingTimeInterval(65), confirm: .record, forced: nil, flipIn: false)
        #expect(model.clock.position == "1:05")
        #expect(model.sheet?.forceTitle == "Stop Playing and Record")
        #expect(model.isBlocked)
        #expect(model.buttons.map(\.id) == ["dvr-fast-rewind", "dvr-play", "dvr-fast-forward", "dvr-pause", "dvr-stop", "dvr-record"])
        #expect(model.buttons.filter(\.isCurrent).map(\.id) == ["dvr-play"])
        #expect(model.toolbar.switchLabel == "TV")
    }

    @Test func theScreenNamesAFavouriteOnlyWhenTheChannelIsOne() throws {
        var tv = Television()
        tv.setPower(true)
        try tv.tuneFavourite(at: 1)
        #expect(RemoteScreen.TVPanel(television: tv, notice: nil, showsVolume: true).favourite == "CBS")
        tv.channelUp()
        let panel = RemoteScreen.TVPanel(television: tv, notice: nil, showsVolume: true)
        #expect(panel.favourite == nil)
        #expect(panel.channel == "03")
        #expect(panel.showsVolume)
        tv.setPower(false)
        #expect(!RemoteScreen.TVPanel(television: tv, notice: nil, showsVolume: true).showsVolume)
    }
}
