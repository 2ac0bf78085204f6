/// Problems of the web front end: starting it, or a request's path.
public enum WebError: Error, Equatable, CustomStringConvertible {
    /// The static files are not next to the executable.
    case resourcesMissing(String)
    /// The TLS certificate or key could not be loaded.
    case tlsUnusable(String)
    /// A request's path matched a route, but a part of it does not spell the value it stands for
    /// (`/murals/mural/abc`): there is no such page.
    case noSuchPage(String)

    /// A one-line message.
    public var description: String {
        switch self {
        case .resourcesMissing(let path):
            return "Pocket's web resources are missing (looked in \(path)); run Pocket from its build folder or rebuild it"
        case .tlsUnusable(let detail):
            return "cannot use the TLS certificate/key: \(detail)"
        case .noSuchPage(let path):
            return "There is no page at \(path)."
        }
    }
}
