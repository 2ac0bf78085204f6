import Foundation
import PocketCore
import Testing
@testable import Murals

/// Distances compared with values computed separately (Python haversine, radius 6,371,008.8 m).
@Suite("Distance ordering and trails")
struct OrderingAndTrailTests {
    static let iSeeTheSea = mural(1, "I See The Sea", GeoCoordinate(latitude: 53.43881250167621, longitude: -3.0416222190640183))

    static func mural(_ id: Int, _ title: String, _ coordinate: GeoCoordinate) -> Mural {
        Mural(id: id, title: title, artist: nil, info: nil, thumbnail: nil, coordinate: coordinate, isEnabled: true, lastModified: "", images: [])
    }

    /// A point `east` and `north` metres from New Brighton's centre (flat, fine at this scale).
    static func offset(east: Double, north: Double) -> GeoCoordinate {
        let metresPerDegree = GeoCoordinate.earthRadius * .pi / 180
        let centre = NewBrighton.centre
        return GeoCoordinate(
            latitude: centre.latitude + north / metresPerDegree,
            longitude: centre.longitude + east / (metresPerDegree * cos(centre.latitude * .pi / 180))
        )
    }

    @Test func ordersByKnownHaversineDistances() throws {
        let walkStart = try #require(try GPX.bundledWalk().first?.coordinate)
        let far = Self.mural(2, "Eye", GeoCoordinate(latitude: 53.4406, longitude: -3.0353))
        let ordered = MuralOrdering.byDistance([far, Self.iSeeTheSea], from: walkStart)
        #expect(ordered.map(\.mural.id) == [1, 2])
        #expect(abs(ordered[0].metres - 177.9881445302882) < 1e-6)
        #expect(DistanceText.string(metres: ordered[0].metres) == "178 m")
        let fromCentre = MuralOrdering.byDistance([Self.iSeeTheSea], from: NewBrighton.centre)
        #expect(abs(fromCentre[0].metres - 62.47418192064374) < 1e-6)
        // Moving along the walk changes the order.
        let nearFar = MuralOrdering.byDistance([Self.iSeeTheSea, far], from: far.coordinate)
        #expect(nearFar.map(\.mural.id) == [2, 1])
        #expect(nearFar[0].metres == 0)
    }

    @Test func tiesAreBrokenByTitleThenID() {
        let spot = Self.offset(east: 50, north: 0)
        let murals = [Self.mural(9, "Beta", spot), Self.mural(3, "Alpha", spot), Self.mural(2, "Beta", spot), Self.mural(1, "Zed", Self.offset(east: 10, north: 0))]
        #expect(MuralOrdering.byDistance(murals, from: NewBrighton.centre).map(\.mural.id) == [1, 3, 2, 9])
    }

    @Test func emptyAndSingleTrails() {
        let empty = TrailPlanner.plan(from: NewBrighton.centre, through: [])
        #expect(empty == Trail(stops: [], path: [NewBrighton.centre], metres: 0))
        let one = TrailPlanner.plan(from: NewBrighton.centre, through: [Self.iSeeTheSea])
        #expect(one.stops.map(\.id) == [1])
        #expect(abs(one.metres - 62.47418192064374) < 1e-6)
    }

    @Test func twoOptUndoesTheCrossingNearestNeighbourMakes() {
        // Metres east/north of the start. Nearest neighbour goes C, B, A, D and its last leg
        // crosses its first; the best order is A, B, C, D (checked by brute force in Python).
        let a = Self.mural(1, "A", Self.offset(east: -40, north: 50))
        let b = Self.mural(2, "B", Self.offset(east: 70, north: 70))
        let c = Self.mural(3, "C", Self.offset(east: 50, north: 20))
        let d = Self.mural(4, "D", Self.offset(east: 100, north: -60))
        let greedy = TrailPlanner.nearestNeighbour(from: NewBrighton.centre, through: [a, b, c, d])
        #expect(greedy.stops.map(\.id) == [3, 2, 1, 4])
        #expect(abs(greedy.metres - 397.55) < 0.1)
        #expect(Self.crossings(greedy.path) > 0)
        let planned = TrailPlanner.plan(from: NewBrighton.centre, through: [a, b, c, d])
        #expect(planned.stops.map(\.id) == [1, 2, 3, 4])
        #expect(abs(planned.metres - 324.03) < 0.1)
        #expect(Self.crossings(planned.path) == 0)
        #expect(planned.path == [NewBrighton.centre] + planned.stops.map(\.coordinate))
    }

