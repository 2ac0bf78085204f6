import Foundation
import PocketCore
import PocketExpat

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

/// Reads GPX 1.0/1.1 files with a real XML parser (expat).
public enum GPX {
    /// The bundled walk around New Brighton.
    public static let walkResource = "NewBrightonMuralsWalk"
    /// The bundled single start point.
    public static let startResource = "NewBrighton_single_point"

    /// Every `<wpt>`, `<trkpt>` and `<rtept>` in document order.
    public static func parse(_ data: Data) throws(MuralsError) -> [GPXPoint] {
        let reader = GPXReader()
        try reader.read(data)
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

/// Collects points while expat walks the document, one event at a time.
///
/// Expat reads UTF-8, UTF-16, ISO-8859-1 and US-ASCII documents, never fetches an external entity
/// (no handler for them is set) and limits how far internal entities may expand.
private final class GPXReader {
    private(set) var points: [GPXPoint] = []
    private(set) var problem: String?
    private(set) var sawRoot = false
    private var current: (coordinate: GeoCoordinate, elevation: Double?, time: Date?, name: String?)?
    private var text: [UInt8] = []
    private var depthInPoint = 0
    private var parser: XML_Parser?
    private static let pointElements: Set<String> = ["wpt", "trkpt", "rtept"]
    /// What separates a namespace from a local name in the names expat reports.
    private static let namespaceSeparator = XML_Char(UInt8(ascii: " "))
    /// The most bytes handed to expat at once (its lengths are `Int32`).
    private static let chunk = 1 << 20
    private let plainTimes = ISO8601DateFormatter()
    private let fractionalTimes: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()

    /// Parses `data` to the end or to the first problem, which `problem` then describes.
    func read(_ data: Data) throws(MuralsError) {
        guard let parser = XML_ParserCreateNS(nil, Self.namespaceSeparator) else {
            throw .malformedGPX("the XML parser could not start (out of memory)")
        }
        self.parser = parser
        defer {
            self.parser = nil
            XML_ParserFree(parser)
        }
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        XML_SetElementHandler(parser, { context, name, attributes in
            guard let context, let name else { return }
            GPXReader.from(context).start(String(cString: name), attributes: GPXReader.attributes(attributes))
        }, { context, name in
            guard let context, let name else { return }
            GPXReader.from(context).end(String(cString: name))
        })
        XML_SetCharacterDataHandler(parser, { context, characters, length in
            guard let context, let characters, length > 0 else { return }
            GPXReader.from(context).characters(UnsafeRawBufferPointer(start: characters, count: Int(length)))
        })
        let parsed = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
            var offset = 0
            repeat {
                let length = min(Self.chunk, bytes.count - offset)
                let final: XML_Bool = offset + length == bytes.count ? XML_Bool(XML_TRUE) : XML_Bool(XML_FALSE)
                let start = bytes.baseAddress.map { $0.advanced(by: offset).assumingMemoryBound(to: CChar.self) }
                guard XML_Parse(parser, start, Int32(length), Int32(final)) == XML_STATUS_OK else { return false }
                offset += length
            } while offset < bytes.count
            return true
        }
        if let problem { throw .malformedGPX(problem) }
        guard parsed else {
            let detail = XML_ErrorString(XML_GetErrorCode(parser)).map { String(cString: $0) } ?? "unknown XML error"
            throw .malformedGPX("invalid XML at line \(lineNumber) (\(detail))")
        }
        guard sawRoot else { throw .malformedGPX("it is not a GPX document (no <gpx> element)") }
    }

    private func start(_ qualifiedName: String, attributes: [String: String]) {
        let name = Self.localName(qualifiedName)
        if !sawRoot {
            guard name == "gpx" else {
                fail("it is not a GPX document (the root is <\(name)>)")
                return
            }
            sawRoot = true
        }
        if current != nil {
            depthInPoint += 1
            text = []
            return
        }
        guard Self.pointElements.contains(name) else { return }
        let number = points.count + 1
        guard let latText = attributes["lat"], let lonText = attributes["lon"] else {
            fail("point \(number) (line \(lineNumber)) has no lat/lon")
            return
        }
        guard let latitude = DecimalText.number(latText.trimmingCharacters(in: .whitespaces)),
              let longitude = DecimalText.number(lonText.trimmingCharacters(in: .whitespaces)),
              let coordinate = GeoCoordinate.validated(latitude: latitude, longitude: longitude) else {
            fail("point \(number) (line \(lineNumber)) has an invalid position “\(latText), \(lonText)”")
            return
        }
        current = (coordinate, nil, nil, nil)
        depthInPoint = 0
    }

    private func characters(_ bytes: UnsafeRawBufferPointer) {
        if current != nil { text.append(contentsOf: bytes) }
    }

    private func end(_ qualifiedName: String) {
        guard let point = current else { return }
        let name = Self.localName(qualifiedName)
        if depthInPoint == 0 {
            points.append(GPXPoint(coordinate: point.coordinate, elevation: point.elevation, time: point.time, name: point.name))
            current = nil
            return
        }
        // Only the point's own children count (an <extensions> block may nest other names).
        if depthInPoint == 1 {
            let value = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            switch name {
            case "ele":
                guard let elevation = DecimalText.number(value), elevation.isFinite else {
                    fail("point \(points.count + 1) has an invalid elevation “\(value)”")
                    return
                }
                current?.elevation = elevation
            case "time":
                guard let time = date(value) else {
                    fail("point \(points.count + 1) has an invalid time “\(value)”")
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
        text = []
    }

    /// Records the first problem and stops the parser: `XML_Parse` then returns an error.
    private func fail(_ message: String) {
        if problem == nil { problem = message }
        if let parser { XML_StopParser(parser, XML_Bool(XML_FALSE)) }
    }

    private var lineNumber: UInt {
        parser.map { UInt(XML_GetCurrentLineNumber($0)) } ?? 0
    }

    private static func from(_ context: UnsafeMutableRawPointer) -> GPXReader {
        Unmanaged<GPXReader>.fromOpaque(context).takeUnretainedValue()
    }

    /// Expat's attribute list (name, value, name, value, …, NULL) by local name.
    private static func attributes(_ list: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?) -> [String: String] {
        guard let list else { return [:] }
        var attributes: [String: String] = [:]
        var index = 0
        while let name = list[index], let value = list[index + 1] {
            attributes[localName(String(cString: name))] = String(cString: value)
            index += 2
        }
        return attributes
    }

    /// The name after its namespace (`uri name` from expat; `prefix:name` where no namespace was declared).
    private static func localName(_ name: String) -> String {
        let afterNamespace = name.split(separator: " ").last.map(String.init) ?? name
        return afterNamespace.split(separator: ":").last.map(String.init) ?? afterNamespace
    }

    /// GPX times are ISO 8601 in UTC, with or without fractional seconds.
    private func date(_ text: String) -> Date? {
        plainTimes.date(from: text) ?? fractionalTimes.date(from: text)
    }
}
