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

    /// The link to this route: the prefix and the path with each parameter filled in order.
    var href: String {
        var values = parameters.makeIterator()
        let components = path.rawValue.split(separator: "/", omittingEmptySubsequences: true).map { component in
            component.hasPrefix(":") || component == "**" || component == "*" ? values.next() ?? "" : String(component)
        }
        let joined = ([Self.prefix] + components).filter { !$0.isEmpty }.joined(separator: "/")
        let link = Self.prefix.hasPrefix("/") ? joined : "/" + joined
        return link + query
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
