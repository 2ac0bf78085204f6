import Foundation
import Hummingbird
import Plates
import PocketCore

/// The license plate game: registration and every route, listed once.
public struct PlatesApp: PocketApp {
    /// Shared by everyone; each request asks it for the signed-in person's game.
    private let database: PlatesDatabase
    private let catalog: StateCatalog
    private let images: PlateImageCache
    private let sounds: [String: Data]

    /// Builds the app from the game's database, the state catalog and the plate picture cache.
    public init(database: PlatesDatabase, catalog: StateCatalog, images: PlateImageCache) {
        self.database = database
        self.catalog = catalog
        self.images = images
        let synthesizer = SoundSynthesizer()
        sounds = Dictionary(uniqueKeysWithValues: PlatesSound.allCases.map { ($0.rawValue, synthesizer.wav($0.notes)) })
    }

    public func healthProblem() async -> String? {
        await HealthCheck.problem(of: database)
    }

    public var descriptor: AppDescriptor {
        AppDescriptor(id: "plates", name: "Plates", icon: "icons/apps/plates.svg", summary: "The license plate game: spot all 50 states")
    }

    public func addRoutes(to group: RouterGroup<PocketRequestContext>, environment: WebEnvironment) {
        group.add(endpoints(environment: environment))
    }

    /// Every route of the app with its handler.
    func endpoints(environment: WebEnvironment) -> [Endpoint] {
        let pages = PlatesPages(database: database, catalog: catalog, images: images, renderer: environment.renderer, caches: environment.caches)
        typealias R = PlatesRoute
        return [
            R.list.handle(pages.list), R.state.handle(pages.state), R.plateImage.handle(pages.plateImage), R.spot.handle(pages.spot),
            R.confirmUnspot.handle(pages.confirmUnspot), R.unspot.handle(pages.unspot), R.confirmReset.handle(pages.confirmReset),
            R.reset.handle(pages.reset), R.map.handle(pages.map), R.trips.handle(pages.trips), R.confirmNewTrip.handle(pages.confirmNewTrip),
            R.newTrip.handle(pages.newTrip), R.trip.handle(pages.trip), R.settings.handle(pages.settings), R.changes.handle(pages.applyChange),
            R.sound.handle { _, _, sound in try soundResponse(sound) },
        ]
    }

    private func soundResponse(_ sound: PlatesSound) throws -> Response {
        guard let data = sounds[sound.rawValue] else { throw HTTPError(.notFound) }
        return Response(
            status: .ok,
            headers: [.contentType: "audio/wav", .cacheControl: "public, max-age=86400", .contentLength: String(data.count)],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
