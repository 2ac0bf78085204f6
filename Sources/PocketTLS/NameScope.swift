import PocketCore
import SwiftASN1
import X509

/// The names and addresses Pocket's certificate authority may vouch for, written into it as X.509
/// name constraints, so a phone that trusts it trusts nothing else: the names and ranges set aside for
/// homes and private networks (and so never a public site's), plus the `--name` values it was made with.
public struct NameScope: Sendable, Equatable {
    /// An address range: the network's bytes and its mask (4 + 4 or 16 + 16 bytes, as X.509 has it).
    public struct AddressRange: Sendable, Equatable {
        /// The network address.
        public let network: [UInt8]
        /// The mask.
        public let mask: [UInt8]

        /// The range `address/prefixLength`; nil for a malformed address or length.
        public init?(_ address: String, prefixLength: Int) {
            guard let bytes = HostName.ipAddressBytes(address), (0...(bytes.count * 8)).contains(prefixLength) else { return nil }
            mask = (0..<bytes.count).map { index in
                let bits = min(8, max(0, prefixLength - index * 8))
                return bits == 0 ? 0 : UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            }
            network = zip(bytes, mask).map { $0 & $1 }
        }

        /// Reads X.509's form: the address followed by the mask.
        init?(constraint: [UInt8]) {
            guard constraint.count == 8 || constraint.count == 32 else { return nil }
            network = Array(constraint.prefix(constraint.count / 2))
            mask = Array(constraint.suffix(constraint.count / 2))
        }

        /// Whether `address` (4 or 16 bytes) lies in the range.
        public func contains(_ address: [UInt8]) -> Bool {
            address.count == network.count && zip(address, mask).map { $0 & $1 } == network
        }

        /// `10.0.0.0/8`, `fd00::/8`.
        public var description: String {
            "\(HostName.ipAddressText(network) ?? "?")/\(mask.reduce(0) { $0 + $1.nonzeroBitCount })"
        }
    }

    /// DNS name subtrees: each permits the name itself and every name below it.
    public let domains: [String]
    /// Address ranges.
    public let ranges: [AddressRange]

    /// The ranges a household's Pocket is reached at, at home or over a VPN: RFC 1918's private
    /// ranges, carrier-grade NAT's shared range (RFC 6598, which Tailscale gives its machines), IPv6
    /// unique local addresses as homes and WireGuard set them up (fd00::/8), and loopback. None can be
    /// a public site's address, so trusting the CA for them puts no one else's site at risk.
    public static let householdRanges: [AddressRange] = [
        ("10.0.0.0", 8), ("172.16.0.0", 12), ("192.168.0.0", 16), ("100.64.0.0", 10), ("127.0.0.0", 8), ("fd00::", 8), ("::1", 128),
    ].compactMap { AddressRange($0.0, prefixLength: $0.1) }

    /// The names set aside for homes and private networks: mDNS (`.local`, RFC 6762), home networks
    /// (`.home.arpa`, RFC 8375), private use (`.internal`, ICANN 2024) and `localhost` (RFC 6761).
    /// No public site can have one, so a VPN's or router's name for Pocket under them needs no new CA.
    public static let householdDomains = ["local", "home.arpa", "internal", "localhost"]

    /// The scope of a new certificate authority: the household names and ranges, and each of `names`.
    public static func household(names: [String]) -> NameScope {
        var domains = householdDomains
        for name in names where !domains.contains(where: { name == $0 || name.hasSuffix("." + $0) }) {
            domains.append(name)
        }
        return NameScope(domains: domains, ranges: householdRanges)
    }

    /// Creates a scope from its parts.
    public init(domains: [String], ranges: [AddressRange]) {
        self.domains = domains
        self.ranges = ranges
    }

    /// The scope a certificate's name constraints permit.
    init(_ constraints: NameConstraints) {
        domains = constraints.permittedDNSDomains.map { $0.lowercased() }
        ranges = constraints.permittedIPRanges.compactMap { AddressRange(constraint: Array($0.bytes)) }
    }

    /// The extension that writes this scope into a certificate authority.
    var nameConstraints: NameConstraints {
        NameConstraints(
            permittedDNSDomains: domains,
            permittedIPRanges: ranges.map { ASN1OctetString(contentBytes: ($0.network + $0.mask)[...]) }
        )
    }

    /// Whether a DNS name is inside the scope (RFC 5280: the subtree's name, or that name with labels added on the left).
    public func permits(name: String) -> Bool {
        let name = name.lowercased()
        return domains.contains { name == $0 || name.hasSuffix("." + $0) }
    }

    /// Whether an IP address literal is inside the scope.
    public func permits(address: String) -> Bool {
        guard let bytes = HostName.ipAddressBytes(address) else { return false }
        return ranges.contains { $0.contains(bytes) }
    }

    /// Why a server bound beyond loopback has no link a phone can open, and what to do, in one line:
    /// none of `machineAddresses` (the machine's own, loopback left out) is inside the scope, or the
    /// one inside is IPv6 while `bindHost` listens on IPv4 only.
    public func noPhoneLinkProblem(machineAddresses: [String], bindHost: String) -> String {
        if bindHost == "0.0.0.0", let covered = machineAddresses.first(where: { $0.contains(":") && permits(address: $0) }) {
            return "no link a phone can open: Pocket’s certificate authority covers this machine’s \(covered), but --host 0.0.0.0 listens on IPv4 only: use --host :: to listen on IPv6 and IPv4"
        }
        let outside = ranges.filter { range in !ServedNames.isLoopbackAddress(HostName.ipAddressText(range.network) ?? "") }.map(\.description)
        let names = domains.filter { $0 != "localhost" }.map { "." + $0 }
        let found = machineAddresses.isEmpty
            ? "this machine has no network address beyond loopback"
            : "this machine’s addresses (\(machineAddresses.joined(separator: ", "))) are outside the ranges Pocket’s certificate authority covers (\(outside.joined(separator: ", ")))"
        return "no link a phone can open: \(found); give a name phones resolve to this machine with --name (under \(names.joined(separator: ", ")); a .local name needs avahi-daemon), or join it to a network in those ranges"
    }

    /// Whether a host name or address literal is inside the scope.
    public func permits(host: String) -> Bool {
        HostName.ipAddressBytes(host) == nil ? permits(name: host) : permits(address: host)
    }
}
