import HTTPTypes
import Hummingbird
import HummingbirdAuth
import Logging
import NIOCore

/// Per-request state shared by Pocket's middleware and controllers.
public struct PocketRequestContext: AuthRequestContext, SessionRequestContext {
    /// Hummingbird's own per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The token this request's forms must carry: the signed-in device's, or a stranger's cookie token.
    public var csrfToken: String = ""
    /// Whether the request arrived over HTTPS (directly, or through the trusted proxy).
    public var isSecure: Bool = false
    /// The client's address: the peer's, or the one the trusted proxy forwarded.
    public var clientAddress: String = "unknown"
    /// How fast each person's changes are taken, set for every request by the router; nil takes them all.
    var changeRate: ChangeRate?
    /// Whether a personal answer (a page) may go gzip-compressed, by `Compression`'s rule: set by
    /// `CompressionMiddleware`, so a kept page is sent compressed from its memo, not compressed again.
    var mayCompressPersonal = false
    /// Who asks for a page and what they hold already, set by `ClientMiddleware`: what a page links
    /// and preloads follows from it (`PageRenderer.pageContext(for:app:)`).
    var pageFetch = PageFetch.other
    /// The signed-in device and person, set by the authenticator; nil for a stranger.
    public var identity: SignedIn?
    /// hummingbird-auth's session for this request (which device it is).
    public let sessions: SessionContext<DeviceSession>
    /// The connection's peer: the client, or the reverse proxy in front of Pocket.
    public let remoteAddress: SocketAddress?

    /// Creates the context for one request.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.sessions = .init()
        self.remoteAddress = source.channel.remoteAddress
    }

    /// Forms and JSON bodies are small; uploads that need more collect their own body with a larger limit.
    public var maxUploadSize: Int { 1 << 20 }
}

/// How a page was asked for, as far as it changes what the page should load.
enum PageFetch: Sendable {
    /// A navigation Pocket's service worker preloaded as it woke (`Service-Worker-Navigation-Preload`):
    /// the worker answers every stylesheet and module from its cache at once, so the page names no
    /// module to preload; fetching and compiling them all up front only delayed a repeat visit's
    /// first paint (`bench/phone-load.py`).
    case workerPreload
    /// Any other navigation (`Sec-Fetch-Mode: navigate`): a first visit, with no worker yet, or
    /// one through a worker that cannot preload. The page carries its stylesheets inside itself
    /// (`InlineStyles`) and names every module.
    case navigation
    /// Anything else (pocket.js swapping a screen in, a script's or a test's request):
    /// stylesheets linked, every module named.
    case other

    /// The kind of `headers`' request.
    init(_ headers: HTTPFields) {
        if headers[.serviceWorkerNavigationPreload] != nil {
            self = .workerPreload
        } else if headers[.secFetchMode]?.lowercased() == "navigate" {
            self = .navigation
        } else {
            self = .other
        }
    }
}
