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
        group.add(endpoints(environment: environment))
    }

    /// Every route of the app with its handler.
    func endpoints(environment: WebEnvironment) -> [Endpoint] {
        let events = RemoteEvents(signals: signals, store: store, now: now)
        let pages = RemotePages(store: store, events: events, renderer: environment.renderer, streams: environment.streams, now: now,
                                tvPages: PageMemo(environment.caches))
        typealias R = RemoteRoute
        return [
            R.root.handle(pages.root), R.tv.handle(pages.tv), R.tvPower.handle(pages.tvPower), R.tvVolume.handle(pages.tvVolume),
            R.tvDigit.handle(pages.tvDigit), R.tvChannelUp.handle(pages.tvChannelUp), R.tvChannelDown.handle(pages.tvChannelDown),
            R.tvFavourite.handle(pages.tvFavourite), R.favourites.handle(pages.favourites), R.saveFavourites.handle(pages.saveFavourites),
            R.dvr.handle(pages.dvr), R.dvrPower.handle(pages.dvrPower), R.dvrPress.handle(pages.dvrPress), R.dvrForce.handle(pages.dvrForce),
            R.screen.handle(pages.screen), R.confirmReset.handle(pages.confirmReset), R.reset.handle(pages.reset), R.events.handle(pages.events),
        ]
    }
}
