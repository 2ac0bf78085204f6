import Hummingbird
import PocketTLS

/// Every route of the trust page and what follows it, each declared once, at the root;
/// `TrustPages` and `WelcomePages` give each its handler, and links are built from the same values.
public enum TrustRoute {
    static let prefix = ""

    /// The page a phone is sent to first, on plain HTTP: how to trust Pocket once, then on to HTTPS.
    static let page = Route(.get, "trust", under: prefix)
    /// After pairing, on HTTPS: adding Pocket to the Home Screen.
    static let welcome = Route(.get, "welcome", under: prefix)

    /// A download of Pocket's CA, in the form a kind of phone installs: one route per form, so an
    /// unknown file below `/trust/` is redirected to HTTPS like any other plain-HTTP address.
    static func download(_ file: TrustDownload) -> Route<> {
        Route(.get, "trust/" + file.fileName, under: prefix)
    }

    /// The link to the trust page, for the command line's printout.
    public static var pageHref: String { page.href() }
}
