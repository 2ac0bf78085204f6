import Foundation

/// A point on the Earth in decimal degrees (WGS 84), as GPS fixes and map services give them.
public struct GeoCoordinate: Sendable, Hashable, Codable {
    /// Degrees north of the equator (negative south), -90…90.
    public var latitude: Double
    /// Degrees east of Greenwich (negative west), -180…180.
    public var longitude: Double

    /// The mean Earth radius (IUGG), in metres, used for every distance Pocket shows.
    public static let earthRadius = 6_371_008.8

    /// A coordinate as given; use `validated` for values from outside.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The coordinate, or nil unless both values are finite and within ±90° / ±180°.
    public static func validated(latitude: Double, longitude: Double) -> GeoCoordinate? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        return GeoCoordinate(latitude: latitude, longitude: longitude)
    }

    /// The great-circle distance in metres (haversine on a sphere of `earthRadius`).
    ///
    /// The haversine form stays accurate for the few-metre distances a walk needs, where the
    /// spherical law of cosines loses its digits.
    public func distance(to other: GeoCoordinate) -> Double {
        let phi1 = latitude * .pi / 180
        let phi2 = other.latitude * .pi / 180
        let deltaPhi = phi2 - phi1
        let deltaLambda = (other.longitude - longitude) * .pi / 180
        let sinPhi = sin(deltaPhi / 2)
        let sinLambda = sin(deltaLambda / 2)
        let h = sinPhi * sinPhi + cos(phi1) * cos(phi2) * sinLambda * sinLambda
        return 2 * Self.earthRadius * asin(min(1, sqrt(h)))
    }
}

/// Distances as a walker reads them: "0 m" … "999 m", then "1.2 km", and "12 km" from 10 km.
public enum DistanceText {
    /// The distance in words; negative or non-finite input is shown as "0 m".
    ///
    /// Below 1 km the value is rounded to whole metres (GPS is not better than that); from 1 km
    /// one decimal, and from 10 km whole kilometres.
    public static func string(metres: Double) -> String {
        guard metres.isFinite, metres > 0 else { return "0 m" }
        let wholeMetres = metres.rounded()
        if wholeMetres < 1000 { return "\(Int(wholeMetres)) m" }
        let tenths = (metres / 100).rounded() / 10
        if tenths < 10 {
            return String(format: "%.1f km", tenths)
        }
        return "\(Int((metres / 1000).rounded())) km"
    }
}
