import Crypto
import Foundation
import PocketCore
import SwiftASN1
import X509

/// The certificate Pocket's HTTPS listener presents: issued by Pocket's own CA for every name and
/// address Pocket is served under, and renewed by `LeafKeeper` long before it runs out.
public struct LeafCertificate: Sendable {
    /// The certificate.
    public let certificate: Certificate
    /// Its key.
    let privateKey: P256.Signing.PrivateKey

    /// Apple's limit for a TLS server certificate, and the CA/Browser Forum's: a year and a month.
    public static let lifetime: TimeInterval = 397 * 86400
    /// Renewed when less than this is left, so a phone that was away for weeks never meets an expired one.
    public static let renewalMargin: TimeInterval = 30 * 86400

    /// Wraps a certificate and its key.
    init(certificate: Certificate, privateKey: P256.Signing.PrivateKey) {
        self.certificate = certificate
        self.privateKey = privateKey
    }

    /// A new leaf from `authority` for every name and address in `served` that the authority may
    /// vouch for (others would make a phone refuse the whole certificate); valid from an hour ago,
    /// and never past the authority's own end (a phone refuses a leaf that outlives its issuer).
    public static func issue(by authority: CertificateAuthority, for served: ServedNames, now: Date) throws -> LeafCertificate {
        let names = served.names.filter { authority.scope.permits(name: $0) }
        let addresses = served.addresses.filter { authority.scope.permits(address: $0) }
        let key = P256.Signing.PrivateKey()
        let publicKey = Certificate.PublicKey(key.publicKey)
        let subject = try DistinguishedName {
            OrganizationName("Pocket")
            CommonName(names.first ?? addresses.first ?? "Pocket")
        }
        let alternativeNames = names.map { GeneralName.dnsName($0) }
            + addresses.compactMap { HostName.ipAddressBytes($0) }.map { GeneralName.ipAddress(ASN1OctetString(contentBytes: $0[...])) }
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            try ExtendedKeyUsage([.serverAuth])
            SubjectAlternativeNames(alternativeNames)
            SubjectKeyIdentifier(hash: publicKey)
            AuthorityKeyIdentifier(keyIdentifier: try authority.certificate.extensions.subjectKeyIdentifier?.keyIdentifier)
        }
        let start = now.addingTimeInterval(-3600)
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: start, notValidAfter: min(start.addingTimeInterval(lifetime), authority.certificate.notValidAfter),
            issuer: authority.certificate.subject, subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions, issuerPrivateKey: Certificate.PrivateKey(authority.privateKey)
        )
        return LeafCertificate(certificate: certificate, privateKey: key)
    }

    /// The DNS names it covers.
    public var names: [String] {
        alternativeNames.compactMap { if case .dnsName(let name) = $0 { name } else { nil } }
    }

    /// The IP addresses it covers, as literals.
    public var addresses: [String] {
        alternativeNames.compactMap { if case .ipAddress(let bytes) = $0 { HostName.ipAddressText(Array(bytes.bytes)) } else { nil } }
    }

    /// When it stops being valid.
    public var expires: Date { certificate.notValidAfter }

    /// The certificate in PEM, for `leaf.pem` and the TLS listener.
    public var pem: String {
        get throws { try certificate.serializeAsPEM().pemString }
    }

    /// The certificate as DER.
    public var derBytes: [UInt8] {
        get throws {
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return serializer.serializedBytes
        }
    }

    /// The key in PEM (PKCS #8), for `leaf.key` and the TLS listener.
    public var keyPEM: String { privateKey.pemRepresentation }

    /// Why it must be replaced now, or nil: it was not issued by `authority` (or not with this key),
    /// it runs out within the renewal margin, or the names and addresses it should cover changed.
    public func reasonToRenew(authority: CertificateAuthority, served: ServedNames, now: Date) -> String? {
        guard certificate.issuer == authority.certificate.subject,
              authority.certificate.publicKey.isValidSignature(certificate.signature, for: certificate),
              certificate.publicKey == Certificate.PublicKey(privateKey.publicKey) else {
            return "it was not issued by this certificate authority"
        }
        // A leaf that already lasts as long as its authority cannot be renewed to last longer.
        if expires.timeIntervalSince(now) < Self.renewalMargin, expires < authority.certificate.notValidAfter {
            return "it expires on \(expires.formatted(.iso8601.year().month().day()))"
        }
        let wantedNames = Set(served.names.filter { authority.scope.permits(name: $0) })
        let wantedAddresses = Set(served.addresses.filter { authority.scope.permits(address: $0) }.compactMap(HostName.ipAddressBytes))
        if Set(names) != wantedNames || Set(addresses.compactMap(HostName.ipAddressBytes)) != wantedAddresses {
            return "the names and addresses Pocket is reached at changed"
        }
        return nil
    }

    private var alternativeNames: [GeneralName] {
        ((try? certificate.extensions.subjectAlternativeNames) ?? nil).map(Array.init) ?? []
    }
}
