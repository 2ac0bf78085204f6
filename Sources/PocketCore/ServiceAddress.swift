import Foundation

/// What Pocket takes as the address of an outside service: only ever an http(s) URL with a host.
/// `PocketConfiguration` checks every address setting (`Settings`) by these, so the rules are the
/// same for each.
public enum ServiceAddress {
    /// `text` as an http or https URL with a host, or nil.
    public static func httpURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else { return nil }
        return url
    }

    /// `template` when it is a map tile address Leaflet can fill in: an http(s) URL with a host once
    /// `{z}`, `{x}`, `{y}` (and a `{s}` subdomain) are filled, with all three of those; else nil.
    /// Here rather than in Murals so the configuration can refuse a bad one before the server starts.
    public static func tileTemplate(_ template: String) -> String? {
        let probe = template.replacingOccurrences(of: "{z}", with: "0").replacingOccurrences(of: "{x}", with: "0")
            .replacingOccurrences(of: "{y}", with: "0").replacingOccurrences(of: "{s}", with: "a")
        guard ["{z}", "{x}", "{y}"].allSatisfy(template.contains), let url = URL(string: probe),
              let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil
        else { return nil }
        return template
    }
}
