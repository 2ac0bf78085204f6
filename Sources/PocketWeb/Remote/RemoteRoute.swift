import Foundation
import Hummingbird
import Remote

/// Every route of the Remote app, registering handlers and building links from one place.
enum RemoteRoute: Equatable {
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

    /// The pattern below the app's prefix, as registered.
    var pattern: RouterPath {
        switch self {
        case .root: return ""
        case .tv: return "tv"
        case .tvPower: return "tv/power"
        case .tvVolume: return "tv/volume"
        case .tvDigit: return "tv/digit/:digit"
        case .tvChannelUp: return "tv/channel/up"
        case .tvChannelDown: return "tv/channel/down"
        case .tvFavourite: return "tv/favourite/:index"
        case .favourites: return "tv/favourites"
        case .dvr: return "dvr"
        case .dvrPower: return "dvr/power"
        case .dvrPress: return "dvr/press/:button"
        case .dvrForce: return "dvr/force/:button"
        case .screen: return "screen"
        case .reset: return "reset"
        case .events: return "events"
        }
    }

    /// The link to this route.
    var href: String {
        switch self {
        case .root: return Self.prefix
        case .tv: return "\(Self.prefix)/tv"
        case .tvPower: return "\(Self.prefix)/tv/power"
        case .tvVolume: return "\(Self.prefix)/tv/volume"
        case .tvDigit(let digit): return "\(Self.prefix)/tv/digit/\(digit)"
        case .tvChannelUp: return "\(Self.prefix)/tv/channel/up"
        case .tvChannelDown: return "\(Self.prefix)/tv/channel/down"
        case .tvFavourite(let index): return "\(Self.prefix)/tv/favourite/\(index)"
        case .favourites: return "\(Self.prefix)/tv/favourites"
        case .dvr: return "\(Self.prefix)/dvr"
        case .dvrPower: return "\(Self.prefix)/dvr/power"
        case .dvrPress(let button): return "\(Self.prefix)/dvr/press/\(button.slug)"
        case .dvrForce(let button): return "\(Self.prefix)/dvr/force/\(button.slug)"
        case .screen: return "\(Self.prefix)/screen"
        case .reset: return "\(Self.prefix)/reset"
        case .events: return "\(Self.prefix)/events"
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
