import Foundation
import Murals
import PocketCore

/// The main screen: the map, the location controls, the All / Favourites filter and the list of
/// murals ordered by distance from the visitor (or from New Brighton before any position is known).
enum MuralsHome {
    struct Model: Sendable, Hashable {
        struct Cell: Sendable, Hashable {
            let id: Int
            let title: String
            let artist: String
            let distanceText: String
            let metres: String
            let latitude: String
            let longitude: String
            let href: String
            let thumbnailURL: String?
            let favourite: MuralsFavouriteForm
            let visited: Bool
        }

        struct FilterOption: Sendable, Hashable {
            let value: String
            let label: String
            let id: String
            let checked: Bool
        }

        let cells: [Cell]
        let emptyText: String
        let filters: [FilterOption]
        let filterAction: String
        let showsFavourites: Bool
        let filterValue: String
        let hasPosition: Bool
        let positionParam: String
        let distanceCaption: String
        let countText: String
        let status: MuralsSyncStatus
        let map: MuralsMapConfig
        let refreshAction: String
        let returnTo: String
        let trailHref: String
        let trailJSON: String
        let walkJSON: String
        let visitedAction: String
        let keepList: String
        let changesAction: String
        let startLatitude: String
        let startLongitude: String

        /// The model of `inputs` (see `Inputs`).
        init(_ inputs: Inputs) {
            self.init(murals: inputs.murals, favourites: inputs.favourites, visited: inputs.visited, position: inputs.position,
                      filter: inputs.filter, status: inputs.status, map: inputs.map, start: inputs.start)
        }

        init(
            murals: [Mural],
            favourites: Set<Int>,
            visited: Set<Int>,
            position: GeoCoordinate?,
            filter: MuralsFilter,
            status: MuralsSyncStatus,
            map: MuralsMapConfig,
            start: GeoCoordinate
        ) {
            let origin = position ?? NewBrighton.centre
            let shown = filter == .favourites ? murals.filter { favourites.contains($0.id) } : murals
            let query = Self.query(filter: filter, position: position)
            let returnTo = MuralsRoute.main.href() + query
            self.returnTo = returnTo
            cells = MuralOrdering.byDistance(shown, from: origin).map { entry in
                let mural = entry.mural
                return Cell(
                    id: mural.id,
                    title: mural.title,
                    artist: MuralsText.artist(mural.artist),
                    distanceText: DistanceText.string(metres: entry.metres),
                    metres: String(Int(entry.metres.rounded())),
                    latitude: MuralsPosition.degrees(mural.coordinate.latitude),
                    longitude: MuralsPosition.degrees(mural.coordinate.longitude),
                    href: MuralsRoute.mural.href(mural.id),
                    thumbnailURL: mural.thumbnail == nil ? nil : MuralsRoute.thumbnail.href(mural.id),
                    favourite: MuralsFavouriteForm(muralID: mural.id, title: mural.title, isFavourite: favourites.contains(mural.id), returnTo: returnTo),
                    visited: visited.contains(mural.id)
                )
            }
            if filter == .favourites {
                emptyText = "No favourites yet. Tap a mural’s star to keep it here."
            } else if status.isOffline {
                emptyText = "No murals are saved yet, and the murals service can’t be reached. Try Refresh when you are online."
            } else {
                emptyText = "No murals are saved yet. Pocket fetches them from the murals service; try Refresh."
            }
            filters = MuralsFilter.allCases.map {
                FilterOption(value: $0.rawValue, label: $0.label, id: "murals-filter-\($0.rawValue)", checked: $0 == filter)
            }
            filterAction = MuralsRoute.main.href()
            showsFavourites = filter == .favourites
            filterValue = filter.rawValue
            hasPosition = position != nil
            positionParam = position.map(MuralsPosition.text) ?? ""
            distanceCaption = position == nil ? "Distances from the centre of New Brighton" : "Distances from you"
            countText = cells.count == 1 ? "1 mural" : "\(cells.count) murals"
            self.status = status
            self.map = map
            refreshAction = MuralsRoute.refresh.href()
            trailHref = MuralsRoute.trail.href() + query
            trailJSON = MuralsRoute.trailJSON.href()
            walkJSON = MuralsRoute.walk.href()
            visitedAction = MuralsRoute.visited.href()
            keepList = MuralsRoute.offlineList.href()
            changesAction = MuralsRoute.changes.href()
            startLatitude = MuralsPosition.degrees(start.latitude)
            startLongitude = MuralsPosition.degrees(start.longitude)
        }

        /// `?show=favourites&at=…`, or nothing for the defaults.
        static func query(filter: MuralsFilter, position: GeoCoordinate?) -> String {
            var items: [String] = []
            if filter != .all { items.append("show=\(filter.rawValue)") }
            if let position { items.append("at=\(MuralsPosition.text(position))") }
            return items.isEmpty ? "" : "?" + items.joined(separator: "&")
        }
    }
}

/// A favourite star: a real form POST (works without JavaScript), which murals/app.js sends in place.
struct MuralsFavouriteForm: Sendable, Hashable {
    /// The mural, for murals/stars.js (which so never reads an id out of `action`).
    let muralID: Int
    /// The mural's page, whose saved copy murals/stars.js reads again once a change is sent.
    let page: String
    let action: String
    let isFavourite: Bool
    let newValue: String
    let label: String
    let returnTo: String

