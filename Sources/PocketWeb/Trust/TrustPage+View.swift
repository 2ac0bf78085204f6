extension TrustPage {
    /// The whole document: the trust page has its own small head, without Pocket's client
    /// (pocket.js would register the service worker and send the outbox, neither of which belongs
    /// on plain HTTP), and only its own script.
    struct View {
        let model: Model

        var document: HTML {
            """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
            <meta name="color-scheme" content="light dark">
            <meta name="referrer" content="no-referrer">
            <title>Trust Pocket · Pocket</title>
            <link rel="icon" href="\(model.assets.favicon)" type="image/svg+xml">
            <link rel="apple-touch-icon" href="\(model.assets.appleTouchIcon)">
            <link rel="stylesheet" href="\(model.assets.stylesheet)">
            <link rel="stylesheet" href="\(model.assets.trustStylesheet)">
            <script type="module" src="\(model.assets.script)"></script>
            </head>
            <body>
            <div class="screen" data-screen>
            <header class="navbar"><div class="navbar__bar"><div class="navbar__leading"></div><span class="navbar__inline-title" aria-hidden="true">Trust Pocket</span><div class="navbar__actions"></div></div>
            <h1 class="navbar__title">Trust Pocket</h1></header>
            <main id="main" class="content" data-trust data-https-port="\(model.httpsPort)" data-probe="\(model.probePath)">
            <p class="trust-status" id="trust-status" role="status" aria-live="polite">If this phone already trusts Pocket, <a href="\(model.httpsURL)" id="trust-continue">open Pocket securely</a>.</p>
            <section class="list-section" aria-labelledby="trust-why-h">
            <h2 class="list-section__header" id="trust-why-h">Once per phone</h2>
            <p class="trust-text">Pocket keeps your sign-in private on the home network, works offline and goes on your Home Screen only over a secure connection. For that, this phone must trust Pocket’s own certificate authority, “\(model.authorityName)”, once. It was made on the computer that runs Pocket and can vouch only for this Pocket’s names and home network addresses, nothing else.</p>
            </section>
            \(each: model.sections, section)
            <section class="list-section" aria-labelledby="trust-fingerprint-h">
            <h2 class="list-section__header" id="trust-fingerprint-h">Check before you trust</h2>
            <p class="trust-text">The computer printed this SHA-256 fingerprint when Pocket started (“pocket trust” prints it again). The phone shows it in the certificate’s details. They must be the same:</p>
            <p class="trust-fingerprint" id="trust-fingerprint">\(fingerprintLines(model.fingerprint))</p>
            </section>
            </main>
            </div>
            </body>
            </html>

            """
        }

        private func section(_ section: Model.Section) -> HTML {
            """
            <details class="list-section trust-platform" id="trust-\(section.platform.rawValue)" data-platform="\(section.platform.rawValue)"\(flag: "open", section.isOpen)>
            <summary class="list-section__header">\(section.title)</summary>
            <p class="trust-download"><a class="button button--large" href="\(section.downloadHref)" download id="trust-download-\(section.platform.rawValue)">\(section.downloadLabel)</a></p>
            <ol class="trust-steps">\(each: section.steps, { "<li>\($0)</li>" })</ol>
            </details>

            """
        }
    }
}

/// A fingerprint (`AB:CD:…`) that a narrow screen may wrap after any colon, never inside a byte.
func fingerprintLines(_ fingerprint: String) -> HTML {
    HTML.join(fingerprint.split(separator: ":"), separator: ":<wbr>") { "\($0)" }
}
