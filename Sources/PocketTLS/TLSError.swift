import Foundation

/// What can go wrong with Pocket's own certificate authority, each in one line that says what to do.
public enum TLSError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The CA key file can be read by group or others.
    case keyReadableByOthers(path: String, folder: String)
    /// The CA key file is missing, unreadable or not a P-256 key.
    case keyUnreadable(path: String, folder: String, reason: String)
    /// The CA certificate file is missing or not a certificate.
    case certificateUnreadable(path: String, folder: String, reason: String)
    /// The CA key is not the key of the CA certificate: one of the two was replaced.
    case keyDoesNotMatch(path: String, folder: String)
    /// The CA's validity ended.
    case authorityExpired(on: Date, folder: String)
    /// A `--name` lies outside the names the CA was made for.
    case nameOutsideAuthority(name: String, permitted: [String], folder: String)
    /// A file in the TLS folder could not be written.
    case cannotWrite(path: String, reason: String)
    /// swift-certificates refused to make a certificate.
    case cannotIssue(String)

    /// A one-line message a person can act on.
    public var description: String {
        switch self {
        case .keyReadableByOthers(let path, let folder):
            return "\(path) can be read or changed by other users of this computer: make it private with `chmod 600 '\(path)'`; if someone may have copied it, \(Self.startAfresh(folder))"
        case .keyUnreadable(let path, let folder, let reason):
            return "cannot read Pocket's certificate authority key \(path) (\(reason)): restore it from a backup, or \(Self.startAfresh(folder))"
        case .certificateUnreadable(let path, let folder, let reason):
            return "cannot read Pocket's certificate authority \(path) (\(reason)): restore it from a backup, or \(Self.startAfresh(folder))"
        case .keyDoesNotMatch(let path, let folder):
            return "\(path) is not the key of Pocket's certificate authority (ca.pem beside it): one of them was replaced; restore both from a backup, or \(Self.startAfresh(folder))"
        case .authorityExpired(let date, let folder):
            return "Pocket's certificate authority expired on \(date.formatted(.iso8601.year().month().day())): \(Self.startAfresh(folder))"
        case .nameOutsideAuthority(let name, let permitted, let folder):
            return "--name \(name) is not one Pocket's certificate authority may vouch for (it was made for \(permitted.joined(separator: ", ")) and private addresses): \(Self.startAfresh(folder))"
        case .cannotWrite(let path, let reason):
            return "cannot write \(path): \(reason)"
        case .cannotIssue(let reason):
            return "cannot make a certificate: \(reason)"
        }
    }

    /// The problem in words for a restore that refuses an archive over it: files named as in the
    /// data folder (`tls/ca.key`), not where the archive was unpacked, and no advice to start afresh.
    var restoreDescription: String {
        func named(_ path: String) -> String { TLSFolder.folderName + "/" + URL(fileURLWithPath: path).lastPathComponent }
        switch self {
        case .keyReadableByOthers(let path, _): return "\(named(path)) can be read or changed by other users (Pocket keeps it 0600)"
        case .keyUnreadable(let path, _, let reason): return "\(named(path)) cannot be used (\(reason))"
        case .certificateUnreadable(let path, _, let reason): return "\(named(path)) cannot be used (\(reason))"
        case .keyDoesNotMatch(let path, _): return "\(named(path)) is not the key of \(TLSFolder.folderName)/\(TLSFolder.fileNames.authorityCertificate) beside it"
        default: return description
        }
    }

    /// How to make a new certificate authority, and what it costs.
    /// How long before the authority's end the owner is warned: a year, time to have every phone trust a new one.
    public static let authorityEndingNotice: TimeInterval = 365 * 86400

    /// The warning a server gives when `authority` (kept in `folder`) ends within `authorityEndingNotice` of `now`; nil otherwise.
    public static func authorityEndingWarning(_ authority: CertificateAuthority, folder: String, now: Date) -> String? {
        let end = authority.certificate.notValidAfter
        guard end.timeIntervalSince(now) < authorityEndingNotice else { return nil }
        return "Pocket's certificate authority ends on \(end.formatted(.iso8601.year().month().day())), and phones stop trusting Pocket then: before that day, \(startAfresh(folder))"
    }

    private static func startAfresh(_ folder: String) -> String {
        "remove the folder (`rm -r '\(folder)'`) and start Pocket again to make a new certificate authority; every phone must then trust Pocket again"
    }
}
