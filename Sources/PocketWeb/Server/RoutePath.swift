import Hummingbird

/// A route's path as the router registers it, spelled once: below its app's prefix (`mural/:id`;
/// `:name` a parameter, `**` the rest of the path). Each app's route enum has one `Path` enum of
/// these, so registering a route needs no placeholder values, and every link is its path with the
/// values filled in (`AppRoute.href`).
protocol RoutePath: RawRepresentable<String>, CaseIterable, Sendable {}

extension RoutePath {
    /// The pattern to register inside the app's route group (whose prefix the group adds).
    var pattern: RouterPath { RouterPath(rawValue) }
}

/// An app's routes: each a `Path` and the values that fill its parameters.
protocol AppRoute {
    associatedtype Path: RoutePath
    /// What every path of the app starts with (`/murals`; empty for routes at the root).
    static var prefix: String { get }
    /// The path this route is registered under.
    var path: Path { get }
    /// The values of the path's parameters, in order.
    var parameters: [String] { get }
    /// What follows the path in a link (`?from=…`), or "".
    var query: String { get }
}

extension AppRoute {
    var parameters: [String] { [] }
    var query: String { "" }

    /// The link to this route: the prefix and the path with each parameter filled in order, each
    /// non-empty part after a slash. A page builds hundreds of links (the Plates list: several per
    /// state, the conference list one per conference), so the path is read once, byte by byte, into
    /// one buffer: splitting and joining strings here was 46% of `/plates`' CPU, and appending
    /// substrings to a `String` still 23% of `/conference`'s (`bench/pages.sh`, `perf`).
    var href: String {
        var values = parameters.makeIterator()
        let query = self.query
        var link: [UInt8] = []
        link.reserveCapacity(Self.prefix.utf8.count + path.rawValue.utf8.count + query.utf8.count + 16)
        Self.appendParts(of: Self.prefix, to: &link, filling: &values)
        Self.appendParts(of: path.rawValue, to: &link, filling: &values)
        if link.isEmpty { link.append(UInt8(ascii: "/")) }
        link.append(contentsOf: query.utf8)
        return String(decoding: link, as: UTF8.self)
    }

    /// Appends each non-empty `/`-separated part of `template` as `/part`, a parameter (`:name`,
    /// `*`, `**`) replaced by the next of `values` (nothing when there is none or it is empty).
    private static func appendParts(of template: String, to link: inout [UInt8], filling values: inout IndexingIterator<[String]>) {
        let slash = UInt8(ascii: "/"), colon = UInt8(ascii: ":"), star = UInt8(ascii: "*")
        var template = template
        template.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != slash { end += 1 }
                if start < end {
                    let length = end - start
                    let isParameter = bytes[start] == colon || (bytes[start] == star && (length == 1 || (length == 2 && bytes[start + 1] == star)))
                    if !isParameter {
                        link.append(slash)
                        link.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                    } else if let value = values.next(), !value.isEmpty {
                        link.append(slash)
                        link.append(contentsOf: value.utf8)
                    }
                }
                start = end + 1
            }
        }
    }
}

extension AppRoute {
    /// What every link of `path` starts with: its components up to the first parameter, with the
    /// slash after them (`/murals/demo-service/images/`, `/static/`).
    static func folder(of path: Path) -> String {
        let fixed = path.rawValue.split(separator: "/").prefix { !$0.hasPrefix(":") && $0 != "**" && $0 != "*" }
        let joined = ([prefix] + fixed.map(String.init)).filter { !$0.isEmpty }.joined(separator: "/")
        return (prefix.hasPrefix("/") ? joined : "/" + joined) + "/"
    }
}
