import Foundation

/// Where the sci-core manifest lives: the address the configuration resolved (`--manifest-url`, else
/// `POCKET_SCI_MANIFEST_URL`; `PocketConfiguration.sciManifest` reads and checks both), else the
/// assignment's. Shared by `pocket conference update` and `pocket serve`, so both use the same one.
public enum ManifestLocation {
    /// `SCIManifest.defaultURL` as a URL.
    public static let defaultURL: URL = {
        guard let url = URL(string: SCIManifest.defaultURL) else {
            preconditionFailure("the default manifest address is a valid URL literal")
        }
        return url
    }()

    /// The manifest to use: `configured` when the configuration named one, else the default.
    public static func url(configured: URL?) -> URL {
        configured ?? defaultURL
    }
}
