import Hummingbird

/// Every route of the Murals app, registering handlers and building links from one place.
enum MuralsRoute: Equatable {
    case main
    case mural(Int)
    case favourite(Int)
    case changes
    case offlineList
    case thumbnail(Int)
    case image(Int, Int)
    case refresh
    case walk
    case trail
    case trailJSON
    case visited
    case clearVisited
    case leaflet(String)
    case demoFeed
    case demoImage(String)

    /// The prefix every Murals URL starts with.
    static let prefix = "/murals"

    /// The pattern below the app's prefix, as registered.
    var pattern: RouterPath {
        switch self {
        case .main: return ""
        case .mural: return "mural/:id"
        case .favourite: return "mural/:id/favourite"
        case .changes: return "changes"
        case .offlineList: return "offline.json"
        case .thumbnail: return "mural/:id/thumbnail"
        case .image: return "mural/:id/images/:index"
        case .refresh: return "refresh"
        case .walk: return "walk.json"
        case .trail: return "trail"
        case .trailJSON: return "trail.json"
        case .visited: return "visited"
        case .clearVisited: return "visited/clear"
        case .leaflet: return "leaflet/**"
        case .demoFeed: return "demo-service/data2.php"
        case .demoImage: return "demo-service/images/:file"
        }
    }

    /// The link to this route.
    var href: String {
        switch self {
        case .main: return Self.prefix
        case .mural(let id): return "\(Self.prefix)/mural/\(id)"
        case .favourite(let id): return "\(Self.prefix)/mural/\(id)/favourite"
        case .changes: return "\(Self.prefix)/changes"
        case .offlineList: return "\(Self.prefix)/offline.json"
        case .thumbnail(let id): return "\(Self.prefix)/mural/\(id)/thumbnail"
        case .image(let id, let index): return "\(Self.prefix)/mural/\(id)/images/\(index)"
        case .refresh: return "\(Self.prefix)/refresh"
        case .walk: return "\(Self.prefix)/walk.json"
        case .trail: return "\(Self.prefix)/trail"
        case .trailJSON: return "\(Self.prefix)/trail.json"
        case .visited: return "\(Self.prefix)/visited"
        case .clearVisited: return "\(Self.prefix)/visited/clear"
        case .leaflet(let file): return "\(Self.prefix)/leaflet/\(file)"
        case .demoFeed: return "\(Self.prefix)/demo-service/data2.php"
        case .demoImage(let file): return "\(Self.prefix)/demo-service/images/\(file)"
        }
    }
}
