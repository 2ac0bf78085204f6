import Crypto
import Foundation
import PocketCore
import SwiftASN1
import Testing
import X509
@testable import PocketTLS

@Suite("The tls/ folder: made once, kept private, refused when unsafe")
struct TLSFolderTests {
    private let now = Date(timeIntervalSince1970: 1_790_000_000)

    private func mode(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func theCAIsMadeOnceWithAPrivateKeyAndReadBackTheSame() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = TLSFolder(dataDirectory: root)
        #expect(!folder.hasAuthority)
        let made = try folder.authority(machine: "laptop", scope: householdScope, now: now)
        #expect(try mode(folder.url) == 0o700)
        #expect(try mode(folder.authorityKey) == 0o600)
        #expect(try mode(folder.authorityCertificate) == 0o644)
        let again = try folder.authority(machine: "another-name", scope: NameScope.household(names: []), now: now)
        #expect(again.fingerprint == made.fingerprint, "a second start must not make a second CA")
        #expect(again.scope == householdScope)
        #expect(try String(contentsOf: folder.authorityCertificate, encoding: .utf8).hasPrefix("-----BEGIN CERTIFICATE-----"))
    }

    @Test func aCAMadeByAnEarlierPocketKeepsWorkingWithTheScopeItWasMadeFor() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = TLSFolder(dataDirectory: root)
        // What Pocket 0.1.0 wrote: no 100.64/10, no .home.arpa or .internal.
        let earlier = NameScope(domains: ["local", "localhost"], ranges: [("10.0.0.0", 8), ("172.16.0.0", 12), ("192.168.0.0", 16), ("127.0.0.0", 8),
                                                                          ("fd00::", 8), ("::1", 128)].compactMap { NameScope.AddressRange($0.0, prefixLength: $0.1) })
        let made = try folder.authority(machine: "laptop", scope: earlier, now: now)
        let opened = try folder.authority(machine: "laptop", scope: .household(names: []), now: now)
        #expect(opened.fingerprint == made.fingerprint && opened.scope == earlier, "phones keep trusting the CA they have")
        let leaf = try LeafCertificate.issue(by: opened, for: ServedNames(names: ["laptop.local", "pocket.home.arpa", "localhost"],
                                                                        addresses: ["192.168.1.20", "100.101.102.103", "127.0.0.1"]), now: now)
        #expect(leaf.names == ["laptop.local", "localhost"] && leaf.addresses == ["192.168.1.20", "127.0.0.1"], "only what the CA may vouch for")
    }

    @Test(arguments: [0o640, 0o604, 0o644, 0o660])
    func aKeyOthersCanReadIsRefused(mode: Int) throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = TLSFolder(dataDirectory: root)
        _ = try folder.authority(machine: "laptop", scope: householdScope, now: now)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: folder.authorityKey.path)
        #expect(throws: TLSError.keyReadableByOthers(path: folder.authorityKey.path, folder: folder.url.path)) {
            try folder.authority(machine: "laptop", scope: householdScope, now: now)
        }
        #expect(TLSError.keyReadableByOthers(path: "/d/tls/ca.key", folder: "/d/tls").description
            == "/d/tls/ca.key can be read or changed by other users of this computer: make it private with `chmod 600 '/d/tls/ca.key'`; if someone may have copied it, remove the folder (`rm -r '/d/tls'`) and start Pocket again to make a new certificate authority; every phone must then trust Pocket again")
    }

    @Test func aReplacedKeyIsRefusedAsNotTheCAsKey() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = TLSFolder(dataDirectory: root)
        _ = try folder.authority(machine: "laptop", scope: householdScope, now: now)
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: folder.authorityKey)
        #expect(throws: TLSError.keyDoesNotMatch(path: folder.authorityKey.path, folder: folder.url.path)) {
            try folder.authority(machine: "laptop", scope: householdScope, now: now)
        }
    }

    @Test func anUnreadableOrGarbledKeyIsRefusedWithWhatToDo() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = TLSFolder(dataDirectory: root)
        _ = try folder.authority(machine: "laptop", scope: householdScope, now: now)
        try Data("not a key".utf8).write(to: folder.authorityKey)
        do {
            _ = try folder.authority(machine: "laptop", scope: householdScope, now: now)
            Issue.record("a garbled key was accepted")
        } catch {
            #expect(error == .keyUnreadable(path: folder.authorityKey.path, folder: folder.url.path, reason: "not a P-256 private key in PEM"))
            #expect(error.description.contains("every phone must then trust Pocket again"))
        }
        try FileManager.default.removeItem(at: folder.authorityKey)
        #expect(throws: TLSError.self) { try folder.authority(machine: "laptop", scope: householdScope, now: now) }
        #expect(folder.hasAuthority, "a lone ca.pem is not replaced by a new CA behind the person's back")
    }

    @Test func aCAWithoutNameConstraintsIsRefused() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = TLSFolder(dataDirectory: root)
        // Someone's own CA and key put in place of Pocket's: it could vouch for any site.
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("Anything CA") }
        let unlimited = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey), notValidBefore: now.addingTimeInterval(-60),
            notValidAfter: now.addingTimeInterval(86400 * 365), issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions { Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil)) },
            issuerPrivateKey: .init(key)
        )
        _ = try folder.authority(machine: "laptop", scope: householdScope, now: now)
        try Data(key.pemRepresentation.utf8).write(to: folder.authorityKey)
        try Data(unlimited.serializeAsPEM().pemString.utf8).write(to: folder.authorityCertificate)
        #expect(throws: TLSError.certificateUnreadable(path: folder.authorityCertificate.path, folder: folder.url.path,
                                                       reason: "it is not limited to this Pocket's names, so Pocket did not make it")) {
            try folder.authority(machine: "laptop", scope: householdScope, now: now)
        }
    }

    @Test func anExpiredCAIsRefused() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = TLSFolder(dataDirectory: root)
        let made = try folder.authority(machine: "laptop", scope: householdScope, now: now)
        let later = made.certificate.notValidAfter.addingTimeInterval(1)
        #expect(throws: TLSError.authorityExpired(on: made.certificate.notValidAfter, folder: folder.url.path)) {
            try folder.authority(machine: "laptop", scope: householdScope, now: later)
        }
    }
}
