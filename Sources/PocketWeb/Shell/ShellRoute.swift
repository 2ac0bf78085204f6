import Hummingbird

/// Every route of the shell, used both to register handlers and to build links,
/// so a link can never point at a route that does not exist.
public enum ShellRoute: Sendable, Equatable {
    /// The springboard.
    case home
    /// The living style guide.
    case design
    /// The style guide's live-update demo stream (Server-Sent Events).
    case designEvents
    /// Shown by the service worker when offline with nothing cached.
    case offline
    /// The web app manifest.
    case manifest
    /// The service worker script (served from the root so its scope is the whole site).
    case serviceWorker
    /// A static file below `/static/`.
    case asset(String)
    /// Whether every database can be read, for a monitor (no sign-in, no personal data).
    case health

    /// The pattern registered with the router.
    var pattern: RouterPath {
        switch self {
        case .home: return "/"
        case .design: return "/design"
        case .designEvents: return "/design/events"
        case .offline: return "/offline"
        case .manifest: return "/manifest.webmanifest"
        case .serviceWorker: return "/sw.js"
        case .asset: return "/static/**"
        case .health: return "/healthz"
        }
    }

    /// The link to this route.
    public var href: String {
        switch self {
        case .home: return "/"
        case .design: return "/design"
        case .designEvents: return "/design/events"
        case .offline: return "/offline"
        case .manifest: return "/manifest.webmanifest"
        case .serviceWorker: return "/sw.js"
        case .asset(let path): return "/static/\(path)"
        case .health: return "/healthz"
        }
    }
}
