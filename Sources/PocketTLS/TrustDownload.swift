import Crypto
import Foundation

/// The downloads that make a phone trust Pocket's CA: an iOS configuration profile, DER for
/// Android and most others, PEM for the rest. Each has its content type, which is what makes a
/// phone offer to install it rather than show it.
public enum TrustDownload: String, CaseIterable, Sendable {
    /// iOS and iPadOS: a `.mobileconfig` with one `com.apple.security.root` payload (unsigned, so
    /// iOS labels it "Not Signed").
    case appleProfile
    /// Android and others: the certificate as DER, `.crt`.
    case der
    /// Anything else (desktops, `certutil`): the certificate as PEM.
    case pem

    /// The file name offered.
    public var fileName: String {
        switch self {
        case .appleProfile: "Pocket.mobileconfig"
        case .der: "Pocket-CA.crt"
        case .pem: "Pocket-CA.pem"
        }
    }

    /// The content type sent with it.
    public var contentType: String {
        switch self {
        case .appleProfile: "application/x-apple-aspen-config"
        case .der: "application/x-x509-ca-cert"
        case .pem: "application/x-pem-file"
        }
    }

    /// The file's bytes for `authority`.
    public func bytes(for authority: CertificateAuthority) throws -> [UInt8] {
        switch self {
        case .appleProfile: try AppleProfile(authority: authority).encoded()
        case .der: authority.derBytes
        case .pem: Array(try authority.pem.utf8) + [0x0A]
        }
    }
}

/// An Apple configuration profile (an XML property list) holding the CA as a root certificate payload.
struct AppleProfile: Encodable {
    struct Payload: Encodable {
        let certificateFileName: String
        let content: Data
        let description: String
        let displayName: String
        let identifier: String
        let type = "com.apple.security.root"
        let uuid: String
        let version = 1

        enum CodingKeys: String, CodingKey {
            case certificateFileName = "PayloadCertificateFileName", content = "PayloadContent", description = "PayloadDescription"
            case displayName = "PayloadDisplayName", identifier = "PayloadIdentifier", type = "PayloadType", uuid = "PayloadUUID"
            case version = "PayloadVersion"
        }
    }

    let content: [Payload]
    let description: String
    let displayName: String
    let identifier: String
    let removalDisallowed = false
    let type = "Configuration"
    let uuid: String
    let version = 1

    enum CodingKeys: String, CodingKey {
        case content = "PayloadContent", description = "PayloadDescription", displayName = "PayloadDisplayName"
        case identifier = "PayloadIdentifier", removalDisallowed = "PayloadRemovalDisallowed", type = "PayloadType"
        case uuid = "PayloadUUID", version = "PayloadVersion"
    }

    /// Identifiers and UUIDs come from the CA's fingerprint, so installing the same CA's profile
    /// again replaces it instead of adding a second copy.
    init(authority: CertificateAuthority) {
        let digest = Array(SHA256.hash(data: authority.derBytes))
        let tag = digest.prefix(8).map { String(format: "%02x", $0) }.joined()
        let name = authority.displayName
        content = [Payload(
            certificateFileName: "Pocket-CA.cer",
            content: Data(authority.derBytes),
            description: "Lets this device open \(name) over HTTPS.",
            displayName: name,
            identifier: "pocket.ca.\(tag).certificate",
            uuid: Self.uuid(digest[16..<32])
        )]
        description = "Installs \(name)’s certificate authority, so this device can open Pocket over HTTPS. It can vouch only for .local names, this Pocket’s own names and private network addresses."
        displayName = name
        identifier = "pocket.ca.\(tag)"
        uuid = Self.uuid(digest[0..<16])
    }

    func encoded() throws -> [UInt8] {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        return Array(try encoder.encode(self))
    }

    /// 16 bytes as a version-4-shaped UUID string.
    private static func uuid(_ bytes: ArraySlice<UInt8>) -> String {
        var b = Array(bytes)
        b[6] = (b[6] & 0x0F) | 0x40
        b[8] = (b[8] & 0x3F) | 0x80
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])).uuidString
    }
}
