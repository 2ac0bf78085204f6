import Foundation
import Logging
import PocketCore
import Synchronization

/// Keeps a current leaf certificate for the HTTPS listener: re-issued from the same CA (so no phone
/// has to trust anything new) when it nears its end or when the names and addresses Pocket is
/// reached at change, while the server runs: each new TLS connection asks for `current`.
public final class LeafKeeper: Sendable {
    /// The CA every leaf comes from.
    public let authority: CertificateAuthority
    private let folder: TLSFolder
    private let servedNames: @Sendable () -> ServedNames
    private let now: @Sendable () -> Date
    private let leaf: Mutex<LeafCertificate>

    /// How often names, addresses and expiry are looked at: a new DHCP lease is noticed within this.
    public static let checkInterval: Duration = .seconds(60)

    /// Starts with the leaf kept in `folder` when it still fits, else a new one (written to `folder`).
    ///
    /// - Parameters:
    ///   - servedNames: what the leaf should cover now; asked at every check.
    ///   - now: the current time; tests pass their own clock.
    public init(authority: CertificateAuthority, folder: TLSFolder, servedNames: @escaping @Sendable () -> ServedNames,
                now: @escaping @Sendable () -> Date = Date.init) throws(TLSError) {
        self.authority = authority
        self.folder = folder
        self.servedNames = servedNames
        self.now = now
        let served = servedNames(), date = now()
        try folder.checkStoredLeafPrivate()
        if let stored = folder.storedLeaf(), stored.reasonToRenew(authority: authority, served: served, now: date) == nil {
            leaf = Mutex(stored)
        } else {
            let fresh = try Self.issue(authority: authority, served: served, now: date)
            try folder.store(fresh)
            leaf = Mutex(fresh)
        }
    }

    /// The leaf new connections are given.
    public var current: LeafCertificate {
        leaf.withLock { $0 }
    }

    /// Replaces the leaf if it must be; returns why it was replaced, or nil when it still fits.
    @discardableResult
    public func refresh() throws(TLSError) -> String? {
        let served = servedNames(), date = now()
        guard let reason = current.reasonToRenew(authority: authority, served: served, now: date) else { return nil }
        let fresh = try Self.issue(authority: authority, served: served, now: date)
        try folder.store(fresh)
        leaf.withLock { $0 = fresh }
        return reason
    }

    /// Checks every `interval` of `clock` until the task is cancelled, logging each renewal.
    public func keepRenewing<C: Clock>(every interval: Duration = checkInterval, clock: C, logger: Logger) async where C.Duration == Duration {
        while !Task.isCancelled {
            do {
                try await clock.sleep(for: interval)
            } catch {
                return
            }
            do {
                if let reason = try refresh() {
                    logger.notice("renewed the TLS certificate (\(reason)): \(current.names.joined(separator: ", ")), \(current.addresses.joined(separator: ", "))")
                }
            } catch {
                logger.error("could not renew the TLS certificate: \(error.description)")
            }
        }
    }

    private static func issue(authority: CertificateAuthority, served: ServedNames, now: Date) throws(TLSError) -> LeafCertificate {
        do {
            return try LeafCertificate.issue(by: authority, for: served, now: now)
        } catch {
            throw .cannotIssue(String(describing: error))
        }
    }
}
