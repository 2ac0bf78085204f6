import Foundation
import Hummingbird
import PocketCore

/// The visitor's last known position, as the pages carry it: the `murals_at` cookie that
/// murals/app.js keeps current, or `?at=lat,lon` (links work without JavaScript), so the server can
/// order the list before any script runs.
enum MuralsPosition {
    /// The cookie murals/app.js writes on every position change.
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

    /// The cookie's position (murals/app.js keeps it current), else the query's (pages without JavaScript).
    static func from(_ request: Request) -> GeoCoordinate? {
        parse(request.cookies[cookieName]?.value.removingPercentEncoding) ?? parse(request.queryFields["at"])
    }

    /// The wire form, six decimals (about 10 cm).
    static func text(_ coordinate: GeoCoordinate) -> String {
        "\(degrees(coordinate.latitude)),\(degrees(coordinate.longitude))"
    }

    /// One angle with six decimals and a dot, whatever the locale: C's printf, which the process
    /// runs in the "C" locale (always a dot, correctly rounded). `String(format:locale:)` built
    /// ICU number formatters for every call, about half the CPU time of the murals page with 24
    /// murals (issue #14); without a locale it still went through Foundation's format parser,
    /// another 7%. The list writes its angles only when it makes a model, which it keeps
    /// (`MuralsHome.ModelMemo`), and a mural's page writes two: so their texts are not kept.
    static func degrees(_ value: Double) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { buffer in
            let written = withVaList([value]) { vsnprintf(buffer.baseAddress, buffer.count, "%.6f", $0) }
            guard written > 0, written < buffer.count else { return String(format: "%.6f", value) }
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: Int(written)), as: UTF8.self)
        }
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
