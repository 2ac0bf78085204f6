import Foundation
import Hummingbird
import PocketCore
import TestSupport
@testable import Murals

/// A real murals service on loopback: `GET /nbm/data2.php?class=newbrighton_murals[&lastModified=YYYY-MM-DD]`
/// answers with the records changed on or after that date, and `/nbm_images/<file>` serves pictures.
/// It can misbehave on purpose (malformed body, error status, stall).
final class MuralsFixture: @unchecked Sendable {
    /// How the next feed requests are answered.
    enum Mode: Sendable, Equatable {
        case normal
        /// This body, as JSON, whatever the records.
        case body(String)
        case status(Int)
        /// Answers normally after `seconds`.
        case delay(Double)
    }

    /// One stored record: its JSON text and its `lastModified` for filtering.
    struct Record: Sendable {
        let json: String
        let lastModified: String
    }

    private let lock = NSLock()
    private var records: [Record] = []
    private var mode = Mode.normal
    private var seenQueries: [[String: String]] = []
    private var pictures: [String: (Data, String)] = [:]
    private var pictureHits: [String] = []

    /// Replaces the whole data set.
    func setRecords(_ records: [Record]) {
        lock.withLock { self.records = records }
    }

    /// Adds or replaces records by id, as the lecturer's database does on an edit.
    func upsert(_ new: [Record]) {
        lock.withLock {
            for record in new {
                let id = Self.id(of: record)
                if let index = records.firstIndex(where: { Self.id(of: $0) == id && id != nil }) {
                    records[index] = record
                } else {
                    records.append(record)
                }
            }
        }
    }

    func setMode(_ mode: Mode) {
        lock.withLock { self.mode = mode }
    }

    /// The query items of every feed request, in order.
    var queries: [[String: String]] {
        lock.withLock { seenQueries }
    }

    /// Serves a picture at `/nbm_images/<name>`.
    func putPicture(_ name: String, _ data: Data, contentType: String) {
        lock.withLock { pictures[name] = (data, contentType) }
    }

    /// The picture names requested, in order.
    var pictureRequests: [String] {
        lock.withLock { pictureHits }
    }

    /// The service's two routes.
    private func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("nbm/data2.php") { [self] request, _ -> Response in
            var query: [String: String] = [:]
            for (key, value) in request.uri.queryParameters { query[String(key)] = String(value) }
            let (mode, matching) = lock.withLock { () -> (Mode, [Record]) in
                seenQueries.append(query)
                let since = query["lastModified"]
                return (self.mode, records.filter { since == nil || String($0.lastModified.prefix(10)) >= since ?? "" })
            }
            switch mode {
            case .body(let text):
                return Self.json(text)
            case .status(let code):
                return Response(status: .init(code: code), body: .init(byteBuffer: ByteBuffer(string: "<h1>Server error</h1>")))
            case .delay(let seconds):
                try await Task.sleep(for: .seconds(seconds))
            case .normal:
                break
            }
            guard query["class"] == "newbrighton_murals" else { return Self.json(#"{"error":"unknown class"}"#) }
            return Self.json(#"{"newbrighton_murals":["# + matching.map(\.json).joined(separator: ",") + "]}")
        }
        router.get("nbm_images/:name") { [self] _, context -> Response in
            let raw = try context.parameters.require("name")
            let name = raw.removingPercentEncoding ?? raw
            let picture = lock.withLock { () -> (Data, String)? in
                pictureHits.append(name)
                return pictures[name]
            }
            guard let (data, type) = picture else { throw HTTPError(.notFound) }
            return Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }

    /// Runs `body` with the fixture live; `endpoint` is the feed URL with `class=newbrighton_murals`.
    func run(_ body: @Sendable (_ endpoint: URL, _ base: URL) async throws -> Void) async throws {
        try await LoopbackServer.serving(addRoutes) { address in
            guard let endpoint = URL(string: address.absoluteString + "/nbm/data2.php?class=newbrighton_murals"),
                  let base = URL(string: address.absoluteString + "/") else {
                throw HTTPError(.internalServerError, message: "the fixture's address \(address) takes no path")
            }
            try await body(endpoint, base)
        }
    }

    private static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    private static func id(of record: Record) -> String? {
        guard let data = record.json.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["id"] as? String
    }

    /// A record in the service's exact format (every scalar a string; nil artist/info become null).
    static func record(
        id: Int,
        title: String,
        artist: String? = "Some Artist",
        info: String? = "About it.",
        lat: String = "53.4388",
        lon: String = "-3.0416",
        enabled: String = "1",
        lastModified: String = "2022-11-21 12:02:37",
        images: [String] = ["IMG_1.JPG"]
    ) -> Record {
        let object: [String: Any] = [
            "id": String(id),
            "title": title,
            "artist": artist.map { $0 as Any } ?? NSNull(),
            "info": info.map { $0 as Any } ?? NSNull(),
            "thumbnail": "https://cgi.csc.liv.ac.uk/~phil/Teaching/COMP228/nbm_thumbs/\(images.first ?? "none.jpg")",
            "lat": lat,
            "lon": lon,
            "enabled": enabled,
            "lastModified": lastModified,
            "images": images.enumerated().map { ["id": String(id * 100 + $0.offset), "filename": $0.element] },
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return Record(json: String(decoding: data, as: UTF8.self), lastModified: lastModified)
    }
}

/// A settable clock for the synchronizer.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ text: String) {
        current = TestClock.date(text)
    }

    var now: Date {
        lock.withLock { current }
    }

    func set(_ text: String) {
        lock.withLock { current = TestClock.date(text) }
    }

    /// `2024-03-10T00:30:00Z` as a date (whole seconds, so it survives SQLite exactly).
    static func date(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text) ?? Date(timeIntervalSince1970: 0)
    }
}
