import Foundation
import Hummingbird
import PocketCore

/// The visitor's last known position, as the pages carry it: the `murals_at` cookie that
/// murals.js keeps current, or `?at=lat,lon` (links work without JavaScript), so the server can
/// order the list before any script runs.
enum MuralsPosition {
    /// The cookie murals.js writes on every position change.
    static let cookieName = "murals_at"

    /// `"53.4379,-3.0437"` as a coordinate, or nil for anything else (outside text is never trusted).
    static func parse(_ text: String?) -> GeoCoordinate? {
        guard let text, text.count <= 64 else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let latitude = DecimalText.number(parts[0].trimmingCharacters(in: .whitespaces)),
              let longitude = DecimalText.number(parts[1].trimmingCharacters(in: .whitespaces))
        else { return nil }
        return GeoCoordinate.validated(latitude: latitude, longitude: longitude)
    }

    /// The cookie's position (murals.js keeps it current), else the query's (pages without JavaScript).
    static func from(_ request: Request) -> GeoCoordinate? {
        parse(request.cookies[cookieName]?.value.removingPercentEncoding) ?? parse(request.queryFields["at"])
    }

    /// The wire form, six decimals (about 10 cm).
    static func text(_ coordinate: GeoCoordinate) -> String {
        "\(degrees(coordinate.latitude)),\(degrees(coordinate.longitude))"
    }

    /// One angle with six decimals and a dot, whatever the locale. Without a `Locale`, `String(format:)`
    /// formats as C's printf does (always a dot, correctly rounded): with one, every call built ICU
    /// number formatters, about half the CPU time of the murals page with 24 murals (issue #14).
    static func degrees(_ value: Double) -> String {
        String(format: "%.6f", value)
    }
}

/// Which murals the main screen shows.
enum MuralsFilter: String, Sendable, CaseIterable {
    case all
    case favourites

    /// The filter a query asks for; anything unknown shows all.
    init(query: String?) {
        self = query.flatMap(MuralsFilter.init(rawValue:)) ?? .all
    }

    /// The segmented control's label.
    var label: String {
        switch self {
        case .all: return "All"
        case .favourites: return "Favourites"
        }
    }
}
