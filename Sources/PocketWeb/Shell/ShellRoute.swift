import Hummingbird

/// Every route of the shell, each declared once, at the root; `ShellPages` gives each its handler,
/// and links (and the service worker's `ROUTES`, and `AssetCatalog`'s folder) are built from the
/// same values.
public enum ShellRoute {
    static let prefix = ""

    /// The springboard.
    static let home = Route(.get, "", under: prefix)
    /// The living style guide, and its demo form's round trip.
    static let design = Route(.get, "design", under: prefix)
    static let designPost = Route(.post, "design", under: prefix)
    /// The style guide's live-update demo stream (Server-Sent Events).
    static let designEvents = Route(.get, "design/events", under: prefix)
    /// Shown by the service worker when offline with nothing cached.
    static let offline = Route(.get, "offline", under: prefix)
    /// The web app manifest.
    static let manifest = Route(.get, "manifest.webmanifest", under: prefix)
    /// The service worker script (served from the root so its scope is the whole site).
    static let serviceWorker = Route(.get, "sw.js", under: prefix)
    /// A static file below `/static/`.
    static let asset = Route(.get, "static/**", String.self, under: prefix)
    /// Whether every database can be read, for a monitor (no sign-in, no personal data).
    static let health = Route(.get, "healthz", under: prefix)
}
