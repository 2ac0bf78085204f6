import Foundation
import PocketCore

/// A walk from the user past every chosen mural.
public struct Trail: Sendable, Equatable {
    /// The murals in walking order.
    public let stops: [Mural]
    /// The start followed by each stop's position.
    public let path: [GeoCoordinate]
    /// The length of `path` in metres (straight lines between stops).
    public let metres: Double

    /// Creates a trail.
    public init(stops: [Mural], path: [GeoCoordinate], metres: Double) {
        self.stops = stops
        self.path = path
        self.metres = metres
    }
}

/// Plans an open walk (it need not return to the start) through murals.
public enum TrailPlanner {
    /// Nearest neighbour from `start`, then improved by 2-opt with the start kept first.
    ///
    /// 2-opt only ever accepts a shorter walk, so the result is never longer than the nearest
    /// neighbour walk. Up to 400 stops every pair of legs is tried; beyond that each leg is
    /// only tried against the next 150, so planning thousands of murals stays fast.
    public static func plan(from start: GeoCoordinate, through murals: [Mural]) -> Trail {
        var order = nearestNeighbourOrder(from: start, through: murals)
        improve(&order, start: start, murals: murals)
        return trail(start: start, murals: murals, order: order)
    }

    /// The nearest neighbour walk alone (the starting point of `plan`).
    public static func nearestNeighbour(from start: GeoCoordinate, through murals: [Mural]) -> Trail {
        trail(start: start, murals: murals, order: nearestNeighbourOrder(from: start, through: murals))
    }

    /// The length in metres of a path of straight legs.
    public static func length(of path: [GeoCoordinate]) -> Double {
        zip(path, path.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }

    /// The ids of murals within `metres` of the walked path (of its legs, not just its fixes,
    /// since GPS fixes a few seconds apart can straddle a mural).
    public static func visited(along path: [GeoCoordinate], murals: [Mural], within metres: Double = 25) -> Set<Int> {
        guard let first = path.first else { return [] }
        var ids: Set<Int> = []
        for mural in murals {
            let target = mural.coordinate
            if path.count == 1 {
                if first.distance(to: target) <= metres { ids.insert(mural.id) }
                continue
            }
            for (a, b) in zip(path, path.dropFirst()) where segmentDistance(from: target, a: a, b: b) <= metres {
                ids.insert(mural.id)
                break
            }
        }
        return ids
    }

    /// Metres from `point` to the leg `a`–`b`, on a local flat projection (exact enough below a few km).
    public static func segmentDistance(from point: GeoCoordinate, a: GeoCoordinate, b: GeoCoordinate) -> Double {
        let radius = GeoCoordinate.earthRadius
        let scale = cos(point.latitude * .pi / 180)
        func project(_ c: GeoCoordinate) -> (x: Double, y: Double) {
            ((c.longitude - point.longitude) * .pi / 180 * radius * scale, (c.latitude - point.latitude) * .pi / 180 * radius)
        }
        let pa = project(a), pb = project(b)
        let dx = pb.x - pa.x, dy = pb.y - pa.y
        let lengthSquared = dx * dx + dy * dy
        var t = lengthSquared > 0 ? -(pa.x * dx + pa.y * dy) / lengthSquared : 0
        t = min(1, max(0, t))
        let x = pa.x + t * dx, y = pa.y + t * dy
        return (x * x + y * y).squareRoot()
    }
}

// MARK: - Private

private extension TrailPlanner {
    static let fullSearchLimit = 400
    static let window = 150
    static let maxPasses = 50

    /// A point on the unit sphere: the chord between two is monotonic in their great-circle
    /// distance, and much cheaper than haversine in the inner loops.
    struct UnitVector {
        let x: Double, y: Double, z: Double

        init(_ c: GeoCoordinate) {
            let phi = c.latitude * .pi / 180, lambda = c.longitude * .pi / 180
            x = cos(phi) * cos(lambda)
            y = cos(phi) * sin(lambda)
            z = sin(phi)
        }

        func metres(to other: UnitVector) -> Double {
            let dx = x - other.x, dy = y - other.y, dz = z - other.z
            let chord = (dx * dx + dy * dy + dz * dz).squareRoot()
            return 2 * GeoCoordinate.earthRadius * asin(min(1, chord / 2))
        }

        func chordSquared(to other: UnitVector) -> Double {
            let dx = x - other.x, dy = y - other.y, dz = z - other.z
            return dx * dx + dy * dy + dz * dz
        }
    }

    /// Indices into `murals`, nearest unvisited first; ties go to the earlier mural.
    static func nearestNeighbourOrder(from start: GeoCoordinate, through murals: [Mural]) -> [Int] {
        let points = murals.map { UnitVector($0.coordinate) }
        var remaining = Array(points.indices)
        var order: [Int] = []
        order.reserveCapacity(points.count)
        var here = UnitVector(start)
        while !remaining.isEmpty {
            var best = 0
            var bestDistance = Double.infinity
            for (slot, index) in remaining.enumerated() {
                let distance = here.chordSquared(to: points[index])
                if distance < bestDistance {
                    bestDistance = distance
                    best = slot
                }
            }
            let next = remaining.remove(at: best)
            order.append(next)
            here = points[next]
        }
        return order
    }

    /// 2-opt on an open path whose first node (the start) stays put: reversing stops i…j
    /// replaces legs (i-1, i) and (j, j+1) with (i-1, j) and (i, j+1); the last stop has no
    /// outgoing leg, so reversing a tail costs only one new leg.
    static func improve(_ order: inout [Int], start: GeoCoordinate, murals: [Mural]) {
        guard order.count >= 2 else { return }
        // Node 0 is the start; node k > 0 is stop order[k - 1].
        var nodes = [UnitVector(start)] + order.map { UnitVector(murals[$0].coordinate) }
        var indices = [-1] + order
        let count = nodes.count
        let reach = count - 1 <= fullSearchLimit ? count : window
        for _ in 0..<maxPasses {
            var improved = false
            for i in 1..<(count - 1) {
                let before = nodes[i - 1], first = nodes[i]
                let removedFirst = before.metres(to: first)
                for j in (i + 1)..<min(count, i + 1 + reach) {
                    let last = nodes[j]
                    var delta = before.metres(to: last) - removedFirst
                    if j + 1 < count {
                        let after = nodes[j + 1]
                        delta += first.metres(to: after) - last.metres(to: after)
                    }
                    if delta < -1e-7 {
                        nodes[i...j].reverse()
                        indices[i...j].reverse()
                        improved = true
                        break
                    }
                }
            }
            if !improved { break }
        }
        order = Array(indices.dropFirst())
    }

    static func trail(start: GeoCoordinate, murals: [Mural], order: [Int]) -> Trail {
        let stops = order.map { murals[$0] }
        let path = [start] + stops.map(\.coordinate)
        return Trail(stops: stops, path: path, metres: length(of: path))
    }
}
