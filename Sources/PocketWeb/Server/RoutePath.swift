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
    /// state), so the path is read once, byte by byte, with no intermediate arrays: splitting and
    /// joining strings here was 46% of `/plates`' CPU (`bench/pages.sh`).
    var href: String {
        var values = parameters.makeIterator()
        var link = ""
        link.reserveCapacity(Self.prefix.utf8.count + path.rawValue.utf8.count + 16)
        Self.appendParts(of: Self.prefix, to: &link, filling: &values)
        Self.appendParts(of: path.rawValue, to: &link, filling: &values)
        return (link.isEmpty ? "/" : link) + query
    }

    /// Appends each non-empty `/`-separated part of `template` as `/part`, a parameter (`:name`,
    /// `*`, `**`) replaced by the next of `values` (nothing when there is none or it is empty).
    private static func appendParts(of template: String, to link: inout String, filling values: inout IndexingIterator<[String]>) {
        let bytes = template.utf8
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
            if start < end {
                let part = template[start..<end]
                let isParameter = part.utf8.first == UInt8(ascii: ":") || part == "*" || part == "**"
                let text = isParameter ? Substring(values.next() ?? "") : part
                if !text.isEmpty {
                    link.append("/")
                    link.append(contentsOf: text)
                }
            }
            start = end < bytes.endIndex ? bytes.index(after: end) : end
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
