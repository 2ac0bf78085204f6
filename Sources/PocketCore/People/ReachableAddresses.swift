import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The machine's own network addresses, which `ServedNames` offers phones when Pocket is bound
/// to all of them (`0.0.0.0`, `::`).
public enum ReachableAddresses {
    /// This machine's non-loopback, non-link-local interface addresses (IPv4 first), from getifaddrs.
    public static func interfaceAddresses(includeIPv6: Bool) -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0, let list = first else { return [] }
        defer { freeifaddrs(list) }
        var v4: [String] = [], v6: [String] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = list
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0, let address = entry.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || (includeIPv6 && family == AF_INET6) else { continue }
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if family == AF_INET {
                if !v4.contains(text) { v4.append(text) }
            } else if !text.lowercased().hasPrefix("fe80"), !v6.contains(text) {
                v6.append(text)
            }
        }
        return v4 + v6
    }
}
