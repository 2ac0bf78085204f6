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

    @Test func prefixedNamesAndOtherEncodingsAreRead() throws {
        let prefixed = """
            <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1"><g:wpt lat="53.4" lon="-3.0"><g:name>Prefixed</g:name></g:wpt></g:gpx>
            """
        #expect(try GPX.parse(Data(prefixed.utf8)).map(\.name) == ["Prefixed"])
        let latin1 = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><gpx><wpt lat=\"53\" lon=\"-3\"><name>Caf\u{E9}</name></wpt></gpx>"
        #expect(try GPX.parse(try #require(latin1.data(using: .isoLatin1))).map(\.name) == ["Caf\u{E9}"])
        let utf16 = "<gpx><wpt lat=\"53\" lon=\"-3\"><name>Caf\u{E9} \u{2615}</name></wpt></gpx>"
        #expect(try GPX.parse(try #require(utf16.data(using: .utf16))).map(\.name) == ["Caf\u{E9} \u{2615}"])
    }

    @Test func aFileLargerThanOneReadIsReadWhole() throws {
        // Expat is handed 1 MiB at a time: points on both sides of the boundaries must all arrive.
        let point = "<trkpt lat=\"53.4\" lon=\"-3.0\"><name>a point with a name long enough to fill the file</name></trkpt>\n"
        let count = 3 * (1 << 20) / point.utf8.count
        let xml = "<gpx><trk><trkseg>" + String(repeating: point, count: count) + "</trkseg></trk></gpx>"
        let points = try GPX.parse(Data(xml.utf8))
        #expect(points.count == count)
        #expect(Set(points.compactMap(\.name)) == ["a point with a name long enough to fill the file"])
    }

    @Test func entitiesNeitherReachOutsideNorExplode() throws {
        // An external entity is never fetched: the name stays empty rather than holding a file.
        let external = """
            <?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY secret SYSTEM "file:///etc/hostname">]>
            <gpx><wpt lat="53" lon="-3"><name>&secret;</name></wpt></gpx>
            """
        #expect(try GPX.parse(Data(external.utf8)).map(\.name) == [nil])
        // Ten levels of ten references would expand to 10^10 copies: refused, with a clear error.
        var entities = "<!ENTITY e0 \"lol\">"
        for level in 1...10 {
            entities += "<!ENTITY e\(level) \"" + String(repeating: "&e\(level - 1);", count: 10) + "\">"
        }
        let laughs = "<?xml version=\"1.0\"?><!DOCTYPE gpx [\(entities)]><gpx><wpt lat=\"53\" lon=\"-3\"><name>&e10;</name></wpt></gpx>"
        let error = #expect(throws: MuralsError.self) { try GPX.parse(Data(laughs.utf8)) }
        guard case .malformedGPX(let detail) = error else {
            Issue.record("expected malformedGPX, got \(String(describing: error))")
            return
        }
        #expect(detail.hasPrefix("invalid XML at line 1 ("))
        #expect(detail.contains("amplification"))
    }
}
