/// Outside sources an app needs, and the Content-Security-Policy they produce: same-origin everything, no inline script,
/// widened only by the outside sources that registered apps declare. The server's one policy: each app declares its
/// sources (`PocketApp.externalSources`), `buildApplication` merges them, `SecurityHeadersMiddleware` sends the result
/// and the trust listener's `TrustHeadersMiddleware` widens it by the HTTPS origin.
public struct ExternalSources: Sendable, Equatable {
    /// Extra image sources (e.g. `https://upload.wikimedia.org`).
    public var imageSources: [String] = []
    /// Extra audio/video sources.
    public var mediaSources: [String] = []
    /// Sources that may be shown in a sandboxed frame.
    public var frameSources: [String] = []
    /// Extra fetch/EventSource destinations.
    public var connectSources: [String] = []
    /// Hashes (`'sha256-…'`) of the inline scripts Pocket itself writes: the import map only.
    public var scriptHashes: [String] = []
    /// Hashes (`'sha256-…'`) of the stylesheets a first visit's page carries inside itself (`InlineStyles`).
    public var styleHashes: [String] = []
    /// Map tile templates (`https://tile.openstreetmap.org/{z}/{x}/{y}.png`): their hosts are
    /// allowed as images and, for the service worker that keeps viewed tiles, as fetches.
    public var tileTemplates: [String] = []

    /// Creates a policy with optional extra sources.
    public init(imageSources: [String] = [], mediaSources: [String] = [], frameSources: [String] = [], connectSources: [String] = [], scriptHashes: [String] = [], styleHashes: [String] = [], tileTemplates: [String] = []) {
        self.imageSources = imageSources
        self.mediaSources = mediaSources
        self.frameSources = frameSources
        self.connectSources = connectSources
        self.scriptHashes = scriptHashes
        self.styleHashes = styleHashes
        self.tileTemplates = tileTemplates
    }

    /// This policy widened by another's sources, without duplicates.
    public func merged(with other: ExternalSources) -> ExternalSources {
        func union(_ a: [String], _ b: [String]) -> [String] {
            var seen = Set<String>()
            return (a + b).filter { seen.insert($0).inserted }
        }
        return ExternalSources(
            imageSources: union(imageSources, other.imageSources),
            mediaSources: union(mediaSources, other.mediaSources),
            frameSources: union(frameSources, other.frameSources),
            connectSources: union(connectSources, other.connectSources),
            scriptHashes: union(scriptHashes, other.scriptHashes),
            styleHashes: union(styleHashes, other.styleHashes),
            tileTemplates: union(tileTemplates, other.tileTemplates)
        )
    }

    /// The header value.
    public var headerValue: String {
        func list(_ base: [String], _ extra: [String]) -> String {
            (base + extra).joined(separator: " ")
        }
        return [
            "default-src 'self'",
            "script-src \(list(["'self'"], scriptHashes))",
            "style-src \(list(["'self'"], styleHashes))",
            "img-src \(list(["'self'", "data:"], imageSources))",
            "media-src \(list(["'self'"], mediaSources))",
            "frame-src \(frameSources.isEmpty ? "'none'" : frameSources.joined(separator: " "))",
            "connect-src \(list(["'self'"], connectSources))",
            "font-src 'self'",
            "manifest-src 'self'",
            "worker-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }
}
