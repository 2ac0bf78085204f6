import Foundation

/// Where the templates and public files that ship with PocketWeb live.
public struct WebResources: Sendable {
    /// Folder of Mustache templates.
    public let templates: URL
    /// Folder served below `/static/`.
    public let publicFiles: URL

    /// The copies bundled with the executable.
    public static func bundled() throws(WebError) -> WebResources {
        guard let templates = Bundle.module.url(forResource: "Templates", withExtension: nil),
              let publicFiles = Bundle.module.url(forResource: "Public", withExtension: nil)
        else {
            throw .resourcesMissing(Bundle.module.bundlePath)
        }
        return WebResources(templates: templates, publicFiles: publicFiles)
    }

    /// Resources in explicit folders.
    public init(templates: URL, publicFiles: URL) {
        self.templates = templates
        self.publicFiles = publicFiles
    }
}
