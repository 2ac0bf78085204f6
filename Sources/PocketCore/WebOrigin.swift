import Foundation

/// The scheme, host and port of an http(s) URL, the default port filled in
/// (`https://example.org:443`), for deciding whether two addresses are the same server.
public enum WebOrigin {
    /// The origin of `url`, or nil for anything but http(s) with a host.
    public static func of(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        return "\(scheme)://\(host):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }
}
