import Conference
import Foundation

/// A talk's text as a document of its own, served from Pocket's origin into the talk page's
/// sandboxed frame. The text is outside markup: it is only ever shown here, under a policy that
/// sandboxes the document (no scripts, no forms, an origin of its own), allows inline styles and
/// the source's images, and lets only Pocket's own pages frame it.
enum ConferenceTalkText {
    /// The `Content-Security-Policy` of a text document (or its error page), for texts from `source`.
    static func policy(source: URL) -> String {
        let origin = origin(of: source)
        return [
            "sandbox allow-popups allow-popups-to-escape-sandbox",
            "default-src 'none'",
            "style-src 'unsafe-inline'",
            "img-src \(origin.map { "\($0) " } ?? "")data:",
            "base-uri \(origin ?? "'none'")",
            "form-action 'none'",
            "frame-ancestors 'self'",
        ].joined(separator: "; ")
    }

    /// The stored text in a small document: links resolve against (and open) the source's site.
    static func document(_ text: TalkText, source: URL) -> HTML {
        let base = origin(of: source).map { "\($0)/" }
        return page(title: "Text of talk \(text.talkID)", base: base, body: HTML(trusted: text.html))
    }

    /// What the frame shows when the text could not be fetched: the reason, escaped.
    static func failure(_ message: String) -> HTML {
        page(title: "Text unavailable", base: nil, body: """
            <p class="unavailable" id="talk-text-error" role="alert">\(message)</p>
            <p class="unavailable__hint">Reload the talk to try again.</p>
            """)
    }

    private static func page(title: String, base: String?, body: HTML) -> HTML {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark"><title>\(title)</title>\
        \(unwrap: base, { "<base href=\"\($0)\" target=\"_blank\">" })
        <style>\(HTML(trusted: style))</style></head>
        <body>
        \(body)
        </body></html>
        """
    }

    private static let style = """
        body{margin:1rem;font:1rem/1.5 -apple-system,BlinkMacSystemFont,system-ui,sans-serif;color:#1c1c1e;background:#fff;overflow-wrap:break-word}\
        img{max-width:100%;height:auto}a{color:#0063d1}.unavailable{color:#b3261e;font-weight:600}\
        @media (prefers-color-scheme:dark){body{color:#f2f2f7;background:#1c1c1e}a{color:#4da3ff}.unavailable{color:#ff8a80}}
        """

    /// `scheme://host[:port]` of `url`, nil when it has no host.
    private static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else { return nil }
        return "\(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")"
    }
}
