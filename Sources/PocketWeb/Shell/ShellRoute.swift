import Hummingbird

/// Every route of the shell, used both to register handlers and to build links,
/// so a link can never point at a route that does not exist.
public enum ShellRoute: AppRoute, Sendable, Equatable {
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

    /// Each path of the shell, spelled once, at the root.
    enum Path: String, RoutePath {
        case home = ""
        case design
        case designEvents = "design/events"
        case offline
        case manifest = "manifest.webmanifest"
        case serviceWorker = "sw.js"
        case asset = "static/**"
        case health = "healthz"
    }

    static let prefix = ""

    var path: Path {
        switch self {
        case .home: .home
        case .design: .design
        case .designEvents: .designEvents
        case .offline: .offline
        case .manifest: .manifest
        case .serviceWorker: .serviceWorker
        case .asset: .asset
        case .health: .health
        }
    }

    var parameters: [String] {
        if case .asset(let file) = self { [file] } else { [] }
    }
}
