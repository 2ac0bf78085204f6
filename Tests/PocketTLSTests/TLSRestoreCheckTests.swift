import Crypto
import Foundation
import Testing
import X509
@testable import PocketTLS

/// Issue #32: a restore takes `tls/` only as Pocket wrote it. `TLSFolder.restoreProblem` is the
/// check `pocket restore` runs on an unpacked archive before it replaces anything.
@Suite("The tls/ folder of a backup, checked before a restore takes it")
struct TLSRestoreCheckTests {
    private let now = Date(timeIntervalSince1970: 1_790_000_000)

    /// A folder with a CA and a leaf from it, as `pocket serve --https` leaves it.
    private func served() throws -> TLSFolder {
        let folder = TLSFolder(dataDirectory: temporaryFolder())
        let authority = try folder.authority(machine: "laptop", scope: householdScope, now: now)
        try folder.store(try LeafCertificate.issue(by: authority, for: householdNames, now: now))
        return folder
    }

    @Test func aFolderPocketWroteHasNoProblemNorOneWithoutACA() throws {
        let folder = try served()
        defer { try? FileManager.default.removeItem(at: folder.url.deletingLastPathComponent()) }
        #expect(folder.restoreProblem() == nil)
        #expect(TLSFolder.paths == ["tls/ca.key", "tls/ca.pem", "tls/leaf.key", "tls/leaf.pem"])
        #expect(TLSFolder(dataDirectory: temporaryFolder()).restoreProblem() == nil)
        // An expired CA is still the household's: serve says what to do about it, a restore takes it.
        let old = TLSFolder(dataDirectory: temporaryFolder())
        defer { try? FileManager.default.removeItem(at: old.url.deletingLastPathComponent()) }
        let expired = try old.authority(machine: "laptop", scope: householdScope, now: Date(timeIntervalSince1970: 1_000_000_000))
        #expect(expired.certificate.notValidAfter < Date())
        #expect(old.restoreProblem() == nil)
    }

    @Test func aKeyOthersMayReadIsAProblem() throws {
        for key in [\TLSFolder.authorityKey, \TLSFolder.leafKey] {
            let folder = try served()
            defer { try? FileManager.default.removeItem(at: folder.url.deletingLastPathComponent()) }
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folder[keyPath: key].path)
            #expect(folder.restoreProblem() == "tls/\(folder[keyPath: key].lastPathComponent) can be read or changed by other users (Pocket keeps it 0600)")
        }
    }

    @Test func aKeyAndCertificateThatAreNotAPairAreAProblem() throws {
        let folder = try served()
        defer { try? FileManager.default.removeItem(at: folder.url.deletingLastPathComponent()) }
        let pem = try Data(contentsOf: folder.authorityCertificate)

        // A garbage ca.pem beside Pocket's key,
        try Data("-----BEGIN CERTIFICATE-----\ngarbage\n-----END CERTIFICATE-----\n".utf8).write(to: folder.authorityCertificate)
        #expect(folder.restoreProblem() == "tls/ca.pem cannot be used (not a certificate in PEM)")
        // another CA's key beside Pocket's certificate,
        try pem.write(to: folder.authorityCertificate)
        let original = try Data(contentsOf: folder.authorityKey)
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: folder.authorityKey)
        #expect(folder.restoreProblem() == "tls/ca.key is not the key of tls/ca.pem beside it")
        // a certificate without its key,
        try FileManager.default.removeItem(at: folder.authorityKey)
        #expect(folder.restoreProblem()?.hasPrefix("tls/ca.key cannot be used") == true)
        // and a leaf key that is not the leaf's.
        try original.write(to: folder.authorityKey)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: folder.authorityKey.path)
        #expect(folder.restoreProblem() == nil)
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: folder.leafKey)
        #expect(folder.restoreProblem() == "tls/leaf.key and tls/leaf.pem are not a key and its certificate")
    }
}
