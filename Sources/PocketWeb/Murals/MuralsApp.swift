import Foundation
import Hummingbird
import Logging
import Murals
import PocketCore

/// The New Brighton murals: registration, every route (listed once), and the start-up sync.
public struct MuralsApp: PocketApp {
    /// Shared by everyone (murals, pictures, sync); each request names the signed-in person
    /// whose favourites and visits it reads or changes.
    private let store: MuralsDatabase
    private let service: MuralsService
    private let synchronizer: MuralsSynchronizer
    private let images: MuralImageCache
    private let leaflet: LeafletAssets?
    private let tiles: MuralsTiles

    /// Builds the app. The demo service answers from inside Pocket; any other service is asked
    /// through `fetcher` (by default over HTTP, following redirects only between the service's
    /// feed and picture hosts), each request given at most `timeout` (a refresh waits that long at worst,
    /// since an unreachable host is retried until then). Pictures are kept in `imageFolder`, at most
    /// `imageCapacity` bytes.
    public init(
        store: MuralsDatabase,
        service: MuralsService,
        imageFolder: URL,
        fetcher: (any HTTPFetching)? = nil,
        imageCapacity: Int = 64 << 20,
        timeout: Duration = .seconds(10),
        leaflet: LeafletAssets?,
        tiles: MuralsTiles = .openStreetMap,
        logger: Logger? = nil
    ) {
        let source: any HTTPFetching = service.isDemo ? DemoMuralFetcher()
            : fetcher ?? LiveHTTPFetcher(alsoAllowing: [service.imageBase, service.endpoint])
        self.store = store
        self.service = service
        synchronizer = MuralsSynchronizer(store: store, fetcher: source, endpoint: service.endpoint, timeout: timeout, logger: logger)
        images = MuralImageCache(folder: imageFolder, fetcher: source, capacityBytes: imageCapacity, timeout: timeout, acceptsVectorPictures: service.isDemo)
        self.leaflet = leaflet
        self.tiles = tiles
    }

    public func healthProblem() async -> String? {
        await HealthCheck.problem(of: store)
    }

    public var descriptor: AppDescriptor {
        AppDescriptor(id: "murals", name: "Murals", icon: "icons/apps/murals.svg", summary: "The New Brighton murals on a map, nearest first")
    }

    /// Map tiles come straight from the tile server (the service worker fetches and keeps those
    /// viewed); mural pictures always come through Pocket.
    public var externalSources: ExternalSources {
        let origin = [tiles.origin].filter { !$0.isEmpty }
        return ExternalSources(imageSources: origin, connectSources: origin, tileTemplates: [tiles.template])
    }

    public func addRoutes(to group: RouterGroup<PocketRequestContext>, environment: WebEnvironment) {
        group.add(endpoints(environment: environment))
    }

    /// Every route of the app with its handler; the demo service's only when it is the one used.
    func endpoints(environment: WebEnvironment) -> [Endpoint] {
        MuralsPages(store: store, service: service, synchronizer: synchronizer, images: images, leaflet: leaflet, tiles: tiles, renderer: environment.renderer,
                    caches: environment.caches)
            .endpoints(demoService: service.isDemo)
    }

    /// Brings the saved murals up to date once at start-up; a failure only shows as the quiet
    /// offline line, and the saved murals keep being shown.
    public func runInBackground(logger: Logger) async {
        let synchronizer = self.synchronizer
        let (done, finished) = AsyncStream<Void>.makeStream()
        let work = Task {
            do {
                let summary = try await synchronizer.sync()
                logger.info("Murals are up to date", metadata: ["received": "\(summary.received)", "incremental": "\(summary.wasIncremental)"])
            } catch {
                logger.notice("Murals could not be updated at start-up", metadata: ["reason": "\(error)"])
            }
            finished.finish()
        }
        // A sync waits for the network (up to its timeout) and does not stop when cancelled, so
        // shutdown must not wait for it: return as soon as this task is cancelled.
        await withTaskCancellationHandler {
            for await _ in done {}
        } onCancel: {
            finished.finish()
            work.cancel()
        }
    }
}