    @Test func twoOptIsNeverLongerThanNearestNeighbour() {
        var generator = SplitMix64(seed: 42)
        var strictlyBetter = 0
        for round in 0..<60 {
            let count = 3 + round % 25
            let murals = (0..<count).map { index in
                Self.mural(index + 1, "M\(index)", Self.offset(east: generator.unit() * 800 - 400, north: generator.unit() * 800 - 400))
            }
            let start = Self.offset(east: generator.unit() * 200, north: generator.unit() * 200)
            let greedy = TrailPlanner.nearestNeighbour(from: start, through: murals)
            let planned = TrailPlanner.plan(from: start, through: murals)
            #expect(planned.metres <= greedy.metres + 1e-6)
            #expect(Set(planned.stops.map(\.id)) == Set(murals.map(\.id)))
            #expect(planned.path.first == start)
            #expect(abs(planned.metres - TrailPlanner.length(of: planned.path)) < 1e-6)
            if planned.metres < greedy.metres - 1e-6 { strictlyBetter += 1 }
            if count <= 400 { #expect(Self.crossings(planned.path) == 0) }
        }
        #expect(strictlyBetter > 10)
    }

    // Above 400 stops 2-opt only compares nearby legs; the result must still visit every mural once
    // and never be longer than nearest neighbour. (How fast it is belongs in bench/, not here.)
    @Test func plansThousandsOfMurals() {
        let murals = DemoMuralService.murals(count: 2_000)
        let trail = TrailPlanner.plan(from: NewBrighton.centre, through: murals)
        #expect(trail.stops.count == 2_000)
        #expect(Set(trail.stops.map(\.id)).count == 2_000)
        #expect(trail.metres <= TrailPlanner.nearestNeighbour(from: NewBrighton.centre, through: murals).metres + 1e-6)
    }

    @Test func theRealWalkPassesISeeTheSea() throws {
        let walk = try GPX.bundledWalk().map(\.coordinate)
        let farAway = Self.mural(2, "Far", Self.offset(east: 2000, north: 0))
        #expect(TrailPlanner.visited(along: walk, murals: [Self.iSeeTheSea, farAway]) == [1])
        // The nearest fix is 12.96 m away; the path between fixes passes a little closer.
        #expect(TrailPlanner.visited(along: walk, murals: [Self.iSeeTheSea], within: 10).isEmpty)
        #expect(TrailPlanner.visited(along: walk, murals: [Self.iSeeTheSea], within: 13) == [1])
    }

    @Test func visitsCountTheLegsBetweenFixes() {
        let west = Self.offset(east: -50, north: 0), east = Self.offset(east: 50, north: 0)
        let beside = Self.mural(1, "Beside the leg", Self.offset(east: 0, north: 10))
        let beyondTheEnd = Self.mural(2, "Past the end", Self.offset(east: 80, north: 0))
        #expect(TrailPlanner.visited(along: [west, east], murals: [beside, beyondTheEnd]) == [1])
        #expect(abs(TrailPlanner.segmentDistance(from: beside.coordinate, a: west, b: east) - 10) < 0.01)
        #expect(abs(TrailPlanner.segmentDistance(from: beyondTheEnd.coordinate, a: west, b: east) - 30) < 0.01)
        #expect(TrailPlanner.visited(along: [west], murals: [beside]).isEmpty)
        #expect(TrailPlanner.visited(along: [beside.coordinate], murals: [beside]) == [1])
        #expect(TrailPlanner.visited(along: [], murals: [beside]).isEmpty)
    }

    /// Proper crossings between non-adjacent legs, on a local flat projection.
    static func crossings(_ path: [GeoCoordinate]) -> Int {
        let points = path.map { ($0.longitude * cos(NewBrighton.centre.latitude * .pi / 180), $0.latitude) }
        func side(_ p: (Double, Double), _ q: (Double, Double), _ r: (Double, Double)) -> Double {
            (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
        }
        var count = 0
        for i in 0..<max(0, points.count - 1) {
            for j in (i + 2)..<max(i + 2, points.count - 1) {
                let (a, b, c, d) = (points[i], points[i + 1], points[j], points[j + 1])
                if side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0 { count += 1 }
            }
        }
        return count
    }
}
