import Crypto
import Foundation
import PocketCore
import SwiftASN1
import X509

/// Pocket's own certificate authority: made once per data folder, trusted once by each phone, and
/// limited by name constraints to the names and private addresses Pocket serves.
public struct CertificateAuthority: Sendable {
    /// The CA certificate phones install.
    public let certificate: Certificate
    /// Its key; never served, kept in `ca.key` readable by the owner only.
    let privateKey: P256.Signing.PrivateKey
    /// The certificate as DER, the bytes of the `.crt` download and of the iOS profile's payload.
    public let derBytes: [UInt8]
    /// What the CA may vouch for, read from its own name constraints.
    public let scope: NameScope

    /// How long a new CA lasts: long enough that a household never meets its end.
    public static let lifetimeInYears = 10

    /// Wraps a certificate and its key after checking that they belong together.
    init(certificate: Certificate, privateKey: P256.Signing.PrivateKey) throws {
        guard certificate.publicKey == Certificate.PublicKey(privateKey.publicKey) else { throw Mismatch() }
        self.certificate = certificate
        self.privateKey = privateKey
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        derBytes = serializer.serializedBytes
        scope = (try? certificate.extensions.nameConstraints).flatMap { $0 }.map(NameScope.init) ?? NameScope(domains: [], ranges: [])
    }

    /// The key and certificate disagree.
    struct Mismatch: Error {}

    /// A new CA for `scope`, named after the machine (`Pocket on <machine>`), valid for ten years from `now`.
    public static func make(machine: String, scope: NameScope, now: Date) throws -> CertificateAuthority {
        let key = P256.Signing.PrivateKey()
        let publicKey = Certificate.PublicKey(key.publicKey)
        let name = try DistinguishedName {
            OrganizationName("Pocket")
            CommonName("Pocket on \(machine)")
        }
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            Critical(scope.nameConstraints)
            SubjectKeyIdentifier(hash: publicKey)
        }
        // An hour back, so a phone whose clock runs a little slow does not see it as not yet valid.
        let start = now.addingTimeInterval(-3600)
        let end = Calendar.utc.date(byAdding: .year, value: lifetimeInYears, to: start) ?? start.addingTimeInterval(3650 * 86400)
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: start, notValidAfter: end, issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions, issuerPrivateKey: Certificate.PrivateKey(key)
        )
        return try CertificateAuthority(certificate: certificate, privateKey: key)
    }

    /// The CA certificate in PEM.
    public var pem: String {
        get throws { try certificate.serializeAsPEM().pemString }
    }

    /// The key in PEM (PKCS #8), for `ca.key`.
    var keyPEM: String { privateKey.pemRepresentation }

    /// The SHA-256 fingerprint of the certificate, as phones show it: `AB:CD:…`, 32 bytes.
    public var fingerprint: String {
        SHA256.hash(data: derBytes).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// The subject's common name, `Pocket on <machine>`, the name a phone lists it under.
    public var displayName: String {
        certificate.subject.lazy.flatMap { $0 }.first { $0.type == .RDNAttributeType.commonName }.map { String(describing: $0.value) } ?? "Pocket"
    }
}

extension Calendar {
    /// The Gregorian calendar in UTC, for validity periods that do not move with time zones.
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()
}
