import Foundation
import Hummingbird
import Remote

/// Every route of the Remote app, registering handlers and building links from one place.
enum RemoteRoute: AppRoute, Equatable {
    case root
    case tv
    case tvPower
    case tvVolume
    case tvDigit(Int)
    case tvChannelUp
    case tvChannelDown
    case tvFavourite(Int)
    case favourites
    case dvr
    case dvrPower
    case dvrPress(DVRButton)
    case dvrForce(DVRButton)
    case screen
    case reset
    case events

    /// The prefix every Remote URL starts with.
    static let prefix = "/remote"

    /// Each path of the app, spelled once, below its prefix.
    enum Path: String, RoutePath {
        case root = ""
        case tv
        case tvPower = "tv/power"
        case tvVolume = "tv/volume"
        case tvDigit = "tv/digit/:digit"
        case tvChannelUp = "tv/channel/up"
        case tvChannelDown = "tv/channel/down"
        case tvFavourite = "tv/favourite/:index"
        case favourites = "tv/favourites"
        case dvr
        case dvrPower = "dvr/power"
        case dvrPress = "dvr/press/:button"
        case dvrForce = "dvr/force/:button"
        case screen
        case reset
        case events
    }

    var path: Path {
        switch self {
        case .root: .root
        case .tv: .tv
        case .tvPower: .tvPower
        case .tvVolume: .tvVolume
        case .tvDigit: .tvDigit
        case .tvChannelUp: .tvChannelUp
        case .tvChannelDown: .tvChannelDown
        case .tvFavourite: .tvFavourite
        case .favourites: .favourites
        case .dvr: .dvr
        case .dvrPower: .dvrPower
        case .dvrPress: .dvrPress
        case .dvrForce: .dvrForce
        case .screen: .screen
        case .reset: .reset
        case .events: .events
        }
    }

    var parameters: [String] {
        switch self {
        case .tvDigit(let number), .tvFavourite(let number): [String(number)]
        case .dvrPress(let button), .dvrForce(let button): [button.slug]
        case .root, .tv, .tvPower, .tvVolume, .tvChannelUp, .tvChannelDown, .favourites, .dvr, .dvrPower, .screen, .reset, .events: []
        }
    }

    /// The remote of a device.
    static func remote(_ device: RemoteDevice) -> RemoteRoute {
        switch device {
        case .tv: .tv
        case .dvr: .dvr
        }
    }

    /// The DVR remote with the action sheet for a refused press (also the sheet's no-JavaScript page).
    static func confirmHref(_ button: DVRButton) -> String {
        "\(RemoteRoute.dvr.href)?confirm=\(button.slug)"
    }

    /// The DVR remote with the alert that confirms a forced press.
    static func forcedHref(_ refusal: Refusal) -> String {
        "\(RemoteRoute.dvr.href)?forced=\(refusal.button.slug)&from=\(refusal.from.rawValue)"
    }

    /// The event stream a page listens on: `since` is the revision the page shows, so a change made
    /// between rendering and subscribing is not missed.
    static func eventsHref(view: RemoteEvents.View, since revision: Int64? = nil) -> String {
        "\(RemoteRoute.events.href)?view=\(view.rawValue)" + (revision.map { "&since=\($0)" } ?? "")
    }
}

extension DVRButton {
    /// The button in URLs: lowercase words joined by hyphens ("fast-forward").
    var slug: String {
        switch self {
        case .stop: "stop"
        case .play: "play"
        case .pause: "pause"
        case .fastForward: "fast-forward"
        case .fastRewind: "fast-rewind"
        case .record: "record"
        }
    }

    /// Reads a button from a URL; nil for anything else.
    init?(slug: String) {
        guard let button = Self.allCases.first(where: { $0.slug == slug }) else { return nil }
        self = button
    }
}
