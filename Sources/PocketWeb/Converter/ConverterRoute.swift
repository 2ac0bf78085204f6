import Converter
import Hummingbird

/// Every route of the Converter app, each declared once; `ConverterPages.endpoints` gives each its
/// handler, and links are built from the same values.
///
/// The whole screen is one form: every change (a key, a wheel, a category, the convention, swap)
/// is a POST of that form to the screen's own address, which answers 303 back to it.
enum ConverterRoute {
    /// The prefix every Converter URL starts with.
    static let prefix = "/converter"

    /// The converter screen.
    static let screen = Route(.get, "", under: prefix)
    /// Where the screen's form posts a change.
    static let change = Route(.post, "", under: prefix)
    /// The unit catalog as JSON for the browser's engine (`CatalogExport`).
    static let catalog = Route(.get, "catalog.json", under: prefix)
    /// Where the phone saves its whole converter state as JSON (`ConverterChanges`).
    static let state = Route(.post, "state", under: prefix)

    /// The catalog's link names its version, so a phone never keeps an old one.
    static var catalogHref: String { catalog.href() + "?v=" + CatalogExport.version }
}
