import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PocketCore
import Remote
import Testing
@testable import PocketWeb

/// Two phones on one TV: a half-typed channel stays on the phone that typed it.
@Suite("Remote routes from two phones")
struct RemotePhonesRouteTests {
    /// Signs each request in as the device its `X-Test-Device` header names, standing in for sign-in.
    private struct TestDeviceMiddleware: RouterMiddleware {
        typealias Context = PocketRequestContext
        static let header = HTTPField.Name("X-Test-Device")

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            var context = context
            if let name = Self.header, let id = request.headers[name] {
                let now = Date()
                context.identity = SignedIn(
                    person: Person(id: .firstOwner, name: "Owner", isOwner: true, createdAt: now),
                    device: Device(id: id, person: .firstOwner, name: id, csrfToken: context.csrfToken, firstSeen: now, lastSeen: now)
                )
            }
            return try await next(request, context)
        }
    }

    /// The real router, with the Remote app's routes behind the stand-in sign-in.
    private func application(_ app: RemoteApp) async throws -> some ApplicationProtocol {
        let renderer = try await PageRenderer(resources: WebResources.bundled())
        let router = buildRouter(renderer: renderer, apps: [])
        let group = router.group(RouterPath(app.descriptor.href)).add(middleware: TestDeviceMiddleware())
        app.addRoutes(to: group, environment: WebEnvironment(renderer: renderer))
        return Application(router: router)
    }

    private func headers(_ device: String, token: String? = nil) -> HTTPFields {
        var fields = HTTPFields()
        if let name = TestDeviceMiddleware.header { fields[name] = device }
        if let token {
            fields[.contentType] = "application/x-www-form-urlencoded"
            fields[.cookie] = "pocket_csrf=\(token)"
        }
        return fields
    }

    private func press(_ client: some TestClientProtocol, _ device: String, _ uri: String, token: String, body: String = "") async throws -> TestResponse {
        try await client.execute(uri: uri, method: .post, headers: headers(device, token: token), body: ByteBuffer(string: "_csrf=\(token)&" + body))
    }

    private func channel(_ client: some TestClientProtocol, on device: String) async throws -> String? {
        let page = try await client.execute(uri: "/remote/tv", method: .get, headers: headers(device)).text
        guard let start = page.range(of: #"<span id="tv-channel" aria-hidden="true">"#),
              let end = page[start.upperBound...].range(of: "</span>") else { return nil }
        return String(page[start.upperBound..<end.lowerBound])
    }

    @Test func twoPhonesTypingAtOnceEachTuneWhatTheyTyped() async throws {
        let store = try RemoteDatabase.inMemory()
        let remote = RemoteApp(store: store)
        let app = try await application(remote)
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            #expect(try await press(client, "phone-a", "/remote/tv/power", token: token, body: "power=on").status == .seeOther)
            // A presses 4, B presses 7: each phone's page shows its own digit
            #expect(try await press(client, "phone-a", "/remote/tv/digit/4", token: token).status == .seeOther)
            #expect(try await press(client, "phone-b", "/remote/tv/digit/7", token: token).status == .seeOther)
            #expect(try await channel(client, on: "phone-a") == "4-")
            #expect(try await channel(client, on: "phone-b") == "7-")
            #expect(try await channel(client, on: "phone-c") == "01")
            // And the Screen shows neither
            let screen = try await client.execute(uri: "/remote/screen", method: .get).text
            #expect(screen.contains(#"<span class="osd__channel" id="screen-channel">01</span>"#))
            // A presses 2: 42; B presses 5: 75
            _ = try await press(client, "phone-a", "/remote/tv/digit/2", token: token)
            #expect(try await store.television().device.channel.number == 42)
            #expect(try await channel(client, on: "phone-b") == "7-")
            _ = try await press(client, "phone-b", "/remote/tv/digit/5", token: token)
            #expect(try await store.television().device.channel.number == 75)
            #expect(try await channel(client, on: "phone-a") == "75")
            #expect(try await channel(client, on: "phone-b") == "75")
        }
    }
}
