import Foundation
import Testing
import PocketCore

/// Distances checked against values computed separately (Python, same mean radius).
@Suite("Geo coordinates and distance text")
struct GeoCoordinateTests {
    @Test func haversineMatchesIndependentValues() {
        let walkStart = GeoCoordinate(latitude: 53.43779399530351, longitude: -3.043695185336325)
        let iSeeTheSea = GeoCoordinate(latitude: 53.43881250167621, longitude: -3.0416222190640183)
        #expect(abs(walkStart.distance(to: iSeeTheSea) - 177.9881445302882) < 1e-6)
        #expect(abs(iSeeTheSea.distance(to: walkStart) - 177.9881445302882) < 1e-6)
        // One degree of latitude at the equator, and London to Paris.
        #expect(abs(GeoCoordinate(latitude: 0, longitude: 0).distance(to: .init(latitude: 1, longitude: 0)) - 111_195.0802335329) < 1e-6)
        let london = GeoCoordinate(latitude: 51.5074, longitude: -0.1278)
        let paris = GeoCoordinate(latitude: 48.8566, longitude: 2.3522)
        #expect(abs(london.distance(to: paris) - 343_556.5348808832) < 1e-5)
        #expect(london.distance(to: london) == 0)
    }

    @Test func antipodesAreHalfTheCircumference() {
        let a = GeoCoordinate(latitude: 0, longitude: 0)
        let b = GeoCoordinate(latitude: 0, longitude: 180)
        #expect(abs(a.distance(to: b) - .pi * GeoCoordinate.earthRadius) < 1e-6)
    }

    @Test(arguments: [
        (Double.nan, 0.0), (0, .infinity), (90.000001, 0), (-91, 0), (0, 180.5), (0, -181),
    ])
    func validationRejects(latitude: Double, longitude: Double) {
        #expect(GeoCoordinate.validated(latitude: latitude, longitude: longitude) == nil)
    }

    @Test func validationAcceptsTheEdges() {
        #expect(GeoCoordinate.validated(latitude: 90, longitude: -180) == GeoCoordinate(latitude: 90, longitude: -180))
        #expect(GeoCoordinate.validated(latitude: 53.4, longitude: -3.04)?.latitude == 53.4)
    }

    @Test func codableRoundTrip() throws {
        let point = GeoCoordinate(latitude: 53.43825119763536, longitude: -3.0416635234189)
        let data = try JSONEncoder().encode(point)
        #expect(try JSONDecoder().decode(GeoCoordinate.self, from: data) == point)
    }

    @Test(arguments: [
        (0.0, "0 m"), (-5, "0 m"), (Double.nan, "0 m"), (0.4, "0 m"), (0.6, "1 m"), (62.47, "62 m"), (120, "120 m"),
        (999.4, "999 m"), (999.6, "1.0 km"), (1000, "1.0 km"), (1234, "1.2 km"), (1250, "1.3 km"), (9949, "9.9 km"),
        (9950, "10 km"), (12_400, "12 km"), (343_556, "344 km"),
    ])
    func distanceText(metres: Double, expected: String) {
        #expect(DistanceText.string(metres: metres) == expected)
    }
}

@Suite("Decimal text")
struct DecimalTextTests {
    @Test func onlyPlainDecimalsAreNumbers() {
        #expect(DecimalText.number("53.4430") == 53.443)
        #expect(DecimalText.number("-3.05") == -3.05)
        #expect(DecimalText.number("+7") == 7)
        #expect(DecimalText.number(".5") == 0.5)
        #expect(DecimalText.number("1e-05") == 0.00001)
        #expect(DecimalText.number("2.5E3") == 2500)
        for text in ["0x35", "0X35", "0x1p3", "nan", "inf", "-infinity", "", "-", ".", "1.2.3", " 5", "5 ", "1-2", "٣", "1e", "e5", "1e2.5", "1e2e3"] {
            #expect(DecimalText.number(text) == nil, "\(text)")
        }
    }
}
