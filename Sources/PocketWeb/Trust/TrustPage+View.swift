extension TrustPage {
    /// The page, inside the shared layout with a plain-HTTP head (`Layout.Head.plain`): only the
    /// page's own script, which reads where to continue from `#trust-status`'s data attributes.
    struct View: PageView {
        let model: Model

        var body: HTML {
            """
            <p class="trust-status" id="trust-status" role="status" aria-live="polite" data-trust data-https-port="\(model.httpsPort)" data-probe="\(model.probePath)">If this phone already trusts Pocket, <a href="\(model.httpsURL)" id="trust-continue">open Pocket securely</a>.</p>
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
