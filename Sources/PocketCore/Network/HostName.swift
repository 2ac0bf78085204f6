import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Host names and IP address literals as Pocket's certificates, links and Host checks see them.
public enum HostName {
    /// Whether `name` is a DNS host name (letters, digits and hyphens in dot-separated labels of at
    /// most 63 characters, no label starting or ending with a hyphen) and not an IP address.
    public static func isValid(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 253, ipAddressBytes(name) == nil else { return false }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        // All digits in the last label would read as a (partial) IPv4 address.
        guard let last = labels.last, !last.allSatisfy(\.isNumber) else { return false }
        return labels.allSatisfy { label in
            (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                && label.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") }
        }
    }

    /// The 4 or 16 bytes of an IPv4 or IPv6 address literal (no brackets, no zone), or nil.
    public static func ipAddressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }

    /// The address written as an IP literal (IPv6 in its compressed form), or nil for anything else.
    public static func ipAddressText(_ bytes: [UInt8]) -> String? {
        let family: Int32
        switch bytes.count {
        case 4: family = AF_INET
        case 16: family = AF_INET6
        default: return nil
        }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = bytes.withUnsafeBytes { raw in inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) }
        guard written != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `host` as it goes into a URL: an IPv6 literal in brackets.
    public static func urlHost(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }

    /// The host of a `Host` header or URL authority (`name:port`, `[::1]:port`), lowercased, or nil
    /// when it is not a plain host name or IP literal.
    public static func host(ofAuthority authority: String) -> String? {
        let host: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || (rest.first == ":" && rest.dropFirst().allSatisfy(\.isNumber)) else { return nil }
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let first = parts.first, parts.count == 1 || parts[1].allSatisfy(\.isNumber) else { return nil }
            host = first
        }
        let lowered = host.lowercased()
        return isValid(lowered) || ipAddressBytes(lowered) != nil ? lowered : nil
    }
}
