import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PocketCore

/// One fix of a GPX file: a waypoint, track point or route point.
public struct GPXPoint: Sendable, Equatable {
    /// Where it is.
    public let coordinate: GeoCoordinate
    /// Metres above sea level (`<ele>`), when given.
    public let elevation: Double?
    /// When it was recorded (`<time>`), when given.
    public let time: Date?
    /// Its name (`<name>`), when given.
    public let name: String?

    /// Creates a point.
    public init(coordinate: GeoCoordinate, elevation: Double? = nil, time: Date? = nil, name: String? = nil) {
        self.coordinate = coordinate
        self.elevation = elevation
        self.time = time
        self.name = name
    }
}

/// Reads GPX 1.0/1.1 files with a real XML parser.
public enum GPX {
    /// The bundled walk around New Brighton.
    public static let walkResource = "NewBrightonMuralsWalk"
    /// The bundled single start point.
    public static let startResource = "NewBrighton_single_point"

    /// Every `<wpt>`, `<trkpt>` and `<rtept>` in document order.
    public static func parse(_ data: Data) throws(MuralsError) -> [GPXPoint] {
        let reader = GPXReader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        let parsed = parser.parse()
        if let problem = reader.problem { throw .malformedGPX(problem) }
        guard parsed else {
            let detail = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unknown XML error"
            throw .malformedGPX("invalid XML at line \(parser.lineNumber) (\(detail))")
        }
        guard reader.sawRoot else { throw .malformedGPX("it is not a GPX document (no <gpx> element)") }
        return reader.points
    }

    /// The lecturer's simulated walk (313 timed fixes, 2022-11-30 09:35:19Z–09:46:00Z).
    public static func bundledWalk() throws(MuralsError) -> [GPXPoint] {
        try parse(bundled(walkResource))
    }

    /// The simulator's fixed start location on Victoria Road.
    public static func bundledStart() throws(MuralsError) -> GPXPoint {
        guard let point = try parse(bundled(startResource)).first else {
            throw .malformedGPX("\(startResource).gpx has no point")
        }
        return point
    }

    /// The bytes of a bundled GPX file.
    public static func bundled(_ name: String) throws(MuralsError) -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: "gpx", subdirectory: "Resources")
            ?? Bundle.module.url(forResource: name, withExtension: "gpx"),
            let data = try? Data(contentsOf: url) else {
            throw .missingResource("\(name).gpx")
        }
        return data
    }
}

/// Fixed places in New Brighton.
public enum NewBrighton {
    /// The bundled start point (103–107 Victoria Road), where the map centres without a location.
    /// Kept in sync with `NewBrighton_single_point.gpx` by a test.
    public static let centre = GeoCoordinate(latitude: 53.43825119763536, longitude: -3.0416635234189)
}

// MARK: - Private

/// Collects points while `XMLParser` walks the document.
private final class GPXReader: NSObject, XMLParserDelegate {
    private(set) var points: [GPXPoint] = []
    private(set) var problem: String?
    private(set) var sawRoot = false
    private var current: (coordinate: GeoCoordinate, elevation: Double?, time: Date?, name: String?)?
    private var text = ""
    private var depthInPoint = 0
    private static let pointElements: Set<String> = ["wpt", "trkpt", "rtept"]
    private let plainTimes = ISO8601DateFormatter()
    private let fractionalTimes: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        let name = Self.localName(elementName)
        if !sawRoot {
            guard name == "gpx" else {
                fail(parser, "it is not a GPX document (the root is <\(name)>)")
                return
            }
            sawRoot = true
        }
        if current != nil {
            depthInPoint += 1
            text = ""
            return
        }
        guard Self.pointElements.contains(name) else { return }
        let number = points.count + 1
        guard let latText = attributes["lat"], let lonText = attributes["lon"] else {
            fail(parser, "point \(number) (line \(parser.lineNumber)) has no lat/lon")
            return
        }
        guard let latitude = DecimalText.number(latText.trimmingCharacters(in: .whitespaces)),
              let longitude = DecimalText.number(lonText.trimmingCharacters(in: .whitespaces)),
              let coordinate = GeoCoordinate.validated(latitude: latitude, longitude: longitude) else {
            fail(parser, "point \(number) (line \(parser.lineNumber)) has an invalid position “\(latText), \(lonText)”")
            return
        }
        current = (coordinate, nil, nil, nil)
        depthInPoint = 0
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        // libxml2 recovers from some errors (an unclosed tag) and still reports success.
        if problem == nil {
            problem = "invalid XML at line \(parser.lineNumber) (\((parseError as NSError).localizedDescription))"
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if current != nil { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard let point = current else { return }
        let name = Self.localName(elementName)
        if depthInPoint == 0 {
            guard Self.pointElements.contains(name) else {
                fail(parser, "invalid XML at line \(parser.lineNumber) (<\(name)> closes an open point)")
                return
            }
            points.append(GPXPoint(coordinate: point.coordinate, elevation: point.elevation, time: point.time, name: point.name))
            current = nil
            return
        }
        // Only the point's own children count (an <extensions> block may nest other names).
        if depthInPoint == 1 {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            switch name {
            case "ele":
                guard let elevation = DecimalText.number(value), elevation.isFinite else {
                    fail(parser, "point \(points.count + 1) has an invalid elevation “\(value)”")
                    return
                }
                current?.elevation = elevation
            case "time":
                guard let time = date(value) else {
                    fail(parser, "point \(points.count + 1) has an invalid time “\(value)”")
                    return
                }
                current?.time = time
            case "name":
                current?.name = value.isEmpty ? nil : value
            default:
                break
            }
        }
        depthInPoint -= 1
        text = ""
    }

    private func fail(_ parser: XMLParser, _ message: String) {
        if problem == nil { problem = message }
        parser.abortParsing()
    }

    private static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    /// GPX times are ISO 8601 in UTC, with or without fractional seconds.
    private func date(_ text: String) -> Date? {
        plainTimes.date(from: text) ?? fractionalTimes.date(from: text)
    }
}
