import Foundation
import PocketCore

/// Where talk texts are fetched from: the configuration's `sciTalks` (`POCKET_SCI_TALKS_URL`, read and
/// checked by `PocketConfiguration`), else scriptures.byu.edu, the site the Scripture Citation Index's
/// own app reads them from. A text is `<base>/content/talks_ajax/<id>`.
public enum TalkTextSource {
    /// The Scripture Citation Index's site (`Settings.sciTalks`'s default).
    public static let defaultBase = Settings.sciTalks.defaultText ?? ""
    /// `defaultBase` as a URL.
    public static var defaultURL: URL {
        URL(string: defaultBase) ?? URL(fileURLWithPath: "/")
    }

    /// The address of one talk's text below `base` (any path `base` has is kept).
    public static func url(talkID: Int, base: URL) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: "\(text)/content/talks_ajax/\(talkID)") ?? base
    }
}
