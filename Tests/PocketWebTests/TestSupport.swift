import Foundation
import Hummingbird
import HummingbirdTesting
import PocketCore
@testable import PocketWeb

/// An app registered only in tests, to prove registration, prefixes and error handling.
struct FixtureApp: PocketApp {
    struct Failure: Error {}

    var descriptor: AppDescriptor {
        AppDescriptor(id: "fixture", name: "Fixture <App>", icon: "icons/apps/plates.svg", summary: "A test app & more")
    }

    var externalSources: ExternalSources {
        ExternalSources(imageSources: ["https://images.example"], frameSources: ["https://frames.example"])
    }

    func addRoutes(to group: RouterGroup<PocketRequestContext>, environment: WebEnvironment) {
        group.get { _, context in
            environment.renderer.page(frame: PageFrame(title: "Fixture"), context: context) { _ in OfflineView(home: "/") }
        }
        group.get("boom") { _, _ -> Response in
            throw Failure()
        }
        group.get("teapot") { _, _ -> Response in
            throw HTTPError(.badRequest, message: "The kettle <b>boiled</b> dry.")
        }
        group.get("cannot-open") { _, _ -> Response in
            // SQLite's own SQLITE_CANTOPEN, as when the process is out of file handles.
            let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-folder-\(UUID().uuidString)/data.sqlite")
            _ = try DatabaseFactory.onDisk(at: missing, label: "fixture")
            return Response(status: .ok)
        }
    }
}

/// A household for route tests: an owner and a member, each with one signed-in device whose
/// stored session is real (the cookie goes through hummingbird-auth's session middleware and
/// authenticator like a browser's).
struct TestHousehold: Sendable {
    struct Member: Sendable {
        let person: Person
        let device: Device
        /// The `Cookie` header value that signs a request in as this member's device.
        let cookie: String
        /// The device's CSRF token.
        var token: String { device.csrfToken }
    }

    let people: PeopleDatabase
    let owner: Member
    let member: Member

    static func make() async throws -> TestHousehold {
        let people = try PeopleDatabase.inMemory()
        func member(_ name: String, owner: Bool) async throws -> Member {
            let person = try await people.addPerson(name: name, password: "correct horse battery", isOwner: owner)
            return try await signIn(person, in: people)
        }
        return TestHousehold(people: people, owner: try await member("Owner", owner: true), member: try await member("Bea", owner: false))
    }

    /// Another signed-in device (another phone) of the same person.
    func secondDevice(of member: Member) async throws -> Member {
        try await Self.signIn(member.person, in: people)
    }

    private static func signIn(_ person: Person, in people: PeopleDatabase) async throws -> Member {
        let device = try await people.addDevice(for: person.id, userAgent: "Pocket tests")
        let key = RandomToken.make()
        let value = try JSONEncoder().encode(DeviceSession(deviceID: device.id))
        try await people.storeSession(key: WebPeople.sessionKeyPrefix + key, value: value, expires: Date().addingTimeInterval(3600), deviceID: device.id)
        return Member(person: person, device: device, cookie: "\(WebPeople.cookieName)=\(key)")
    }
}

/// Signs every request that carries no session cookie in as `member`, as the browser would.
struct SignInAs: RouterMiddleware {
    typealias Context = PocketRequestContext
    let member: TestHousehold.Member?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let member, !(request.headers[.cookie] ?? "").contains(WebPeople.cookieName + "=") else {
            return try await next(request, context)
        }
        var head = request.head
        head.headerFields[.cookie] = (request.headers[.cookie].map { $0 + "; " } ?? "") + member.cookie
        return try await next(Request(head: head, body: request.body), context)
    }
}

/// Builds the real router with the bundled templates and assets. Requests are signed in as the
/// household's owner unless they carry their own session cookie, or `signedIn` is false.
func makeApplication(apps: [any PocketApp] = [], household: TestHousehold? = nil, signedIn: Bool = true) async throws -> some ApplicationProtocol {
    let renderer = try PageRenderer(resources: WebResources.bundled())
    let household = if let household { household } else { try await TestHousehold.make() }
    let router = Router(context: PocketRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: SignInAs(member: signedIn ? household.owner : nil))
    let people = WebPeople(store: household.people, throttle: AttemptThrottle(), setupToken: RandomToken.make())
    return Application(router: buildRouter(renderer: renderer, apps: apps, people: people, router: router))
}

extension TestResponse {
    /// The body as text.
    var text: String { String(buffer: body) }

    /// The CSRF token in the page's `csrf-token` meta tag.
    var pageToken: String? {
        let marker = #"<meta name="csrf-token" content=""#
        guard let start = text.range(of: marker)?.upperBound, let end = text[start...].firstIndex(of: "\"") else { return nil }
        return String(text[start..<end])
    }

    /// The CSRF token the server handed out in its cookie (to a browser not signed in).
    var csrfCookie: String? {
        headers[values: .setCookie].lazy.compactMap { header -> String? in
            guard header.hasPrefix("pocket_csrf=") else { return nil }
            return header.dropFirst("pocket_csrf=".count).split(separator: ";").first.map(String.init)
        }.first
    }
}

extension TestClientProtocol {
    /// GETs the home screen and returns the CSRF token its page carries (the signed-in device's).
    func sessionToken() async throws -> String {
        try await execute(uri: "/", method: .get) { response in
            guard let token = response.pageToken else { throw HTTPError(.internalServerError, message: "no token") }
            return token
        }
    }
}

// MARK: - The outbox contract

/// A time an hour ago, in milliseconds since 1970: outbox changes in tests count from here, so
/// every one lies inside `ChangeTime`'s bounds.
let outboxBase: Int64 = ChangeTime.milliseconds(Date()) - 3_600_000

extension TestHousehold.Member {
    /// An outbox change made on this member's device, as `Outbox` reads it.
    func change(_ id: String, at: Int64, _ body: String) -> String {
        outboxChange(id, at: at, device: device.tag, body)
    }
}

/// The JSON of an outbox change: `{id, at, device, body}`.
func outboxChange(_ id: String, at: Int64, device: String, _ body: String) -> String {
    #"{"id":"\#(id)","at":\#(at),"device":"\#(device)","body":\#(body)}"#
}

extension TestResponse {
    /// The device tag in the page's `pocket-device` meta tag (the signed-in device's).
    var pageDevice: String? {
        let marker = #"<meta name="pocket-device" content=""#
        guard let start = text.range(of: marker)?.upperBound, let end = text[start...].firstIndex(of: "\"") else { return nil }
        return String(text[start..<end])
    }
}

extension TestClientProtocol {
    /// GETs the home screen and returns the signed-in device's CSRF token and tag.
    func sessionDevice() async throws -> (token: String, device: String) {
        try await execute(uri: "/", method: .get) { response in
            guard let token = response.pageToken, let device = response.pageDevice else { throw HTTPError(.internalServerError, message: "not signed in") }
            return (token, device)
        }
    }
}
