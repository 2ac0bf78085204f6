import Hummingbird
import Logging
import PocketCore

/// How an app plugs into Pocket: its name, icon, route prefix and routes, declared in one place.
public protocol PocketApp: Sendable {
    /// Name, icon and prefix shown on the home screen.
    var descriptor: AppDescriptor { get }
    /// Outside sources the app's pages need (images, frames, media).
    var externalSources: ExternalSources { get }
    /// Adds the app's routes below its prefix.
    func addRoutes(to group: RouterGroup<PocketRequestContext>, environment: WebEnvironment)
    /// Whether the app's stores can be read, for `GET /healthz`: nil, or a one-line reason with
    /// no personal data in it.
    func healthProblem() async -> String?
    /// Work the app does while Pocket serves (a start-up sync, an update check). It runs once the
    /// server starts and is cancelled at shutdown, so it must return promptly when cancelled.
    func runInBackground(logger: Logger) async
}

extension PocketApp {
    /// Most apps need nothing from outside.
    public var externalSources: ExternalSources { ExternalSources() }

    /// An app without a store of its own is always well.
    public func healthProblem() async -> String? { nil }

    /// Most apps have nothing to do in the background.
    public func runInBackground(logger: Logger) async {}
}

/// The springboard entry for an app.
public struct AppDescriptor: Sendable, Equatable {
    /// Stable identifier, also the route prefix (`/plates`).
    public let id: String
    /// Name under the icon.
    public let name: String
    /// Asset path of the icon below `/static/` (an SVG).
    public let icon: String
    /// One line for screen readers and the manifest's shortcut.
    public let summary: String

    /// Creates a descriptor; `id` must be a lowercase path segment.
    public init(id: String, name: String, icon: String, summary: String) {
        self.id = id
        self.name = name
        self.icon = icon
        self.summary = summary
    }

    /// The app's root URL.
    public var href: String { "/\(id)" }
}

/// What an app's routes are given by the shell; an app's own stores are passed to the app itself.
public struct WebEnvironment: Sendable {
    /// Renders pages in the shared layout.
    public let renderer: PageRenderer
    /// Every open event stream, bounded per person.
    public let streams: OpenStreams
    /// Which page caches keep: all, but in the page benchmark.
    public let caches: Caches
}
