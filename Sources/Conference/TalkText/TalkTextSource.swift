import Foundation
import PocketCore

/// Where talk texts are fetched from: `POCKET_SCI_TALKS_URL`, else scriptures.byu.edu, the site
/// the Scripture Citation Index's own app reads them from. A text is `<base>/content/talks_ajax/<id>`.
public enum TalkTextSource {
    /// The environment variable that names the base address.
    public static let environmentKey = "POCKET_SCI_TALKS_URL"
    /// The Scripture Citation Index's site.
    public static let defaultBase = "http://scriptures.byu.edu"
    /// `defaultBase` as a URL.
    public static var defaultURL: URL {
        URL(string: defaultBase) ?? URL(fileURLWithPath: "/")
    }

    /// A base address that is not an http(s) URL with a host.
    public struct InvalidURL: Error, Equatable, Sendable, CustomStringConvertible {
        /// The address as given.
        public let text: String

        /// Creates the error for `text`.
        public init(text: String) {
            self.text = text
        }

        /// A one-line message.
        public var description: String {
            "invalid \(TalkTextSource.environmentKey) '\(text)': use an http or https address such as \(TalkTextSource.defaultBase)"
        }
    }

    /// The base address to use; a blank variable counts as not given.
    public static func resolve(environment: [String: String]) throws(InvalidURL) -> URL {
        let text = ServiceAddress.given(option: nil, variable: environmentKey, environment: environment) ?? defaultBase
        guard let url = ServiceAddress.httpURL(text) else { throw InvalidURL(text: text) }
        return url
    }

    /// The address of one talk's text below `base` (any path `base` has is kept).
    public static func url(talkID: Int, base: URL) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: "\(text)/content/talks_ajax/\(talkID)") ?? base
    }
}
