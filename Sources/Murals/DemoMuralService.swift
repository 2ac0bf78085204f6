import Foundation
import PocketCore

/// A built-in stand-in for the murals service: synthetic murals around New Brighton in the exact
/// wire format, with generated pictures. `pocket serve --demo` serves it, and benchmarks use it
/// for large responses. Every mural says it is demo data.
public enum DemoMuralService {
    /// Where demo thumbnails point when no base is given (`.invalid` never resolves, so they
    /// can never be mistaken for real pictures).
    public static let placeholderImageBase: URL = {
        guard let url = URL(string: "https://demo.invalid/nbm_images/") else {
            preconditionFailure("the demo image base is a valid URL literal")
        }
        return url
    }()

    /// The JSON the service would send: `count` murals (ids 1…count) from generator `seed`,
    /// only those changed on or after `since` (`YYYY-MM-DD`) when given; thumbnails are full
    /// URLs under `imageBase`.
    public static func feed(count: Int = 24, since: String? = nil, seed: UInt64 = 1, imageBase: URL? = nil) -> Data {
        let base = imageBase ?? placeholderImageBase
        var records = self.records(count: count, seed: seed, imageBase: base)
        if let since = since?.trimmingCharacters(in: .whitespaces), !since.isEmpty {
            records = records.filter { String(($0.lastModified ?? "").prefix(10)) >= since }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys] // the same bytes on every run
        return (try? encoder.encode(Envelope(newbrighton_murals: records))) ?? Data(#"{"newbrighton_murals":[]}"#.utf8)
    }

    /// The same murals, decoded.
    public static func murals(count: Int = 24, seed: UInt64 = 1) -> [Mural] {
        (try? MuralFeed.decode(feed(count: count, seed: seed)))?.murals ?? []
    }

    /// A generated SVG picture for a demo file name (`demo-<id>-<n>.svg`), or nil for any other name.
    public static func image(named filename: String) -> Data? {
        guard let (id, number) = parse(filename) else { return nil }
        var generator = SplitMix64(seed: UInt64(id) &* 7919 &+ UInt64(number))
        let hue = Int(generator.next() % 360)
        let accent = (hue + 140) % 360
        var shapes = ""
        for _ in 0..<6 {
            let x = generator.next() % 400, y = generator.next() % 300, r = 20 + generator.next() % 70
            shapes += #"<circle cx="\#(x)" cy="\#(y)" r="\#(r)" fill="hsl(\#(accent),70%,60%)" fill-opacity="0.55"/>"#
        }
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300" role="img" aria-label="Demo mural \(id), picture \(number)">\
            <rect width="400" height="300" fill="hsl(\(hue),55%,38%)"/>\(shapes)\
            <rect x="0" y="222" width="400" height="78" fill="#000" fill-opacity="0.55"/>\
            <text x="20" y="258" font-family="sans-serif" font-size="30" font-weight="bold" fill="#fff">Demo</text>\
            <text x="20" y="286" font-family="sans-serif" font-size="18" fill="#fff">Mural \(id) · picture \(number)</text>\
            </svg>
            """
        return Data(svg.utf8)
    }

    /// The MIME type of `image(named:)`.
    public static let imageContentType = "image/svg+xml"
}

// MARK: - Private

private extension DemoMuralService {
    struct Envelope: Encodable {
        // The service's own key spelling.
        // swiftlint:disable:next identifier_name
        let newbrighton_murals: [MuralRecord]
    }

    static let adjectives = ["Neon", "Tidal", "Painted", "Golden", "Windswept", "Electric", "Quiet", "Salt", "Rising", "Lantern", "Copper", "Harbour"]
    static let nouns = ["Gull", "Lighthouse", "Promenade", "Ferry", "Pier", "Dunes", "Mermaid", "Sunset", "Fort", "Kite", "Wave", "Carousel"]
    static let artists = ["Ada Wren", "The Perch Collective", "M. Okafor", "Lena Marsh", "Studio Seacombe", "Tomás Reyes", "J. Whitfield"]

    /// The bundled walk's fixes, so demo murals sit where the walk goes.
    static let anchors: [GeoCoordinate] = {
        let walk = ((try? GPX.bundledWalk()) ?? []).map(\.coordinate)
        return walk.isEmpty ? [NewBrighton.centre] : walk
    }()

    static func records(count: Int, seed: UInt64, imageBase: URL) -> [MuralRecord] {
        guard count > 0 else { return [] }
        var generator = SplitMix64(seed: seed)
        let metresPerDegreeLatitude = 111_195.0
        let metresPerDegreeLongitude = metresPerDegreeLatitude * cos(NewBrighton.centre.latitude * .pi / 180)
        // Murals beyond the first hundred spread wider, so big benchmark sets are not all on the walk.
        return (1...count).map { id in
            let anchor = anchors[(id * 37) % anchors.count]
            let spread = id <= 100 ? 30.0 : 600.0
            let north = (generator.unit() * 2 - 1) * spread, east = (generator.unit() * 2 - 1) * spread
            let latitude = anchor.latitude + north / metresPerDegreeLatitude
            let longitude = anchor.longitude + east / metresPerDegreeLongitude
            let index = id - 1
            var title = "\(adjectives[index % adjectives.count]) \(nouns[(index / adjectives.count) % nouns.count])"
            if id > adjectives.count * nouns.count { title += " \(id)" }
            let day = Int(generator.next() % 91) // 2022-09-01 … 2022-11-30
            let seconds = Int(generator.next() % 86_400)
            let imageCount = 1 + Int(generator.next() % 3)
            let images = (1...imageCount).map { MuralRecord.Image(id: String(id * 10 + $0), filename: "demo-\(id)-\($0).svg") }
            return MuralRecord(
                id: String(id),
                title: title,
                artist: id % 5 == 0 ? nil : artists[index % artists.count],
                info: id % 7 == 0 ? nil : "Demo data: a synthetic mural generated by Pocket, not a real work. Picture \(imageCount == 1 ? "1 of 1" : "1 of \(imageCount)") is a generated placeholder.",
                thumbnail: imageBase.appendingPathComponent("demo-\(id)-1.svg").absoluteString,
                lat: String(latitude),
                lon: String(longitude),
                enabled: "1",
                lastModified: timestamp(day: day, seconds: seconds),
                images: images
            )
        }
    }

    static func timestamp(day: Int, seconds: Int) -> String {
        // Day 0 is 2022-09-01; September has 30 days and October 31.
        let (month, dayOfMonth): (Int, Int) = day < 30 ? (9, day + 1) : day < 61 ? (10, day - 29) : (11, min(30, day - 60))
        return String(format: "2022-%02d-%02d %02d:%02d:%02d", month, dayOfMonth, seconds / 3600, seconds / 60 % 60, seconds % 60)
    }

    static func parse(_ filename: String) -> (Int, Int)? {
        guard filename.hasPrefix("demo-"), filename.hasSuffix(".svg") else { return nil }
        let parts = filename.dropFirst(5).dropLast(4).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let id = Int(parts[0]), let number = Int(parts[1]), id > 0, (1...3).contains(number),
              String(id) == parts[0], String(number) == parts[1] else { return nil }
        return (id, number)
    }
}
