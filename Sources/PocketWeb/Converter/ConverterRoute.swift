import Converter
import Hummingbird

/// Every route of the Converter app, registering handlers and building links from one place.
///
/// The whole screen is one form: every change (a key, a wheel, a category, the convention, swap)
/// is a POST of that form to the screen's own address, which answers 303 back to it.
enum ConverterRoute: Equatable {
    /// The converter screen.
    case screen
    /// Where the screen's form posts a change.
    case change
    /// The unit catalog as JSON for the browser's engine (`CatalogExport`).
    case catalog
    /// Where the phone saves its whole converter state as JSON (`ConverterSync`).
    case state

    /// The prefix every Converter URL starts with.
    static let prefix = "/converter"

    /// The pattern below the app's prefix, as registered.
    var pattern: RouterPath {
        switch self {
        case .screen, .change: return ""
        case .catalog: return "catalog.json"
        case .state: return "state"
        }
    }

    /// The link to this route.
    var href: String {
        switch self {
        case .screen, .change: return Self.prefix
        case .catalog: return Self.prefix + "/catalog.json?v=" + CatalogExport.version
        case .state: return Self.prefix + "/state"
        }
    }
}
