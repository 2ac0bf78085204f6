import Foundation

/// Where the static files that ship with PocketWeb live.
public struct WebResources: Sendable {
    /// Folder served below `/static/`.
    public let publicFiles: URL

    /// The copies bundled with the executable.
    public static func bundled() throws(WebError) -> WebResources {
        guard let publicFiles = Bundle.module.url(forResource: "Public", withExtension: nil) else {
            throw .resourcesMissing(Bundle.module.bundlePath)
        }
        return WebResources(publicFiles: publicFiles)
    }

    /// Resources in an explicit folder.
    public init(publicFiles: URL) {
        self.publicFiles = publicFiles
    }
}
