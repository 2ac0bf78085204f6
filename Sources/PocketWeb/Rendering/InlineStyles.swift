import Crypto
import Foundation

/// The stylesheets a page carries inside itself when a browser navigates to it without Pocket's
/// service worker (a phone's first visit): its first paint then waits for the page alone, not for
/// the stylesheets it would name, which on a slow network shared the link with every module the
/// page preloads (`bench/phone-load.py`). A page the worker or pocket.js asks for links them as
/// usual: the worker answers them from its cache, and a swapped-in page adds the links it lacks.
///
/// One value per renderer, compared and hashed by identity: a page memo's key holds it (through
/// `PageContext`) without hashing tens of kilobytes on every request.
final class InlineStyles: Sendable, Hashable {
    /// Each stylesheet's text by its versioned URL, for those that can go inside a `<style>`.
    private let texts: [String: String]
    /// The Content-Security-Policy sources (`'sha256-…'`) that allow exactly these texts as
    /// `<style>` elements, and no other inline style.
    let cspSources: [String]

    /// The design system and every app's stylesheet in `assets`.
    init(assets: AssetCatalog) {
        var texts: [String: String] = [:]
        for path in assets.paths where path.hasPrefix("css/") && path.hasSuffix(".css") {
            guard let asset = assets.asset(at: path), let text = String(data: asset.data, encoding: .utf8),
                  Self.fitsInStyleElement(text) else { continue }
            texts[assets.url(path)] = text
        }
        self.texts = texts
        cspSources = texts.keys.sorted().compactMap { url in
            texts[url].map { "'sha256-\(Data(SHA256.hash(data: Data($0.utf8))).base64EncodedString())'" }
        }
    }

    /// The text of the stylesheet at `url` (a versioned URL), if it can be inlined.
    func text(for url: String) -> String? {
        texts[url]
    }

    /// Whether `text` can be a `<style>` element's content as it is: nothing in it may end the element.
    static func fitsInStyleElement(_ text: String) -> Bool {
        !text.lowercased().contains("</style")
    }

    static func == (lhs: InlineStyles, rhs: InlineStyles) -> Bool {
        lhs === rhs
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
