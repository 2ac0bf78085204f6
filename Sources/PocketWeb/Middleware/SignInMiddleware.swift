import Foundation
import Hummingbird
import PocketCore
import Synchronization

/// After hummingbird-auth's authenticator: a signed-in device's forms carry its own token, its
/// last-seen time moves, and its session is renewed for another year once a day of use.
struct DeviceUpkeepMiddleware: RouterMiddleware {
    typealias Context = PocketRequestContext

    let people: PeopleDatabase

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let identity = context.identity else { return try await next(request, context) }
        var context = context
        context.csrfToken = identity.device.csrfToken
        let now = Date()
        // The device row was just read: write only when "last seen" is a minute old, not every request.
        if now.timeIntervalSince(identity.device.lastSeen) >= 60 {
            try await people.touch(deviceID: identity.device.id, at: now)
        }
        context.sessions.withLockedSession { session in
            let remaining = session?.expiresIn ?? .zero
            if remaining < WebPeople.deviceLifetime - .seconds(24 * 60 * 60) {
                session?.expiresIn = WebPeople.deviceLifetime
            }
        }
        return try await next(request, context)
    }
}

/// A Pocket nobody has set up serves only its setup link (and the files that page needs).
struct SetupGate: RouterMiddleware {
    typealias Context = PocketRequestContext

    let people: PeopleDatabase
    let setupPath: String
    let renderer: PageRenderer
    /// Once someone exists, the Pocket stays set up (the last owner cannot be removed), so the
    /// store is asked only until then.
    private let knownSetUp = Latch()

    init(people: PeopleDatabase, setupPath: String, renderer: PageRenderer) {
        self.people = people
        self.setupPath = setupPath
        self.renderer = renderer
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        let allowed = path.hasPrefix("/setup/") || path.hasPrefix("/static/") || path == "/sw.js" || path == "/manifest.webmanifest"
            || path == ShellRoute.health.href
        if allowed || knownSetUp.isSet {
            return try await next(request, context)
        }
        let isSetUp = !(try await people.isEmpty())
        if isSetUp {
            knownSetUp.set()
            return try await next(request, context)
        }
        let model = NotSetUp.Model()
        return renderer.page(frame: PageFrame(title: "Set Up Pocket"), context: context, status: .serviceUnavailable) { _ in NotSetUp.View(model: model) }
    }
}

/// Guards the group every private route is registered in: a stranger gets the sign-in page
/// (HTML) or 401. Being route-group middleware, it decides by the route that matched, never
/// by how the path is spelled.
struct RequireSignIn: RouterMiddleware {
    typealias Context = PocketRequestContext

    let renderer: PageRenderer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if context.identity != nil {
            return try await next(request, context)
        }
        let wantsHTML = request.method == .get && (request.headers[.accept] ?? "").contains("text/html")
        guard wantsHTML else {
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; charset=utf-8"
            headers[.wwwAuthenticate] = "Cookie realm=\"Pocket\""
            return Response(status: .unauthorized, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "Sign in to Pocket first.\n")))
        }
        let model = SignInPage.Model(next: SignInPage.safeNext(request.uri.description), name: "", problem: nil)
        return renderer.page(frame: PageFrame(title: "Sign In"), context: context, status: .unauthorized) { SignInPage.View(model: model, chrome: $0) }
    }
}

/// A flag that, once set, stays set; shared by every copy of the middleware.
final class Latch: Sendable {
    private let value = Mutex(false)

    var isSet: Bool { value.withLock { $0 } }

    func set() {
        value.withLock { $0 = true }
    }
}
