import Crypto
import Foundation
import PocketCore
import X509
#if canImport(Glibc)
import Glibc
#endif

/// The `tls/` folder of a data folder (0700): `ca.key` (0600, never served), `ca.pem`, `leaf.key`
/// (0600) and `leaf.pem`.
public struct TLSFolder: Sendable {
    /// The folder.
    public let url: URL

    /// The folder's name inside the data folder.
    public static let folderName = "tls"
    /// The files Pocket writes in the folder, and none else: a restore takes no other from an archive.
    static let fileNames = (authorityKey: "ca.key", authorityCertificate: "ca.pem", leafKey: "leaf.key", leafCertificate: "leaf.pem")
    /// Each file's path inside the data folder (`tls/ca.key`), for a restore to know them by name.
    public static var paths: [String] {
        [fileNames.authorityKey, fileNames.authorityCertificate, fileNames.leafKey, fileNames.leafCertificate].map { folderName + "/" + $0 }
    }

    /// The folder inside `dataDirectory`; nothing is created until something is written.
    public init(dataDirectory: URL) {
        url = dataDirectory.appendingPathComponent(Self.folderName, isDirectory: true)
    }

    /// The CA certificate, which `pocket trust` points at.
    public var authorityCertificate: URL { url.appendingPathComponent(Self.fileNames.authorityCertificate) }
    /// The CA key.
    public var authorityKey: URL { url.appendingPathComponent(Self.fileNames.authorityKey) }
    /// The current leaf certificate.
    public var leafCertificate: URL { url.appendingPathComponent(Self.fileNames.leafCertificate) }
    /// The current leaf's key.
    public var leafKey: URL { url.appendingPathComponent(Self.fileNames.leafKey) }

    /// Whether a CA has been made here.
    public var hasAuthority: Bool {
        FileManager.default.fileExists(atPath: authorityKey.path) || FileManager.default.fileExists(atPath: authorityCertificate.path)
    }

    // MARK: Certificate authority

    /// The CA kept here, or, when there is none yet, a new one for `scope` (written at once).
    /// Refuses a key others can read, a key that is not the certificate's, and an expired CA.
    public func authority(machine: String, scope: NameScope, now: Date) throws(TLSError) -> CertificateAuthority {
        guard hasAuthority else {
            let authority: CertificateAuthority
            do {
                authority = try CertificateAuthority.make(machine: machine, scope: scope, now: now)
            } catch {
                throw .cannotIssue(String(describing: error))
            }
            try createFolder()
            try write(authority.keyPEM, to: authorityKey, private: true)
            try write(pem(authority.pem), to: authorityCertificate, private: false)
            return authority
        }
        return try existingAuthority(now: now)
    }

    /// The CA kept here, checked as `authority(machine:scope:now:)` checks it; never makes one.
    public func existingAuthority(now: Date) throws(TLSError) -> CertificateAuthority {
        let authority = try storedAuthority()
        guard authority.certificate.notValidAfter > now else { throw .authorityExpired(on: authority.certificate.notValidAfter, folder: url.path) }
        return authority
    }

    /// Why the files here could not serve, in one line naming them as `tls/ca.key`, for a restore
    /// to refuse an archive holding them; nil when they are sound (or there are none). A key others
    /// may read, a key and certificate that are not a pair, or either unreadable is refused; an
    /// expired CA is not (`pocket serve` says what to do about that, and the rest of the data is
    /// still worth having).
    public func restoreProblem() -> String? {
        do {
            if hasAuthority { _ = try storedAuthority() }
            try checkStoredLeafPrivate()
        } catch {
            return error.restoreDescription
        }
        let manager = FileManager.default
        guard manager.fileExists(atPath: leafKey.path) || manager.fileExists(atPath: leafCertificate.path) else { return nil }
        guard let leaf = storedLeaf(), leaf.certificate.publicKey == Certificate.PublicKey(leaf.privateKey.publicKey) else {
            return "\(Self.folderName)/\(Self.fileNames.leafKey) and \(Self.folderName)/\(Self.fileNames.leafCertificate) are not a key and its certificate"
        }
        return nil
    }

