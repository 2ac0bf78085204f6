import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Every name and address Pocket is served under: what its certificate covers, what its links offer
/// a phone (names first, so a phone's origin survives a new DHCP lease), and what a Host check may accept.
public struct ServedNames: Sendable, Equatable {
    /// DNS names, lowercased: each `--name`, then the machine's `<hostname>.local`, then `localhost`.
    public let names: [String]
    /// IP address literals (no brackets): the reachable interface addresses, then `127.0.0.1` and `::1`.
    public let addresses: [String]

    /// Creates the set from names and addresses already in order.
    public init(names: [String], addresses: [String]) {
        self.names = names
        self.addresses = addresses
    }

    /// What a phone is offered, best first: names but `localhost`, then addresses but loopback; loopback
    /// only when there is nothing else (a server bound to loopback is reached from this machine only).
    public var phoneHosts: [String] {
        let outside = names.filter { $0 != "localhost" } + addresses.filter { !Self.isLoopbackAddress($0) }
        return outside.isEmpty ? ["127.0.0.1"] : outside
    }

    /// Whether `host` (a Host header's host, without port or brackets) is one of these.
    public func contains(host: String) -> Bool {
        let lowered = host.lowercased()
        if names.contains(lowered) { return true }
        guard let bytes = HostName.ipAddressBytes(lowered) else { return false }
        return addresses.contains { HostName.ipAddressBytes($0) == bytes }
    }

    /// Whether `address` is in 127.0.0.0/8 or is `::1`.
    public static func isLoopbackAddress(_ address: String) -> Bool {
        guard let bytes = HostName.ipAddressBytes(address) else { return false }
        return bytes.count == 4 ? bytes[0] == 127 : bytes == [UInt8](repeating: 0, count: 15) + [1]
    }
}

// MARK: - Discovery

extension ServedNames {
    /// The set for a server bound to `bindHost`, from what the machine says about itself.
    ///
    /// - Parameters:
    ///   - configuredNames: the `--name` values, already checked.
    ///   - machineName: `<hostname>.local` when it resolves, else nil; used only beyond loopback,
    ///     since the name leads to the machine's LAN address.
    ///   - interfaceAddresses: the machine's non-loopback addresses, IPv4 first.
    public static func discover(configuredNames: [String], bindHost: String, machineName: String?, interfaceAddresses: [String]) -> ServedNames {
        let loopbackOnly = PocketConfiguration.isLoopback(bindHost)
        var names = configuredNames
        if !loopbackOnly, let machineName, !names.contains(machineName) { names.append(machineName) }
        if !names.contains("localhost") { names.append("localhost") }

        var addresses: [String]
        switch bindHost {
        case "0.0.0.0": addresses = interfaceAddresses.filter { !$0.contains(":") }
        case "::", "[::]": addresses = interfaceAddresses
        default: addresses = loopbackOnly || HostName.ipAddressBytes(bindHost) == nil ? [] : [bindHost]
        }
        for loopback in ["127.0.0.1", "::1"] where !addresses.contains(loopback) {
            addresses.append(loopback)
        }
        return ServedNames(names: names, addresses: addresses)
    }

    /// The set for a server bound to `bindHost`, from this machine's host name and interfaces now.
    /// `includeMachineName: false` leaves out `<hostname>.local` (a certificate of the person's own may not cover it).
    public static func live(configuredNames: [String], bindHost: String, includeMachineName: Bool = true) -> ServedNames {
        let includeIPv6 = bindHost == "::" || bindHost == "[::]"
        return discover(configuredNames: configuredNames, bindHost: bindHost, machineName: includeMachineName ? localMachineName() : nil,
                        interfaceAddresses: ReachableAddresses.interfaceAddresses(includeIPv6: includeIPv6))
    }

    /// `<hostname>.local` (the host name's first label, lowercased) when it resolves here, as it does
    /// where Avahi or another mDNS responder runs; else nil.
    public static func localMachineName() -> String? {
        guard let label = machineLabel(), HostName.isValid(label + ".local") else { return nil }
        let name = label + ".local"
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &result) == 0 else { return nil }
        freeaddrinfo(result)
        return name
    }

    /// The first label of this machine's host name, lowercased (`laptop` of `laptop.example.org`).
    public static func machineLabel() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return nil }
        let full = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return full.split(separator: ".").first.map { $0.lowercased() }
    }
}
