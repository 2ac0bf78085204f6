import Foundation
import Hummingbird
import Remote

/// Every route of the Remote app, each declared once; `RemoteApp.endpoints` gives each its
/// handler, and links are built from the same values.
enum RemoteRoute {
    /// The prefix every Remote URL starts with.
    static let prefix = "/remote"

    static let root = Route(.get, "", under: prefix)
    static let tv = Route(.get, "tv", under: prefix)
    static let tvPower = Route(.post, "tv/power", under: prefix)
    static let tvVolume = Route(.post, "tv/volume", under: prefix)
    static let tvDigit = Route(.post, "tv/digit/:digit", Int.self, under: prefix)
    static let tvChannelUp = Route(.post, "tv/channel/up", under: prefix)
    static let tvChannelDown = Route(.post, "tv/channel/down", under: prefix)
    static let tvFavourite = Route(.post, "tv/favourite/:index", Int.self, under: prefix)
    /// The favourites page, and saving them.
    static let favourites = Route(.get, "tv/favourites", under: prefix)
    static let saveFavourites = Route(.post, "tv/favourites", under: prefix)
    static let dvr = Route(.get, "dvr", under: prefix)
    static let dvrPower = Route(.post, "dvr/power", under: prefix)
    static let dvrPress = Route(.post, "dvr/press/:button", DVRButton.self, under: prefix)
    static let dvrForce = Route(.post, "dvr/force/:button", DVRButton.self, under: prefix)
    static let screen = Route(.get, "screen", under: prefix)
    /// The reset alert, and resetting.
    static let confirmReset = Route(.get, "reset", under: prefix)
    static let reset = Route(.post, "reset", under: prefix)
    static let events = Route(.get, "events", under: prefix)

    /// The link to the remote of a device.
    static func remoteHref(_ device: RemoteDevice) -> String {
        switch device {
        case .tv: tv.href()
        case .dvr: dvr.href()
        }
    }

    /// The DVR remote with the action sheet for a refused press (also the sheet's no-JavaScript page).
    static func confirmHref(_ button: DVRButton) -> String {
        "\(RemoteRoute.dvr.href())?confirm=\(button.slug)"
    }

    /// The DVR remote with the alert that confirms a forced press.
    static func forcedHref(_ refusal: Refusal) -> String {
        "\(RemoteRoute.dvr.href())?forced=\(refusal.button.slug)&from=\(refusal.from.rawValue)"
    }

    /// The event stream a page listens on: `since` is the revision the page shows, so a change made
    /// between rendering and subscribing is not missed.
    static func eventsHref(view: RemoteEvents.View, since revision: Int64? = nil) -> String {
        "\(RemoteRoute.events.href())?view=\(view.rawValue)" + (revision.map { "&since=\($0)" } ?? "")
    }
}

extension DVRButton: PathValue {
    init?(pathPart: String) { self.init(slug: pathPart) }
    var pathPart: String { slug }

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
