extension CertificateSummary {
    /// Settings' certificate section.
    struct Fragment: FragmentView {
        let model: Model

        var html: HTML {
            """
            <section class="list-section" aria-labelledby="settings-certificate-h">
            <h2 class="list-section__header" id="settings-certificate-h">Secure Connection</h2>
            <ul class="list" role="list" id="settings-certificate">
            <li class="cell"><div class="cell__main cell__main--stack"><span class="cell__title">Names</span><span class="cell__subtitle people-link" id="certificate-names">\(model.names.joined(separator: ", "))</span></div></li>
            <li class="cell"><div class="cell__main cell__main--stack"><span class="cell__title">Addresses</span><span class="cell__subtitle people-link" id="certificate-addresses">\(model.addresses.joined(separator: ", "))</span></div></li>
            <li class="cell"><div class="cell__main"><span class="cell__text"><span class="cell__title">Renewed automatically; valid until</span></span><span class="cell__detail" id="certificate-expires">\(model.expires)</span></div></li>
            <li class="cell"><div class="cell__main cell__main--stack"><span class="cell__title">\(model.authorityName), SHA-256</span><span class="cell__subtitle people-link" id="certificate-fingerprint">\(fingerprintLines(model.fingerprint))</span></div></li>
            </ul>
            <p class="list-section__footer">A phone trusts this Pocket once\(unwrap: model.trustLink, { ", at <a class=\"people-link\" href=\"\($0)\">\($0)</a>" }). The fingerprint is what it shows for the certificate.</p>
            </section>
            """
        }
    }
}
