import PocketTLS

/// The trust page: why and how this phone trusts Pocket once, the CA's fingerprint to compare,
/// and (in its script) the way on to HTTPS as soon as the phone does.
enum TrustPage {
    struct Model: Sendable, Equatable {
        /// One kind of device: its download and the screens to visit.
        struct Section: Sendable, Equatable {
            let platform: PhonePlatform
            let title: String
            let downloadHref: String
            let downloadLabel: String
            let steps: [String]
            /// The section for the device the page is shown on starts open.
            let isOpen: Bool
        }

        /// `Pocket on laptop`, as the phone will list the CA.
        let authorityName: String
        /// `AB:CD:…`, to compare with what the computer printed.
        let fingerprint: String
        /// The detected device's section first, then the others.
        let sections: [Section]
        /// Pocket's HTTPS port on this same host name, where the script continues.
        let httpsPort: Int
        /// Without a script: the HTTPS address to open once trusted.
        let httpsURL: String
        /// A small file on the HTTPS origin whose fetch succeeds once the phone trusts Pocket.
        let probePath: String

        init(authorityName: String, fingerprint: String, platform: PhonePlatform, host: String, httpsPort: Int, probePath: String) {
            self.authorityName = authorityName
            self.fingerprint = fingerprint
            self.httpsPort = httpsPort
            self.httpsURL = "https://\(host):\(httpsPort)/"
            self.probePath = probePath
            let ordered = [platform] + PhonePlatform.allCases.filter { $0 != platform }
            sections = ordered.map { Self.section(for: $0, authorityName: authorityName, isOpen: $0 == platform) }
        }

        private static func section(for platform: PhonePlatform, authorityName: String, isOpen: Bool) -> Section {
            let back = "Come back to this page: it notices and carries on by itself."
            switch platform {
            case .apple:
                return Section(platform: platform, title: "iPhone and iPad", downloadHref: TrustRoute.download(.appleProfile).href(),
                               downloadLabel: "Download the Profile", steps: [
                                   "Tap Download the Profile, then Allow.",
                                   "Open Settings, tap Profile Downloaded, then Install, and enter your passcode. iOS calls the profile “Not Signed”: that is expected.",
                                   "In Settings → General → About → Certificate Trust Settings, turn on “\(authorityName)”.",
                                   back,
                               ], isOpen: isOpen)
            case .android:
                return Section(platform: platform, title: "Android", downloadHref: TrustRoute.download(.der).href(),
                               downloadLabel: "Download the Certificate", steps: [
                                   "Tap Download the Certificate.",
                                   "Open Settings → Security (or Security & privacy) → More security settings → Encryption & credentials → Install a certificate → CA certificate, tap Install anyway and choose \(TrustDownload.der.fileName). If your phone words it differently, search Settings for “CA certificate”.",
                                   back,
                               ], isOpen: isOpen)
            case .other:
                return Section(platform: platform, title: "Computers and other devices", downloadHref: TrustRoute.download(.pem).href(),
                               downloadLabel: "Download the Certificate (PEM)", steps: [
                                   "Download the certificate.",
                                   "Add it to the system’s or the browser’s trusted certificate authorities: on a Mac, open it in Keychain Access and set it to Always Trust; in Chrome or Firefox, Settings → Certificates → Authorities → Import.",
                                   back,
                               ], isOpen: isOpen)
            }
        }
    }
}
