import Crypto
import Foundation
import PocketCore
import SwiftASN1
import Testing
import X509
@testable import PocketTLS

@Suite("Pocket's certificate authority and its leaf certificates")
struct CertificateAuthorityTests {
    /// Now, since X509's verifier checks validity against the current time.
    private let now = Date()

    private func authority() throws -> CertificateAuthority {
        try CertificateAuthority.make(machine: "laptop", scope: householdScope, now: now)
    }

    @Test func theAuthorityIsAP256TenYearCAForTheHouseholdOnly() throws {
        let ca = try authority()
        let certificate = ca.certificate
        #expect(ca.displayName == "Pocket on laptop")
        #expect(certificate.subject == certificate.issuer)
        #expect(certificate.signatureAlgorithm == .ecdsaWithSHA256)
        #expect(certificate.publicKey == Certificate.PublicKey(ca.privateKey.publicKey))
        #expect(certificate.publicKey.isValidSignature(certificate.signature, for: certificate))
        let years = Calendar.utc.dateComponents([.year, .day], from: certificate.notValidBefore, to: certificate.notValidAfter)
        #expect(years.year == 10 && years.day == 0)
        #expect(certificate.notValidBefore <= now)

        let extensions = certificate.extensions
        #expect(try extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        #expect(extensions[oid: .X509ExtensionID.basicConstraints]?.critical == true)
        #expect(try extensions.keyUsage == KeyUsage(keyCertSign: true, cRLSign: true))
        #expect(extensions[oid: .X509ExtensionID.keyUsage]?.critical == true)
        #expect(try extensions.subjectKeyIdentifier != nil)

        let constraints = try #require(try extensions.nameConstraints)
        #expect(extensions[oid: .X509ExtensionID.nameConstraints]?.critical == true)
        #expect(Array(constraints.permittedDNSDomains) == ["local", "home.arpa", "internal", "localhost", "pocket.test"])
        let ranges = constraints.permittedIPRanges.compactMap { NameScope.AddressRange(constraint: Array($0.bytes))?.description }
        #expect(ranges == ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "127.0.0.0/8", "fd00::/8", "::1/128"])
        #expect(constraints.excludedDNSDomains.isEmpty && constraints.excludedIPRanges.isEmpty)
        #expect(ca.fingerprint.count == 32 * 3 - 1)
        #expect(ca.fingerprint == SHA256.hash(data: ca.derBytes).map { String(format: "%02X", $0) }.joined(separator: ":"))
    }

    @Test func aNameInsideLocalNeedsNoConstraintOfItsOwn() {
        #expect(NameScope.household(names: ["pocket.local", "nas.home.arpa", "nas.lan"]).domains == ["local", "home.arpa", "internal", "localhost", "nas.lan"])
    }

    @Test func theScopePermitsTheHouseholdAndNothingElse() {
        let scope = householdScope
        for inside in ["laptop.local", "LOCALHOST", "pocket.test", "a.pocket.test", "pocket.home.arpa", "nas.internal", "10.1.2.3", "172.31.255.255",
                       "192.168.1.20", "100.64.0.1", "100.101.102.103", "100.127.255.254", "127.0.0.1", "fd12::1", "fd7a:115c:a1e0::1", "::1"] {
            #expect(scope.permits(host: inside), "\(inside)")
        }
        for outside in ["example.com", "notpocket.test", "local.example.com", "home.arpa.example.com", "internal.example", "pocket.tail1234.ts.net",
                        "8.8.8.8", "172.32.0.1", "192.169.0.1", "100.63.255.255", "100.128.0.1", "192.0.2.2", "fe80::1", "2001:db8::1", "::2"] {
            #expect(!scope.permits(host: outside), "\(outside)")
        }
    }

    @Test func theLeafCoversEveryServedNameTheCAMayVouchForAndIsAServerCertificate() throws {
        let ca = try authority()
        let leaf = try LeafCertificate.issue(by: ca, for: householdNames, now: now)
        #expect(leaf.names == ["pocket.test", "laptop.local", "localhost"])
        #expect(leaf.addresses == ["192.168.1.20", "127.0.0.1", "::1"])

        let certificate = leaf.certificate
        #expect(certificate.issuer == ca.certificate.subject)
        #expect(certificate.signatureAlgorithm == .ecdsaWithSHA256)
        #expect(ca.certificate.publicKey.isValidSignature(certificate.signature, for: certificate))
        #expect(try certificate.extensions.extendedKeyUsage == ExtendedKeyUsage([.serverAuth]))
        #expect(try certificate.extensions.keyUsage == KeyUsage(digitalSignature: true))
        #expect(try certificate.extensions.basicConstraints == .notCertificateAuthority)
        #expect(try certificate.extensions.authorityKeyIdentifier?.keyIdentifier == ca.certificate.extensions.subjectKeyIdentifier?.keyIdentifier)
        #expect(certificate.notValidAfter.timeIntervalSince(certificate.notValidBefore) <= 397 * 86400)
        #expect(certificate.notValidBefore <= now && certificate.notValidAfter > now.addingTimeInterval(395 * 86400))
    }

    @Test(arguments: [("pocket.test", nil), ("laptop.local", nil), (nil, "192.168.1.20"), (nil, "::1"), (nil, "127.0.0.1")] as [(String?, String?)])
    func aPhoneThatTrustsTheCAAcceptsTheLeafForEachNameAndAddress(hostname: String?, ip: String?) async throws {
        let ca = try authority()
        let leaf = try LeafCertificate.issue(by: ca, for: householdNames, now: now)
        #expect(try await verify(leaf.certificate, root: ca.certificate, hostname: hostname, ip: ip))
    }

    @Test func aCertificateTheKeySignsForAnyOtherNameIsRefusedByTheNameConstraints() async throws {
        let ca = try authority()
        // The same certificate for a name and an address inside the scope passes: only the name decides.
        #expect(try await verify(signed(by: ca, name: "kitchen.pocket.test"), root: ca.certificate, hostname: "kitchen.pocket.test", ip: nil))
        #expect(try await verify(signed(by: ca, address: "10.9.8.7"), root: ca.certificate, hostname: nil, ip: "10.9.8.7"))
        #expect(try await !verify(signed(by: ca, name: "example.com"), root: ca.certificate, hostname: "example.com", ip: nil))
        #expect(try await !verify(signed(by: ca, address: "8.8.8.8"), root: ca.certificate, hostname: nil, ip: "8.8.8.8"))
    }

    /// A server certificate for one name or address that whoever holds the CA's key could sign.
    private func signed(by ca: CertificateAuthority, name: String? = nil, address: String? = nil) throws -> Certificate {
        let key = P256.Signing.PrivateKey()
        let alternative: GeneralName = if let name { .dnsName(name) } else { .ipAddress(ASN1OctetString(contentBytes: (HostName.ipAddressBytes(address ?? "") ?? [])[...])) }
        return try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-60), notValidAfter: now.addingTimeInterval(86400),
            issuer: ca.certificate.subject, subject: try DistinguishedName { CommonName(name ?? address ?? "") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([alternative])
            },
            issuerPrivateKey: .init(ca.privateKey)
        )
    }

    /// Whether X509's RFC 5280 verifier (validity, name constraints, basic constraints) and server
    /// identity check accept `leaf` under `root`.
    private func verify(_ leaf: Certificate, root: Certificate, hostname: String?, ip: String?) async throws -> Bool {
        var verifier = Verifier(rootCertificates: CertificateStore([root])) {
            RFC5280Policy()
            ServerIdentityPolicy(serverHostname: hostname, serverIP: ip)
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore())
        if case .validCertificate = result { return true }
        return false
    }
}
