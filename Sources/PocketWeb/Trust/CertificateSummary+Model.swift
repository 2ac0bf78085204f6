import Foundation
import PocketTLS

/// Settings (owners): what Pocket's own HTTPS certificate covers, until when, and the CA's
/// fingerprint, so an owner can check a phone or see that a new address was picked up.
enum CertificateSummary {
    struct Model: Sendable, Equatable {
        let authorityName: String
        let fingerprint: String
        let names: [String]
        let addresses: [String]
        let expires: String
        /// The trust page for another phone, name first.
        let trustLink: String?

        init(trust: WebTrust) {
            let authority = trust.keeper.authority, leaf = trust.keeper.current
            authorityName = authority.displayName
            fingerprint = authority.fingerprint
            names = leaf.names
            addresses = leaf.addresses
            expires = leaf.expires.formatted(Date.FormatStyle(date: .abbreviated, time: .omitted, timeZone: .current).locale(Locale(identifier: "en_GB")))
            trustLink = trust.phoneLinks.links(to: "/").first
        }
    }
}