    init(muralID: Int, title: String, isFavourite: Bool, returnTo: String) {
        self.muralID = muralID
        page = MuralsRoute.mural.href(muralID)
        action = MuralsRoute.favourite.href(muralID)
        self.isFavourite = isFavourite
        newValue = isFavourite ? "0" : "1"
        label = isFavourite ? "Remove \(title) from favourites" : "Add \(title) to favourites"
        self.returnTo = returnTo
    }
}

/// Words the Murals screens share.
enum MuralsText {
    /// The artist, or "Unknown artist" when the service has none. Trimmed in Swift: Foundation's
    /// `trimmingCharacters` went through `NSString` and UTF-16, 6% of the list's CPU time.
    static func artist(_ artist: String?) -> String {
        let trimmed = artist.map(WhiteSpace.trimmed) ?? ""
        return trimmed.isEmpty ? "Unknown artist" : trimmed
    }

    /// "today at 14:03", "yesterday at 09:10" or "3 March 2026 at 18:45".
    ///
    /// The date is the last sync's, the same on every request until the next sync, while ICU's
    /// formatters and the calendar cost 4% of the murals page (issue #14): so `days` keeps its
    /// texts and the bounds of its day, the next and the one after, and each request only
    /// compares `now` with them (tests pass none: each call works the date out).
    static func when(_ date: Date, now: Date, timeZone: TimeZone, days: SyncDays = SyncDays(keeping: false)) -> String {
        let day = days.of(date, in: timeZone)
        if day.start <= now && now < day.next { return "today at \(day.time)" }
        if day.next <= now && now < day.afterNext { return "yesterday at \(day.time)" }
        return "\(day.long) at \(day.time)"
    }

    /// Sync dates' texts and day bounds already worked out, by date and time zone (a few: one per sync).
    final class SyncDays: Sendable {
        private struct Key: Hashable, Sendable {
            let date: Date
            let timeZone: TimeZone
        }

        private let known: BoundedMemo<Key, SyncDay>

        /// An empty memo; one not `keeping` works each date out again (the page benchmark's pass-through).
        init(keeping: Bool = true) {
            known = BoundedMemo(capacity: 64, keeping: keeping)
        }

        /// `date`'s texts and day bounds in `timeZone`.
        fileprivate func of(_ date: Date, in timeZone: TimeZone) -> SyncDay {
            known.value(for: Key(date: date, timeZone: timeZone)) { SyncDay.make(date, in: timeZone) }
        }
    }

    /// One date's texts and the days around it, in one time zone.
    fileprivate struct SyncDay: Sendable {
        let time: String
        let long: String
        /// The start of the date's day, of the next day and of the day after: the date is
        /// "today" from `start` to `next` and "yesterday" from `next` to `afterNext`.
        let start: Date
        let next: Date
        let afterNext: Date

        static func make(_ date: Date, in timeZone: TimeZone) -> SyncDay {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let locale = Locale(identifier: "en_GB")
            let start = calendar.startOfDay(for: date)
            let next = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
            return SyncDay(
                time: date.formatted(Date.FormatStyle(date: .omitted, time: .shortened, timeZone: timeZone).locale(locale)),
                long: date.formatted(Date.FormatStyle(date: .long, time: .omitted, timeZone: timeZone).locale(locale)),
                start: start,
                next: next,
                afterNext: calendar.date(byAdding: .day, value: 1, to: next) ?? next.addingTimeInterval(86_400)
            )
        }
    }
}

/// The quiet line above the map: when the murals were last updated, or that Pocket is offline.
struct MuralsSyncStatus: Sendable, Hashable {
    let isOffline: Bool
    let offlineText: String
    let updatedText: String
    let isDemo: Bool
    let demoText: String
    let problem: String

    init(state: MuralsSyncState, isDemo: Bool, days: MuralsText.SyncDays, now: Date = Date(), timeZone: TimeZone = .current) {
        isOffline = state.lastError != nil
        offlineText = state.muralCount > 0 ? "Offline — showing saved murals" : "Offline — no murals saved yet"
        updatedText = state.lastSuccess.map { "Updated \(MuralsText.when($0, now: now, timeZone: timeZone, days: days))" } ?? "Not updated yet"
        self.isDemo = isDemo
        demoText = "Demo data"
        problem = state.lastError ?? ""
    }
}

/// What the map needs: the Leaflet files (or none), the tile server and where to start.
struct MuralsMapConfig: Sendable, Hashable {
    /// Leaflet's files, when the library is installed.
    struct Library: Sendable, Hashable {
        let script: String
        let stylesheet: String
    }

    let library: Library?
    let tiles: String
    /// The tile shown where the map has none, online or kept (the service worker shows the same).
    let placeholder: String
    let module: String
    let centreLatitude: String
    let centreLongitude: String
    let missingText: String

    init(leaflet: LeafletAssets?, tiles: String, placeholder: String, module: String, centre: GeoCoordinate) {
        library = leaflet.map { Library(script: $0.url("leaflet.js"), stylesheet: $0.url("leaflet.css")) }
        self.tiles = tiles
        self.placeholder = placeholder
        self.module = module
        centreLatitude = MuralsPosition.degrees(centre.latitude)
        centreLongitude = MuralsPosition.degrees(centre.longitude)
        missingText = "The map library (Leaflet) is not installed on this server, so there is no map; the list below still works."
    }
}
