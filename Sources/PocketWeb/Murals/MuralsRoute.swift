import Hummingbird

/// Every route of the Murals app, each declared once: method, path and the types of its values.
/// `MuralsPages.endpoints` gives each its handler; links are built from the same values.
enum MuralsRoute {
    /// The prefix every Murals URL starts with.
    static let prefix = "/murals"

    static let main = Route(.get, "", under: prefix)
    static let mural = Route(.get, "mural/:id", Int.self, under: prefix)
    static let favourite = Route(.post, "mural/:id/favourite", Int.self, under: prefix)
    static let changes = Route(.post, "changes", under: prefix)
    static let offlineList = Route(.get, "offline.json", under: prefix)
    static let thumbnail = Route(.get, "mural/:id/thumbnail", Int.self, under: prefix)
    static let image = Route(.get, "mural/:id/images/:index", Int.self, Int.self, under: prefix)
    static let refresh = Route(.post, "refresh", under: prefix)
    static let walk = Route(.get, "walk.json", under: prefix)
    static let trail = Route(.get, "trail", under: prefix)
    static let trailJSON = Route(.get, "trail.json", under: prefix)
    static let visited = Route(.post, "visited", under: prefix)
    static let clearVisited = Route(.post, "visited/clear", under: prefix)
    /// A file of the map library.
    static let leaflet = Route(.get, "leaflet/**", String.self, under: prefix)
    /// The demo service's feed and pictures, registered only when the demo service is used.
    static let demoFeed = Route(.get, "demo-service/data2.php", under: prefix)
    static let demoImage = Route(.get, "demo-service/images/:file", String.self, under: prefix)

    /// The list screens as their links and filter spell them: each shows every star, so "Keep
    /// offline" saves each, and murals/stars.js reads each again once a star change is sent.
    static let listPages = [main.href(), main.href() + "?show=\(MuralsFilter.all.rawValue)", main.href() + "?show=\(MuralsFilter.favourites.rawValue)"]
    /// `listPages` as one attribute value (`data-stale-pages`), space-separated.
    static let listPagesAttribute = listPages.joined(separator: " ")
}
