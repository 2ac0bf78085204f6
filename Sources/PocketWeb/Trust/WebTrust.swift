import PocketCore
import PocketTLS

/// What the web front end needs of Pocket's own certificate authority when it serves HTTPS with
/// it: the CA and current leaf (through the keeper), and the listeners' ports once they are bound.
public struct WebTrust: Sendable {
    /// Keeps the leaf current; holds the CA.
    public let keeper: LeafKeeper
    /// The HTTPS listener's port.
    public let httpsPort: @Sendable () -> Int
    /// The plain-HTTP listener's port (the trust page's).
    public let httpPort: @Sendable () -> Int

    /// Creates the dependency; the ports are read when needed, since `--port 0` is known only once bound.
    public init(keeper: LeafKeeper, httpsPort: @escaping @Sendable () -> Int, httpPort: @escaping @Sendable () -> Int) {
        self.keeper = keeper
        self.httpsPort = httpsPort
        self.httpPort = httpPort
    }

    /// Where phones are sent now: the current leaf's names first, then its addresses, through the trust page.
    public var phoneLinks: PhoneLinks {
        Self.phoneLinks(leaf: keeper.current, httpsPort: httpsPort(), httpPort: httpPort())
    }

    /// The links for a leaf: every name and address it covers that a phone can use (what the
    /// certificate covers is exactly what works), through the trust page on `httpPort`.
    public static func phoneLinks(leaf: LeafCertificate, httpsPort: Int, httpPort: Int) -> PhoneLinks {
        let hosts = ServedNames(names: leaf.names, addresses: leaf.addresses).phoneHosts
        return PhoneLinks(hosts: hosts, secure: true, port: httpsPort, trustPage: .init(port: httpPort, path: TrustRoute.page.href()))
    }
}
