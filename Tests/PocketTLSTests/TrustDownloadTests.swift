import Foundation
import Testing
import X509
@testable import PocketTLS

@Suite("The CA downloads phones install")
struct TrustDownloadTests {
    private let authority: CertificateAuthority

    init() throws {
        authority = try CertificateAuthority.make(machine: "laptop", scope: householdScope, now: Date(timeIntervalSince1970: 1_790_000_000))
    }

    @Test func eachDownloadHasTheContentTypeThatMakesAPhoneInstallIt() {
        #expect(TrustDownload.appleProfile.contentType == "application/x-apple-aspen-config")
        #expect(TrustDownload.der.contentType == "application/x-x509-ca-cert")
        #expect(TrustDownload.pem.contentType == "application/x-pem-file")
        #expect(TrustDownload.allCases.map(\.fileName) == ["Pocket.mobileconfig", "Pocket-CA.crt", "Pocket-CA.pem"])
    }

    @Test func theDERFileIsTheCertificateAndThePEMFileTheSame() throws {
        let der = try TrustDownload.der.bytes(for: authority)
        #expect(der == authority.derBytes)
        #expect(try Certificate(derEncoded: der) == authority.certificate)
        let pem = String(decoding: try TrustDownload.pem.bytes(for: authority), as: UTF8.self)
        #expect(try Certificate(pemEncoded: pem) == authority.certificate)
    }

    @Test func theProfileHoldsTheCAAsARootPayload() throws {
        let bytes = try TrustDownload.appleProfile.bytes(for: authority)
        #expect(String(decoding: bytes.prefix(38), as: UTF8.self) == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        let plist = try #require(try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any])
        #expect(plist["PayloadType"] as? String == "Configuration")
        #expect(plist["PayloadVersion"] as? Int == 1)
        #expect(plist["PayloadDisplayName"] as? String == "Pocket on laptop")
        let payloads = try #require(plist["PayloadContent"] as? [[String: Any]])
        #expect(payloads.count == 1)
        #expect(payloads[0]["PayloadType"] as? String == "com.apple.security.root")
        #expect((payloads[0]["PayloadContent"] as? Data).map(Array.init) == authority.derBytes)
        let uuids = [plist["PayloadUUID"], payloads[0]["PayloadUUID"]].compactMap { ($0 as? String).flatMap(UUID.init(uuidString:)) }
        #expect(uuids.count == 2 && uuids[0] != uuids[1])
        // The same CA gives the same profile, so installing it again replaces the first copy.
        #expect(try TrustDownload.appleProfile.bytes(for: authority) == bytes)
    }
}
