import Hummingbird
import Logging

/// Per-request state shared by Pocket's middleware and controllers.
public struct PocketRequestContext: RequestContext {
    /// Hummingbird's own per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The browser session's CSRF token, set by `SessionMiddleware` before any route runs.
    public var csrfToken: String = ""
    /// Whether the request arrived over HTTPS, so cookies can be marked `Secure`.
    public var isSecure: Bool = false
    /// The signed-in device and person, set by the authenticator; nil for a stranger.
    public var identity: SignedIn?

    /// Creates the context for one request.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
    }

    /// Forms and JSON bodies are small; uploads that need more collect their own body with a larger limit.
    public var maxUploadSize: Int { 1 << 20 }
}
