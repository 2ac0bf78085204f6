import Converter
import Hummingbird

/// Every route of the Converter app, registering handlers and building links from one place.
///
/// The whole screen is one form: every change (a key, a wheel, a category, the convention, swap)
/// is a POST of that form to the screen's own address, which answers 303 back to it.
enum ConverterRoute: AppRoute, Equatable {
    /// The converter screen.
    case screen
    /// Where the screen's form posts a change.
    case change
    /// The unit catalog as JSON for the browser's engine (`CatalogExport`).
    case catalog
    /// Where the phone saves its whole converter state as JSON (`ConverterChanges`).
    case state

    /// The prefix every Converter URL starts with.
    static let prefix = "/converter"

    /// Each path of the app, spelled once, below its prefix.
    enum Path: String, RoutePath {
        /// The screen, and where its form posts.
        case screen = ""
        case catalog = "catalog.json"
        case state
    }

    var path: Path {
        switch self {
        case .screen, .change: .screen
        case .catalog: .catalog
        case .state: .state
        }
    }

    /// The catalog's link names its version, so a phone never keeps an old one.
    var query: String {
        self == .catalog ? "?v=" + CatalogExport.version : ""
    }
}
