import Hummingbird
import PocketCore
import Synchronization

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
        let allowed = path.hasPrefix(PeopleRoute.setupPage.folder) || path.hasPrefix(ShellRoute.asset.folder)
            || [ShellRoute.serviceWorker, ShellRoute.manifest, ShellRoute.health].contains { path == $0.href() }
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

/// A flag that, once set, stays set; shared by every copy of the middleware.
final class Latch: Sendable {
    private let value = Mutex(false)

    var isSet: Bool { value.withLock { $0 } }

    func set() {
        value.withLock { $0 = true }
    }
}
