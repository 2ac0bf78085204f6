import Foundation
import Plates

/// The trip history: the game being played and every finished one, with dates and scores.
enum PlatesTrips {
    struct Model: Sendable {
        struct Row: Sendable {
            let title: String
            let subtitle: String
            let score: CountText
            let href: String
            let isCurrent: Bool
        }

        let current: Row?
        let finished: [Row]
        let newTrip: Confirmation
        let newTripHref: String
        /// The offline module and the game it is told about, or nil for none.
        var module: PlatesModule?

        init(trips: [TripSummary], total: Int, sounds: Bool, timeZone: TimeZone = .current) {
            let rows = trips.map { summary in
                Row(
                    title: summary.trip.isCurrent ? "Current trip" : Self.day(summary.trip.startedAt, timeZone),
                    subtitle: Self.span(summary.trip, timeZone),
                    score: .tripScore(summary.score, total: total),
                    href: PlatesRoute.trip.href(summary.trip.id),
                    isCurrent: summary.trip.isCurrent
                )
            }
            current = rows.first { $0.isCurrent }
            finished = rows.filter { !$0.isCurrent }
            newTrip = Confirmations.newTrip(score: trips.first { $0.trip.isCurrent }?.score ?? 0, total: total, sounds: sounds)
            newTripHref = PlatesRoute.confirmNewTrip.href()
        }

        static func day(_ date: Date, _ zone: TimeZone) -> String {
            date.formatted(Date.FormatStyle(date: .long, time: .omitted, timeZone: zone).locale(Locale(identifier: "en_GB")))
        }

        static func span(_ trip: Trip, _ zone: TimeZone) -> String {
            let start = trip.startedAt.formatted(Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: zone).locale(Locale(identifier: "en_GB")))
            guard let end = trip.endedAt else { return "Started \(start)" }
            let finish = end.formatted(Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: zone).locale(Locale(identifier: "en_GB")))
            return "\(start) – \(finish)"
        }
    }

    /// One trip's spots, oldest first.
    struct Detail: Sendable {
        struct Row: Sendable {
            let name: String
            let when: String
            let href: String
        }

        let title: String
        let subtitle: String
        let scoreText: String
        let rows: [Row]

        init(summary: TripSummary, spots: [Spot], catalog: StateCatalog, timeZone: TimeZone = .current) {
            title = summary.trip.isCurrent ? "Current Trip" : Model.day(summary.trip.startedAt, timeZone)
            subtitle = Model.span(summary.trip, timeZone)
            scoreText = CountText.tripScore(summary.score, total: catalog.count).text
            rows = spots.compactMap { spot in
                catalog.state(code: spot.stateCode).map { state in
                    Row(
                        name: state.name,
                        when: spot.spottedAt.formatted(Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: timeZone).locale(Locale(identifier: "en_GB"))),
                        href: PlatesRoute.state.href(state.code)
                    )
                }
            }
        }
    }
}
