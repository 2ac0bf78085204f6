import Foundation

/// Fields of an `application/x-www-form-urlencoded` body or a query string.
public struct FormFields: Sendable, Equatable {
    private var storage: [(name: String, value: String)]

    /// Parses `a=1&b=two+words`; malformed percent escapes are kept literally rather than dropped.
    public init(urlEncoded text: some StringProtocol) {
        storage = text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(Substring(parts[0]))
            let value = parts.count > 1 ? Self.decode(Substring(parts[1])) : ""
            return (name, value)
        }
    }

    /// The first value for `name`.
    public subscript(name: String) -> String? {
        storage.first { $0.name == name }?.value
    }

    /// Every value for `name`, in order.
    public func all(_ name: String) -> [String] {
        storage.filter { $0.name == name }.map(\.value)
    }

    /// Field names in order of first appearance.
    public var names: [String] {
        var seen = Set<String>()
        return storage.compactMap { seen.insert($0.name).inserted ? $0.name : nil }
    }

    public static func == (lhs: FormFields, rhs: FormFields) -> Bool {
        lhs.storage.elementsEqual(rhs.storage) { $0.name == $1.name && $0.value == $1.value }
    }

    private static func decode(_ part: Substring) -> String {
        // Most names and values are plain; Foundation's replacing and unescaping cost far more.
        if !part.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) { return String(part) }
        let spaced = part.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
