import PocketCore

extension PairPage {
    /// A new pairing code: QR code, short code and link.
    struct View: PageView {
        let model: Model

        var body: HTML {
            """
            <section class="list-section" aria-labelledby="pair-h">
            <h2 class="list-section__header" id="pair-h">Scan with \(model.personName)’s phone</h2>
            <div class="list">
            <div class="cell"><div class="cell__main cell__main--stack people-qr"><img id="pair-qr" src="\(model.qrImage)" alt="QR code of the pairing link" width="240" height="240"></div></div>
            <div class="cell"><div class="cell__main"><span class="cell__text"><span class="cell__title">Or type this code</span><span class="cell__subtitle">at \(model.joinHref) on the phone</span></span><span class="cell__detail people-code" id="pair-code">\(model.shortCode)</span></div></div>
            <div class="cell"><div class="cell__main cell__main--stack"><span class="cell__title">Link</span><a class="people-link" id="pair-link" href="\(model.link)">\(model.link)</a>\(each: model.otherLinks, { "<span class=\"cell__subtitle people-link\">\($0)</span>" })</div></div>
            </div>
            <p class="list-section__footer" id="pair-expiry">Works once, until \(model.expiresAt). Anyone who has it can sign in as \(model.personName): show it only to them.</p>
            </section>
            """
        }
    }
}
