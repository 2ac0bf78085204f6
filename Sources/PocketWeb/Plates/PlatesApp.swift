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
        let pages = PlatesPages(database: database, catalog: catalog, images: images, renderer: environment.renderer)
        group.get(PlatesRoute.Path.list.pattern, use: pages.list)
        group.get(PlatesRoute.Path.state.pattern, use: pages.state)
        group.get(PlatesRoute.Path.plateImage.pattern, use: pages.plateImage)
        group.post(PlatesRoute.Path.spot.pattern, use: pages.spot)
        group.get(PlatesRoute.Path.unspot.pattern, use: pages.confirmUnspot)
        group.post(PlatesRoute.Path.unspot.pattern, use: pages.unspot)
        group.get(PlatesRoute.Path.reset.pattern, use: pages.confirmReset)
        group.post(PlatesRoute.Path.reset.pattern, use: pages.reset)
        group.get(PlatesRoute.Path.map.pattern, use: pages.map)
        group.get(PlatesRoute.Path.trips.pattern, use: pages.trips)
        group.get(PlatesRoute.Path.confirmNewTrip.pattern, use: pages.confirmNewTrip)
        group.post(PlatesRoute.Path.trips.pattern, use: pages.newTrip)
        group.get(PlatesRoute.Path.trip.pattern, use: pages.trip)
        group.post(PlatesRoute.Path.settings.pattern, use: pages.settings)
        group.post(PlatesRoute.Path.changes.pattern, use: pages.applyChange)
        group.get(PlatesRoute.Path.sound.pattern) { _, context in
            try soundResponse(context.parameters.require("name"))
        }
    }

    private func soundResponse(_ file: String) throws -> Response {
        let name = file.hasSuffix(".wav") ? String(file.dropLast(4)) : file
        guard let data = sounds[name] else { throw HTTPError(.notFound) }
        return Response(
            status: .ok,
            headers: [.contentType: "audio/wav", .cacheControl: "public, max-age=86400", .contentLength: String(data.count)],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
