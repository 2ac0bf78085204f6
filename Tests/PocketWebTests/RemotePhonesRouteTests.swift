import Foundation
import Hummingbird
import HummingbirdTesting
import PocketCore
import Remote
import Testing
@testable import PocketWeb

/// Two phones on one TV, each signed in with its own stored session: a half-typed channel stays
/// on the phone that typed it.
@Suite("Remote routes from two phones")
struct RemotePhonesRouteTests {
    private func press(_ client: some TestClientProtocol, _ phone: TestHousehold.Member, _ uri: String, body: String = "") async throws -> TestResponse {
        try await client.execute(
            uri: uri, method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded", .cookie: phone.cookie],
            body: ByteBuffer(string: "_csrf=\(phone.token)&" + body)
        )
    }

    private func channel(_ client: some TestClientProtocol, on phone: TestHousehold.Member) async throws -> String? {
        let page = try await client.execute(uri: "/remote/tv", method: .get, headers: [.cookie: phone.cookie]).text
        guard let start = page.range(of: #"<span id="tv-channel" aria-hidden="true">"#),
              let end = page[start.upperBound...].range(of: "</span>") else { return nil }
        return String(page[start.upperBound..<end.lowerBound])
    }

    @Test func twoPhonesTypingAtOnceEachTuneWhatTheyTyped() async throws {
        let store = try RemoteDatabase.inMemory()
        let household = try await TestHousehold.make()
        // A third phone: the owner's second device.
        let third = try await household.secondDevice(of: household.owner)
        let (a, b) = (household.owner, household.member)
        // A lone first digit lasts 3 s: the presses are stamped with one fixed time, so a slow
        // machine cannot let A's 4 expire before its 2 arrives.
        let now = Date()
        let app = try await makeApplication(apps: [RemoteApp(store: store, now: { now })], household: household)
        try await app.test(.router) { client in
            #expect(try await press(client, a, "/remote/tv/power", body: "power=on").status == .seeOther)
            // A presses 4, B presses 7: each phone's page shows its own digit.
            #expect(try await press(client, a, "/remote/tv/digit/4").status == .seeOther)
            #expect(try await press(client, b, "/remote/tv/digit/7").status == .seeOther)
            #expect(try await channel(client, on: a) == "4-")
            #expect(try await channel(client, on: b) == "7-")
            #expect(try await channel(client, on: third) == "01")
            // And the Screen shows neither.
            let screen = try await client.execute(uri: "/remote/screen", method: .get, headers: [.cookie: third.cookie]).text
            #expect(screen.contains(#"<span class="osd__channel" id="screen-channel">01</span>"#))
            // A presses 2: 42; B presses 5: 75.
            _ = try await press(client, a, "/remote/tv/digit/2")
            #expect(try await store.television().device.channel.number == 42)
            #expect(try await channel(client, on: b) == "7-")
            _ = try await press(client, b, "/remote/tv/digit/5")
            #expect(try await store.television().device.channel.number == 75)
            #expect(try await channel(client, on: a) == "75")
            #expect(try await channel(client, on: b) == "75")
        }
    }
}
