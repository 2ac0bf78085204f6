/// Problems starting the web front end.
public enum WebError: Error, Equatable, CustomStringConvertible {
    /// The static files are not next to the executable.
    case resourcesMissing(String)
    /// The TLS certificate or key could not be loaded.
    case tlsUnusable(String)

    /// A one-line message.
    public var description: String {
        switch self {
        case .resourcesMissing(let path):
            return "Pocket's web resources are missing (looked in \(path)); run Pocket from its build folder or rebuild it"
        case .tlsUnusable(let detail):
            return "cannot use the TLS certificate/key: \(detail)"
        }
    }
}
