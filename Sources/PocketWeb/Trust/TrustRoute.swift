import Hummingbird
import PocketTLS

/// Every route of the trust page and what follows it: registers handlers and builds links.
public enum TrustRoute: Sendable, Equatable {
    /// The page a phone is sent to first, on plain HTTP: how to trust Pocket once, then on to HTTPS.
    case page
    /// A download of Pocket's CA, in the form a kind of phone installs.
    case download(TrustDownload)
    /// After pairing, on HTTPS: adding Pocket to the Home Screen.
    case welcome

    /// The pattern registered with the router.
    var pattern: RouterPath {
        RouterPath(href)
    }

    /// The link to this route.
    public var href: String {
        switch self {
        case .page: "/trust"
        case .download(let file): "/trust/\(file.fileName)"
        case .welcome: "/welcome"
        }
    }
}
