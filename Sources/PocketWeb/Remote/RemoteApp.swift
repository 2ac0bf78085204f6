import Foundation
import Hummingbird
import PocketCore
import Remote

/// The TV and DVR remotes and the Screen they control: registration and every route, listed once.
public struct RemoteApp: PocketApp {
    private let store: any RemoteStore
    private let now: @Sendable () -> Date
    /// Announces stored changes to every open page's event stream.
    let signals = Broadcaster<RemoteEvents.Signal>()

    /// Builds the app on its store; the simulated devices live there, shared by every browser.
    /// `now` is the wall clock that presses are stamped with and running counters are read at.
    public init(store: any RemoteStore, now: @escaping @Sendable () -> Date = { Date() }) {
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
        let pages = RemotePages(store: store, events: events, renderer: environment.renderer, now: now)
        group.get(RemoteRoute.root.pattern, use: pages.root)
        group.get(RemoteRoute.tv.pattern, use: pages.tv)
        group.post(RemoteRoute.tvPower.pattern, use: pages.tvPower)
        group.post(RemoteRoute.tvVolume.pattern, use: pages.tvVolume)
        group.post(RemoteRoute.tvDigit(0).pattern, use: pages.tvDigit)
        group.post(RemoteRoute.tvChannelUp.pattern, use: pages.tvChannelUp)
        group.post(RemoteRoute.tvChannelDown.pattern, use: pages.tvChannelDown)
        group.post(RemoteRoute.tvFavourite(0).pattern, use: pages.tvFavourite)
        group.get(RemoteRoute.favourites.pattern, use: pages.favourites)
        group.post(RemoteRoute.favourites.pattern, use: pages.saveFavourites)
        group.get(RemoteRoute.dvr.pattern, use: pages.dvr)
        group.post(RemoteRoute.dvrPower.pattern, use: pages.dvrPower)
        group.post(RemoteRoute.dvrPress(.play).pattern, use: pages.dvrPress)
        group.post(RemoteRoute.dvrForce(.play).pattern, use: pages.dvrForce)
        group.get(RemoteRoute.screen.pattern, use: pages.screen)
        group.get(RemoteRoute.reset.pattern, use: pages.confirmReset)
        group.post(RemoteRoute.reset.pattern, use: pages.reset)
        group.get(RemoteRoute.events.pattern, use: pages.events)
    }
}
