import Hummingbird

/// Every route of the Plates app, registering handlers and building links from one place.
enum PlatesRoute: AppRoute, Equatable {
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

    /// Each path of the app, spelled once, below its prefix.
    enum Path: String, RoutePath {
        case list = ""
        case state = "states/:code"
        case plateImage = "states/:code/plate"
        case spot = "states/:code/spot"
        /// The un-spot alert (GET) and un-spotting (POST).
        case unspot = "states/:code/unspot"
        /// The Reset Game alert (GET) and resetting (POST).
        case reset
        case map
        /// The trips (GET) and a New Trip (POST).
        case trips
        case confirmNewTrip = "trips/new"
        case trip = "trips/:id"
        case settings
        case sound = "sounds/:name"
        case changes
    }

    var path: Path {
        switch self {
        case .list: .list
        case .state: .state
        case .plateImage: .plateImage
        case .spot: .spot
        case .confirmUnspot, .unspot: .unspot
        case .confirmReset, .reset: .reset
        case .map: .map
        case .trips, .newTrip: .trips
        case .confirmNewTrip: .confirmNewTrip
        case .trip: .trip
        case .settings: .settings
        case .sound: .sound
        case .changes: .changes
        }
    }

    var parameters: [String] {
        switch self {
        case .state(let code), .plateImage(let code), .spot(let code), .confirmUnspot(let code), .unspot(let code): [code]
        case .trip(let id): [String(id)]
        // The sound's file is served under its name with its type.
        case .sound(let name): [name + ".wav"]
        case .list, .confirmReset, .reset, .map, .trips, .confirmNewTrip, .newTrip, .settings, .changes: []
        }
    }
}
