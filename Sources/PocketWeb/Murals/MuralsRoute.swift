import Hummingbird

/// Every route of the Murals app, registering handlers and building links from one place.
enum MuralsRoute: AppRoute, Equatable {
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

    /// Each path of the app, spelled once, below its prefix.
    enum Path: String, RoutePath {
        case main = ""
        case mural = "mural/:id"
        case favourite = "mural/:id/favourite"
        case changes
        case offlineList = "offline.json"
        case thumbnail = "mural/:id/thumbnail"
        case image = "mural/:id/images/:index"
        case refresh
        case walk = "walk.json"
        case trail
        case trailJSON = "trail.json"
        case visited
        case clearVisited = "visited/clear"
        case leaflet = "leaflet/**"
        case demoFeed = "demo-service/data2.php"
        case demoImage = "demo-service/images/:file"
    }

    var path: Path {
        switch self {
        case .main: .main
        case .mural: .mural
        case .favourite: .favourite
        case .changes: .changes
        case .offlineList: .offlineList
        case .thumbnail: .thumbnail
        case .image: .image
        case .refresh: .refresh
        case .walk: .walk
        case .trail: .trail
        case .trailJSON: .trailJSON
        case .visited: .visited
        case .clearVisited: .clearVisited
        case .leaflet: .leaflet
        case .demoFeed: .demoFeed
        case .demoImage: .demoImage
        }
    }

    var parameters: [String] {
        switch self {
        case .mural(let id), .favourite(let id), .thumbnail(let id): [String(id)]
        case .image(let id, let index): [String(id), String(index)]
        case .leaflet(let file), .demoImage(let file): [file]
        case .main, .changes, .offlineList, .refresh, .walk, .trail, .trailJSON, .visited, .clearVisited, .demoFeed: []
        }
    }
}
