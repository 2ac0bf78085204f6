import Hummingbird

/// How an app plugs into Pocket: its name, icon, route prefix and routes, declared in one place.
public protocol PocketApp: Sendable {
    /// Name, icon and prefix shown on the home screen.
    var descriptor: AppDescriptor { get }
    /// Outside sources the app's pages need (images, frames, media).
    var externalSources: ExternalSources { get }
    /// Adds the app's routes below its prefix.
    func addRoutes(to group: RouterGroup<PocketRequestContext>, environment: WebEnvironment)
}

extension PocketApp {
    /// Most apps need nothing from outside.
    public var externalSources: ExternalSources { ExternalSources() }
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
}
