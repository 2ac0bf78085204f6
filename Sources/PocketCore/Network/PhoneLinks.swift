/// The links a phone is given for a path of Pocket (`/join/…`, `/setup/…`, `/`): one per host a
/// phone can reach, name first. With Pocket's own certificate authority each goes through the
/// trust page on plain HTTP, the path in the URL fragment (which a browser never sends), so a
/// phone that does not trust Pocket yet is shown how, and nothing secret crosses plain HTTP.
public struct PhoneLinks: Sendable, Equatable {
    /// Where the trust page is served: the plain-HTTP port and the page's path.
    public struct TrustPage: Sendable, Equatable {
        /// The plain-HTTP listener's port.
        public let port: Int
        /// The page's path, e.g. `/trust`.
        public let path: String

        /// Creates the trust page's place.
        public init(port: Int, path: String) {
            self.port = port
            self.path = path
        }
    }

    /// Host names and addresses, best first.
    public let hosts: [String]
    /// Whether Pocket's main listener speaks HTTPS.
    public let secure: Bool
    /// The main listener's port.
    public let port: Int
    /// The trust page, when Pocket serves HTTPS with its own certificate authority.
    public let trustPage: TrustPage?

    /// Creates the links' parts.
    public init(hosts: [String], secure: Bool, port: Int, trustPage: TrustPage?) {
        self.hosts = hosts
        self.secure = secure
        self.port = port
        self.trustPage = trustPage
    }

    /// Whether any link leads beyond this machine's loopback (`localhost`, 127.0.0.0/8, `::1`),
    /// which is all a phone can open.
    public var reachBeyondThisMachine: Bool {
        hosts.contains { $0.lowercased() != "localhost" && !ServedNames.isLoopbackAddress($0) }
    }

    /// `https://name:8443`, one per host.
    public var baseURLs: [String] {
        hosts.map { "\(secure ? "https" : "http")://\(HostName.urlHost($0)):\(port)" }
    }

    /// The links to `path`, one per host: straight to it, or through the trust page.
    public func links(to path: String) -> [String] {
        guard let trustPage else { return baseURLs.map { $0 + path } }
        return hosts.map { "http://\(HostName.urlHost($0)):\(trustPage.port)\(trustPage.path)" + (path == "/" ? "" : "#" + path) }
    }
}
