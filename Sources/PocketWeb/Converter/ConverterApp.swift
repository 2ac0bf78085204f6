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
        group.add(endpoints(environment: environment))
    }

    /// Every route of the app with its handler.
    func endpoints(environment: WebEnvironment) -> [Endpoint] {
        let pages = ConverterPages(database: database, renderer: environment.renderer, screens: PageMemo(environment.caches))
        return [
            ConverterRoute.screen.handle(pages.screen), ConverterRoute.change.handle(pages.change),
            ConverterRoute.catalog.handle(pages.catalog), ConverterRoute.state.handle(pages.applyChange),
        ]
    }
}
