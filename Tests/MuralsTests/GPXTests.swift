import Foundation
import PocketCore
import Testing
@testable import Murals

/// The parser on the real walk (facts from Resources/SOURCES.md) and on broken files.
@Suite("GPX")
struct GPXTests {
    @Test func parsesTheRealWalk() throws {
        let walk = try GPX.bundledWalk()
        #expect(walk.count == 313)
        #expect(walk.first?.coordinate == GeoCoordinate(latitude: 53.43779399530351, longitude: -3.043695185336325))
        #expect(walk.first?.elevation == 23.69693374633789)
        #expect(walk.first?.time == TestClock.date("2022-11-30T09:35:19Z"))
        #expect(walk.last?.coordinate == GeoCoordinate(latitude: 53.437755008205706, longitude: -3.0436636464571145))
        #expect(walk.last?.time == TestClock.date("2022-11-30T09:46:00Z"))
        #expect(walk.allSatisfy { $0.time != nil && $0.elevation != nil && $0.name == nil })
        // Times only move forward, about every 2 s.
        let times = walk.compactMap(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        let latitudes = walk.map(\.coordinate.latitude), longitudes = walk.map(\.coordinate.longitude)
        #expect((latitudes.min() ?? 0) >= 53.43741 && (latitudes.min() ?? 0) < 53.43743)
        #expect((latitudes.max() ?? 0) > 53.43970 && (latitudes.max() ?? 0) <= 53.43972)
        #expect((longitudes.min() ?? 0) >= -3.04370 && (longitudes.min() ?? 0) < -3.04369)
        #expect((longitudes.max() ?? 0) > -3.04075 && (longitudes.max() ?? 0) <= -3.04074)
        // A loop of about 935 m whose ends are 4.8 m apart.
        let path = walk.map(\.coordinate)
        #expect(abs(TrailPlanner.length(of: path) - 935.5187006310574) < 0.01)
        #expect(abs(path[0].distance(to: path[312]) - 4.8122765138669115) < 0.001)
    }

    @Test func parsesTheStartPointAndMatchesTheCentre() throws {
        let start = try GPX.bundledStart()
        #expect(start.coordinate == NewBrighton.centre)
        #expect(start.name == "103-107 Victoria Road, New Brighton")
        #expect(start.time == TestClock.date("2022-11-15T12:01:46Z"))
        #expect(start.elevation == nil)
    }

    @Test func readsTrackAndRoutePointsWithNamesButNotOtherNames() throws {
        let xml = """
            <?xml version="1.0"?>
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
              <metadata><name>Not a point</name></metadata>
              <rte><name>Route</name><rtept lat="53.1" lon="-3.1"><name>R1</name></rtept></rte>
              <trk><name>Track</name><trkseg>
                <trkpt lat="53.2" lon="-3.2"><ele>5</ele><time>2022-11-30T09:35:19.250Z</time>
                  <extensions><name>ignored</name></extensions></trkpt>
                <trkpt lat=" 53.3 " lon="-3.3"/>
              </trkseg></trk>
            </gpx>
            """
        let points = try GPX.parse(Data(xml.utf8))
        #expect(points.map(\.coordinate.latitude) == [53.1, 53.2, 53.3])
        #expect(points.map(\.name) == ["R1", nil, nil])
        #expect(points[1].elevation == 5)
        #expect(points[1].time == Date(timeIntervalSince1970: 1_669_800_919.25))
    }

    @Test(arguments: [
        ("<gpx><wpt lat=\"53\" lon=\"-3\"></gpx>", "invalid XML"),
        ("not xml at all", "invalid XML"),
        ("", ""), // libxml2 and Darwin's parser word an empty file differently
        ("<kml><Placemark/></kml>", "it is not a GPX document (the root is <kml>)"),
        ("<gpx><wpt lon=\"-3\"/></gpx>", "point 1 (line 1) has no lat/lon"),
        ("<gpx><wpt lat=\"north\" lon=\"-3\"/></gpx>", "point 1 (line 1) has an invalid position “north, -3”"),
        ("<gpx><wpt lat=\"95\" lon=\"-3\"/></gpx>", "point 1 (line 1) has an invalid position “95, -3”"),
        ("<gpx><wpt lat=\"53\" lon=\"-3\"><time>yesterday</time></wpt></gpx>", "point 1 has an invalid time “yesterday”"),
        ("<gpx><wpt lat=\"53\" lon=\"-3\"><ele>high</ele></wpt></gpx>", "point 1 has an invalid elevation “high”"),
    ])
    func malformedFilesThrowAClearError(xml: String, expected: String) {
        let error = #expect(throws: MuralsError.self) { try GPX.parse(Data(xml.utf8)) }
        guard case .malformedGPX(let detail) = error else {
            Issue.record("expected malformedGPX, got \(String(describing: error))")
            return
        }
        #expect(detail.hasPrefix(expected))
    }

    @Test func anEmptyGPXHasNoPoints() throws {
        #expect(try GPX.parse(Data("<gpx version=\"1.1\"></gpx>".utf8)).isEmpty)
    }
}
