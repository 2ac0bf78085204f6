import Converter
import Hummingbird

/// The unit converter: registration and every route, listed once.
public struct ConverterApp: PocketApp {
    private let store: any ConverterStore

    /// Builds the app on the store that remembers its screen.
    public init(store: any ConverterStore) {
        self.store = store
    }

    /// The home screen tile: `/converter`.
    public var descriptor: AppDescriptor {
        AppDescriptor(
            id: "converter", name: "Converter", icon: "icons/apps/converter.svg",
            summary: "Exact unit conversions: data, temperature, length and more")
    }

    /// The screen (GET) and the one form every change posts (POST), both at `/converter`.
    public func addRoutes(to group: RouterGroup<PocketRequestContext>, environment: WebEnvironment) {
        let pages = ConverterPages(store: store, renderer: environment.renderer)
        group.get(ConverterRoute.screen.pattern, use: pages.screen)
        group.post(ConverterRoute.change.pattern, use: pages.change)
    }
}
