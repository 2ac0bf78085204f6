import Foundation
import PocketCore

/// Where the sci-core manifest lives: the `--manifest-url` option, else `POCKET_SCI_MANIFEST_URL`,
/// else the assignment's address. Shared by `pocket conference update` and `pocket serve`, so both
/// accept and refuse exactly the same addresses.
public enum ManifestLocation {
    /// The environment variable that names the manifest.
    public static let environmentKey = "POCKET_SCI_MANIFEST_URL"

    /// A manifest address that is not an http(s) URL with a host.
    public struct InvalidURL: Error, Equatable, Sendable, CustomStringConvertible {
        /// The address as given.
        public let text: String

        /// Creates the error for `text`.
        public init(text: String) {
            self.text = text
        }

        /// A one-line message.
        public var description: String {
            "invalid manifest URL '\(text)': use an http or https address such as \(SCIManifest.defaultURL)"
        }
    }

    /// The manifest URL to use; a blank option or variable counts as not given.
    public static func resolve(option: String?, environment: [String: String]) throws(InvalidURL) -> URL {
        let text = ServiceAddress.given(option: option, variable: environmentKey, environment: environment) ?? SCIManifest.defaultURL
        guard let url = ServiceAddress.httpURL(text) else { throw InvalidURL(text: text) }
        return url
    }
}
