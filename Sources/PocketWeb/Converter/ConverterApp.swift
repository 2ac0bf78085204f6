import Converter
import Hummingbird
import PocketCore

/// The unit converter: registration and every route, listed once.
public struct ConverterApp: PocketApp {
    /// Shared by everyone; each request asks it for the signed-in person's screen.
    private let database: ConverterDatabase

    /// Builds the app on the database that remembers each person's screen.
    public init(database: ConverterDatabase) {
        self.database = database
    }

    public func healthProblem() async -> String? {
        await HealthCheck.problem(of: database)
    }

    /// The home screen tile: `/converter`.
    public var descriptor: AppDescriptor {
        AppDescriptor(
            id: "converter", name: "Converter", icon: "icons/apps/converter.svg",
            summary: "Exact unit conversions: data, temperature, length and more")
    }

    /// The screen (GET) and the one form every change posts (POST), both at `/converter`; the
    /// catalog the phone's own engine uses, and where its outbox sends its state (`ConverterChanges`).
    public func addRoutes(to group: RouterGroup<PocketRequestContext>, environment: WebEnvironment) {
        let pages = ConverterPages(database: database, renderer: environment.renderer)
        group.get(ConverterRoute.Path.screen.pattern, use: pages.screen)
        group.post(ConverterRoute.Path.screen.pattern, use: pages.change)
        group.get(ConverterRoute.Path.catalog.pattern, use: pages.catalog)
        group.post(ConverterRoute.Path.state.pattern, use: pages.applyChange)
    }
}
