import Foundation
import Murals
import PocketCore

/// The walking trail from the visitor through the shown murals, as a page (without JavaScript)
/// and as JSON for the map's polyline.
enum MuralsTrail {
    struct Stop: Sendable {
        let number: Int
        let title: String
        let artist: String
        let href: String
        let legText: String
        let visited: Bool
    }

    struct Model: Sendable {
        let stops: [Stop]
        let lengthText: String
        let summary: String
        let startCaption: String
        let clearAction: String
        let hasVisited: Bool
        let returnTo: String

        init(trail: Trail, start: GeoCoordinate, hasPosition: Bool, visited: Set<Int>, filter: MuralsFilter, returnTo: String) {
            var previous = start
            stops = trail.stops.enumerated().map { offset, mural in
                let leg = previous.distance(to: mural.coordinate)
                previous = mural.coordinate
                return Stop(
                    number: offset + 1,
                    title: mural.title,
                    artist: MuralsText.artist(mural.artist),
                    href: MuralsRoute.mural.href(mural.id),
                    legText: "+ \(DistanceText.string(metres: leg))",
                    visited: visited.contains(mural.id)
                )
            }
            lengthText = DistanceText.string(metres: trail.metres)
            summary = Self.summary(trail: trail, filter: filter)
            startCaption = hasPosition ? "Starts where you are." : "Starts at the centre of New Brighton (no location yet)."
            clearAction = MuralsRoute.clearVisited.href()
            hasVisited = !visited.isEmpty
            self.returnTo = returnTo
        }

        /// "Trail: 2.3 km through 12 murals".
        static func summary(trail: Trail, filter: MuralsFilter) -> String {
            let count = trail.stops.count
            let what = filter == .favourites ? (count == 1 ? "favourite" : "favourites") : (count == 1 ? "mural" : "murals")
            return "Trail: \(DistanceText.string(metres: trail.metres)) through \(count) \(what)"
        }
    }

    /// The JSON murals/app.js draws: the path as [lat, lon] pairs, the stops' ids and the length.
    struct Payload: Encodable, Sendable {
        let metres: Double
        let lengthText: String
        let summary: String
        let stops: [Int]
        let path: [[Double]]

        init(trail: Trail, filter: MuralsFilter) {
            metres = trail.metres.rounded()
            lengthText = DistanceText.string(metres: trail.metres)
            summary = Model.summary(trail: trail, filter: filter)
            stops = trail.stops.map(\.id)
            path = trail.path.map { [$0.latitude, $0.longitude] }
        }
    }
}

/// The bundled walk as JSON for the replay: each point with its seconds since the first.
struct MuralsWalkPayload: Encodable, Sendable {
    struct Point: Encodable, Sendable {
        let lat: Double
        let lon: Double
        let t: Double
    }

    let start: Point
    let points: [Point]

    init(walk: [GPXPoint], start: GPXPoint) {
        let first = walk.first?.time
        var last = 0.0
        points = walk.enumerated().map { index, point in
            // Points without a time (none in the bundled walk) are spaced two seconds apart.
            let t = point.time.flatMap { time in first.map { time.timeIntervalSince($0) } } ?? (index == 0 ? 0 : last + 2)
            last = t
            return Point(lat: point.coordinate.latitude, lon: point.coordinate.longitude, t: t)
        }
        self.start = Point(lat: start.coordinate.latitude, lon: start.coordinate.longitude, t: 0)
    }
}