    /// The CA kept here, whatever its dates: the key private and the certificate's, and limited to Pocket's names.
    private func storedAuthority() throws(TLSError) -> CertificateAuthority {
        let folder = url.path
        try checkPrivate(authorityKey)
        let keyText: String, certificateText: String
        do {
            keyText = try String(contentsOf: authorityKey, encoding: .utf8)
        } catch {
            throw .keyUnreadable(path: authorityKey.path, folder: folder, reason: Self.reason(error))
        }
        do {
            certificateText = try String(contentsOf: authorityCertificate, encoding: .utf8)
        } catch {
            throw .certificateUnreadable(path: authorityCertificate.path, folder: folder, reason: Self.reason(error))
        }
        let key: P256.Signing.PrivateKey
        do {
            key = try P256.Signing.PrivateKey(pemRepresentation: keyText)
        } catch {
            throw .keyUnreadable(path: authorityKey.path, folder: folder, reason: "not a P-256 private key in PEM")
        }
        let certificate: Certificate
        do {
            certificate = try Certificate(pemEncoded: certificateText)
        } catch {
            throw .certificateUnreadable(path: authorityCertificate.path, folder: folder, reason: "not a certificate in PEM")
        }
        let authority: CertificateAuthority
        do {
            authority = try CertificateAuthority(certificate: certificate, privateKey: key)
        } catch {
            throw .keyDoesNotMatch(path: authorityKey.path, folder: folder)
        }
        // A CA without name constraints could vouch for any site to every phone that trusts it.
        guard !authority.scope.domains.isEmpty || !authority.scope.ranges.isEmpty else {
            throw .certificateUnreadable(path: authorityCertificate.path, folder: folder, reason: "it is not limited to this Pocket's names, so Pocket did not make it")
        }
        return authority
    }

    // MARK: Leaf

    /// The leaf kept here, if it reads back whole; whether it still fits is `LeafCertificate.reasonToRenew`'s to say.
    public func storedLeaf() -> LeafCertificate? {
        guard let keyText = try? String(contentsOf: leafKey, encoding: .utf8),
              let certificateText = try? String(contentsOf: leafCertificate, encoding: .utf8),
              let key = try? P256.Signing.PrivateKey(pemRepresentation: keyText),
              let certificate = try? Certificate(pemEncoded: certificateText) else { return nil }
        return LeafCertificate(certificate: certificate, privateKey: key)
    }

    /// Refuses a kept `leaf.key` that group or others may read, as `ca.key` is refused: anyone
    /// who copied it can pose as this Pocket to every phone until the leaf expires. None kept is fine.
    public func checkStoredLeafPrivate() throws(TLSError) {
        guard FileManager.default.fileExists(atPath: leafKey.path) else { return }
        try checkPrivate(leafKey)
    }

    /// Keeps `leaf` as the current one.
    public func store(_ leaf: LeafCertificate) throws(TLSError) {
        let certificatePEM: String
        do {
            certificatePEM = try leaf.pem
        } catch {
            throw .cannotIssue(String(describing: error))
        }
        try createFolder()
        try write(leaf.keyPEM, to: leafKey, private: true)
        try write(certificatePEM, to: leafCertificate, private: false)
    }
}

// MARK: - Files

private extension TLSFolder {
    func pem(_ text: @autoclosure () throws -> String) throws(TLSError) -> String {
        do {
            return try text()
        } catch {
            throw .cannotIssue(String(describing: error))
        }
    }

    func createFolder() throws(TLSError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // An existing folder keeps its mode unless told: the keys' folder is the owner's alone.
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
        } catch {
            throw .cannotWrite(path: url.path, reason: Self.reason(error))
        }
    }

    /// Writes through a temporary file renamed into place, so a crash never leaves half a key; the
    /// mode is set before the rename, inside a folder only the owner can enter.
    func write(_ text: String, to file: URL, private isPrivate: Bool) throws(TLSError) {
        let temporary = url.appendingPathComponent(".\(file.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            // PEM files end with a newline, so `cat` and tools that concatenate them keep them apart.
            try Data((text.hasSuffix("\n") ? text : text + "\n").utf8).write(to: temporary)
            try FileManager.default.setAttributes([.posixPermissions: isPrivate ? 0o600 : 0o644], ofItemAtPath: temporary.path)
            guard rename(temporary.path, file.path) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .cannotWrite(path: file.path, reason: Self.reason(error))
        }
    }

    /// Refuses a key file that group or others may read (or write): anyone who copies it can vouch
    /// for any name the CA covers to every phone in the house.
    func checkPrivate(_ file: URL) throws(TLSError) {
        var status = stat()
        guard stat(file.path, &status) == 0 else {
            throw .keyUnreadable(path: file.path, folder: url.path, reason: String(cString: strerror(errno)).lowercased())
        }
        if status.st_mode & 0o077 != 0 {
            throw .keyReadableByOthers(path: file.path, folder: url.path)
        }
    }

    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code))).lowercased()
        }
        if let posix = error as? POSIXError {
            return String(cString: strerror(posix.code.rawValue)).lowercased()
        }
        return nsError.localizedDescription
    }
}
