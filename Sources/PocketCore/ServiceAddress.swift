import Foundation

/// How Pocket reads the address of an outside service: an option, else an environment variable,
/// else the app's default, and only ever an http(s) URL with a host.
public enum ServiceAddress {
    /// The first of `option` and `environment[variable]` that is not blank, trimmed; nil when neither is given.
    public static func given(option: String?, variable: String, environment: [String: String]) -> String? {
        [option, environment[variable]].lazy
            .compactMap { $0?.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty }
    }

    /// `text` as an http or https URL with a host, or nil.
    public static func httpURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else { return nil }
        return url
    }
}
