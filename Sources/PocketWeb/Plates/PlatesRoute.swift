import Hummingbird

/// Every route of the Plates app, registering handlers and building links from one place.
enum PlatesRoute: Equatable {
    case list
    case state(String)
    case plateImage(String)
    case spot(String)
    case confirmUnspot(String)
    case unspot(String)
    case confirmReset
    case reset
    case map
    case trips
    case confirmNewTrip
    case newTrip
    case trip(Int64)
    case settings
    case sound(String)
    /// The outbox's endpoint: one change as JSON (see `PlatesChanges`).
    case changes

    /// The prefix every Plates URL starts with.
    static let prefix = "/plates"

    /// The pattern below the app's prefix, as registered.
    var pattern: RouterPath {
        switch self {
        case .list: return ""
        case .state: return "states/:code"
        case .plateImage: return "states/:code/plate"
        case .spot: return "states/:code/spot"
        case .confirmUnspot, .unspot: return "states/:code/unspot"
        case .confirmReset, .reset: return "reset"
        case .map: return "map"
        case .trips, .newTrip: return "trips"
        case .confirmNewTrip: return "trips/new"
        case .trip: return "trips/:id"
        case .settings: return "settings"
        case .sound: return "sounds/:name"
        case .changes: return "changes"
        }
    }

    /// The link to this route.
    var href: String {
        switch self {
        case .list: return Self.prefix
        case .state(let code): return "\(Self.prefix)/states/\(code)"
        case .plateImage(let code): return "\(Self.prefix)/states/\(code)/plate"
        case .spot(let code): return "\(Self.prefix)/states/\(code)/spot"
        case .confirmUnspot(let code), .unspot(let code): return "\(Self.prefix)/states/\(code)/unspot"
        case .confirmReset, .reset: return "\(Self.prefix)/reset"
        case .map: return "\(Self.prefix)/map"
        case .trips, .newTrip: return "\(Self.prefix)/trips"
        case .confirmNewTrip: return "\(Self.prefix)/trips/new"
        case .trip(let id): return "\(Self.prefix)/trips/\(id)"
        case .settings: return "\(Self.prefix)/settings"
        case .sound(let name): return "\(Self.prefix)/sounds/\(name).wav"
        case .changes: return "\(Self.prefix)/changes"
        }
    }
}
