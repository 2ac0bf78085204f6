import Foundation
import Hummingbird
import PocketCore
import Remote

/// The TV and DVR remotes and the Screen they control: registration and every route, listed once.
public struct RemoteApp: PocketApp {
    private let store: RemoteDatabase
    private let now: @Sendable () -> Date
    /// Announces stored changes to every open page's event stream.
    let signals = Broadcaster<RemoteEvents.Signal>()

    /// Builds the app on its store; the simulated devices live there, shared by every browser.
    /// `now` is the wall clock that presses are stamped with and running counters are read at.
    public init(store: RemoteDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.now = now
    }

    public func healthProblem() async -> String? {
        await HealthCheck.problem(of: store)
    }

    public var descriptor: AppDescriptor {
        AppDescriptor(id: "remote", name: "Remote", icon: "icons/apps/remote.svg", summary: "Remote controls for a TV and a DVR, and the screen they drive")
    }

    public func addRoutes(to group: RouterGroup<PocketRequestContext>, environment: WebEnvironment) {
        let events = RemoteEvents(signals: signals, store: store, now: now)
        let pages = RemotePages(store: store, events: events, renderer: environment.renderer, streams: environment.streams, now: now)
        group.get(RemoteRoute.Path.root.pattern, use: pages.root)
        group.get(RemoteRoute.Path.tv.pattern, use: pages.tv)
        group.post(RemoteRoute.Path.tvPower.pattern, use: pages.tvPower)
        group.post(RemoteRoute.Path.tvVolume.pattern, use: pages.tvVolume)
        group.post(RemoteRoute.Path.tvDigit.pattern, use: pages.tvDigit)
        group.post(RemoteRoute.Path.tvChannelUp.pattern, use: pages.tvChannelUp)
        group.post(RemoteRoute.Path.tvChannelDown.pattern, use: pages.tvChannelDown)
        group.post(RemoteRoute.Path.tvFavourite.pattern, use: pages.tvFavourite)
        group.get(RemoteRoute.Path.favourites.pattern, use: pages.favourites)
        group.post(RemoteRoute.Path.favourites.pattern, use: pages.saveFavourites)
        group.get(RemoteRoute.Path.dvr.pattern, use: pages.dvr)
        group.post(RemoteRoute.Path.dvrPower.pattern, use: pages.dvrPower)
        group.post(RemoteRoute.Path.dvrPress.pattern, use: pages.dvrPress)
        group.post(RemoteRoute.Path.dvrForce.pattern, use: pages.dvrForce)
        group.get(RemoteRoute.Path.screen.pattern, use: pages.screen)
        group.get(RemoteRoute.Path.reset.pattern, use: pages.confirmReset)
        group.post(RemoteRoute.Path.reset.pattern, use: pages.reset)
        group.get(RemoteRoute.Path.events.pattern, use: pages.events)
    }
}
