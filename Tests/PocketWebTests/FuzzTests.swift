import Conference
import Converter
import Foundation
import Hummingbird
import HummingbirdTesting
import Murals
import Plates
import PocketCore
import Remote
import Testing
@testable import PocketWeb

/// Nothing a request can send crashes Pocket or breaks a person's data (issue #23): every JSON
/// and form endpoint of every app gets ten thousand requests of random and boundary values, signed
/// in with a real session and a valid token (so the handlers themselves run), through the real
/// router. Afterwards every screen still opens and still takes a change.
@Suite("Fuzzing every endpoint")
struct FuzzTests {
    /// How many requests are sent.
    static let requestCount = 10_000

    @Test func tenThousandRandomRequestsNeverCrashPocketOrBreakAScreen() async throws {
        let people = try PeopleDatabase.inMemory()
        let owner = try await people.addPerson(name: "owner", password: "correct horse battery", isOwner: true)
        let apps = try await Self.apps()
        let renderer = try PageRenderer(resources: WebResources.bundled())
        let router = buildRouter(renderer: renderer, apps: apps, people: WebPeople(store: people, setupToken: RandomToken.make()))
        try await Application(router: router).test(.router) { client in
            var random = SplitMix64(seed: 23)
            var serverErrors: [String] = []
            var session = try await Self.signIn(owner, people)
            for index in 0..<Self.requestCount {
                let request = Self.request(&random, device: session.device, at: ChangeTime.milliseconds(Date()))
                var headers: HTTPFields = [.contentType: request.contentType, .accept: request.accept]
                if random.next(below: 20) > 0 {
                    headers[.cookie] = session.cookie
                    headers[.csrfToken] = session.token
                }
                let response = try await client.execute(uri: request.uri, method: request.method, headers: headers, body: ByteBuffer(string: request.body))
                if response.status.code >= 500 {
                    serverErrors.append("#\(index) \(request.method) \(request.uri) \(request.body.prefix(200)) → \(response.status.code)")
                }
                // A route that signs the device out (or changes its password) ends the session: sign in again.
                if response.status == .unauthorized || response.headers[.clearSiteData] != nil {
                    session = try await Self.signIn(owner, people)
                }
            }
            #expect(serverErrors.isEmpty, "\(serverErrors.count) answers were server errors: \(serverErrors.prefix(10).joined(separator: "\n"))")
            // Every screen still opens for the person, and still takes a change.
            let last = try await Self.signIn(owner, people)
            for uri in ["/", "/plates", "/plates/trips", "/plates/map", "/remote/tv", "/remote/dvr", "/converter", "/murals", "/murals/trail", "/conference", "/settings"] {
                let status = try await client.execute(uri: uri, method: .get, headers: [.cookie: last.cookie, .accept: "text/html"]) { $0.status }
                #expect(status == .ok, "\(uri)")
            }
            let spot = try await client.execute(
                uri: "/plates/changes", method: .post,
                headers: [.cookie: last.cookie, .csrfToken: last.token, .contentType: "application/json"],
                body: ByteBuffer(string: outboxChange("after-fuzz", at: ChangeTime.milliseconds(Date()), device: last.device, #"{"kind":"spot","state":"WY"}"#)))
            #expect(spot.status == .ok)
        }
    }

    // MARK: - Requests

    private struct FuzzRequest {
        let method: HTTPRequest.Method
        let uri: String
        let contentType: String
        let accept: String
        let body: String
    }

    /// The routes that take a body, with their path parameters left as `{}`.
    private static let formRoutes = [
        "/plates/states/{}/spot", "/plates/states/{}/unspot", "/plates/reset", "/plates/trips", "/plates/settings",
        "/remote/tv/power", "/remote/tv/volume", "/remote/tv/digit/{}", "/remote/tv/channel/up", "/remote/tv/channel/down",
        "/remote/tv/favourite/{}", "/remote/favourites", "/remote/dvr/power", "/remote/dvr/press/{}", "/remote/dvr/force/{}", "/remote/reset",
        "/murals/mural/{}/favourite", "/murals/visited", "/murals/visited/clear", "/converter",
        "/conference/talks/{}/bookmark", "/signin", "/setup/{}", "/join", "/join/{}", "/settings/pair", "/settings/people",
        "/settings/people/{}/remove", "/settings/password", "/settings/devices/{}/signout", "/signout", "/design",
    ]
    private static let jsonRoutes = ["/plates/changes", "/murals/changes", "/converter/state"]
    private static let getRoutes = [
        "/plates/states/{}", "/plates/trips/{}", "/plates/states/{}/unspot", "/murals/mural/{}", "/murals/mural/{}/images/{}", "/murals?{}",
        "/murals/trail.json?{}", "/conference/talks/{}", "/conference/conferences/{}", "/conference/speakers/{}", "/conference/citations/{}/{}/{}",
        "/conference/search?q={}", "/converter?{}", "/join/{}", "/remote/events?since={}", "/plates/images/{}",
    ]

    private static let numbers = [
        "0", "-0", "1", "-1", "50", "99", "100", "2147483647", "2147483648", "-2147483649", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "1e308", "1e309", "-1e309", "NaN", "Infinity", "0.1", "1.5", "0x35", "1_000", "٣", "", " 7 ",
    ]
    private static let words = [
        "", "AL", "al", "ZZ", "spot", "unspot", "reset", "newTrip", "favourite", "unfavourite", "play", "pause", "record", "owner",
        "<script>alert(1)</script>", "\"'><img src=x>", "../../etc/passwd", "%00", "%zz", "%", "+", "&", "=", "\u{0}", "\u{1b}[2J",
        "😀", "e\u{301}", String(repeating: "A", count: 300), "on", "off", "true", "false", "null", "{}", "[]",
    ]

    private static func request(_ random: inout SplitMix64, device: String, at now: Int64) -> FuzzRequest {
        switch random.next(below: 10) {
        case 0..<4:
            let body = jsonChange(&random, device: device, now: now)
            return FuzzRequest(method: .post, uri: pick(jsonRoutes, &random), contentType: "application/json", accept: "application/json", body: body)
        case 4..<8:
            let route = fill(pick(formRoutes, &random), &random)
            return FuzzRequest(method: .post, uri: route, contentType: "application/x-www-form-urlencoded", accept: "text/html", body: form(&random))
        default:
            return FuzzRequest(method: .get, uri: fill(pick(getRoutes, &random), &random), contentType: "text/plain", accept: "text/html", body: "")
        }
    }

    private static func pick<T>(_ items: [T], _ random: inout SplitMix64) -> T {
        items[random.next(below: items.count)]
    }

    /// A path with each `{}` replaced by a number or a word, percent-encoded as a browser would.
    private static func fill(_ route: String, _ random: inout SplitMix64) -> String {
        var path = route
        while let slot = path.range(of: "{}") {
            let value = random.next(below: 2) == 0 ? pick(numbers, &random) : pick(words, &random)
            path.replaceSubrange(slot, with: value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "x")
        }
        return path
    }

    private static func form(_ random: inout SplitMix64) -> String {
        let names = ["name", "password", "confirm", "current", "code", "state", "latitude", "longitude", "return", "location", "muted",
                     "favourite", "path", "key", "category", "from", "to", "convention", "swap", "volume", "labels", "channels", "bookmark",
                     "person", "owner", "message", "_csrf", "next", "value", "digit"]
        return (0..<random.next(below: 6)).map { _ in
            let value = random.next(below: 2) == 0 ? pick(numbers, &random) : pick(words, &random)
            let encoded = random.next(below: 4) == 0 ? value : (value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            return "\(pick(names, &random))=\(encoded)"
        }.joined(separator: "&")
    }

    /// An outbox change: mostly a well-formed envelope with wild fields, sometimes not JSON at all.
    private static func jsonChange(_ random: inout SplitMix64, device: String, now: Int64) -> String {
        let times: [String] = ["\(now)", "\(now - 1)", "\(now + 600_000)", "\(now + 600_001)", "0", "-1", "946684800000", "946684799999",
                               "253402300800000", "1e15", "-1e15", "9223372036854775807", "-9223372036854775808", "1.5", "\"soon\"", "null"]
        let bodies: [String] = [
            #"{"kind":"spot","state":"\#(pick(words, &random))"}"#,
            #"{"kind":"\#(pick(words, &random))","state":"TX","location":{"lat":\#(pick(numbers, &random)),"lon":\#(pick(numbers, &random))}}"#,
            #"{"kind":"newTrip"}"#, #"{"kind":"reset"}"#,
            #"{"kind":"favourite","mural":\#(pick(numbers, &random))}"#,
            #"{"state":{"category":"\#(pick(words, &random))","input":"\#(pick(numbers, &random))","from":"mile","to":"\#(pick(words, &random))"}}"#,
            #"{"state":{"category":"temperature","input":"-1e9999","convention":"binary"}}"#,
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600), "{}", "null", "7",
        ]
        switch random.next(below: 12) {
        case 0: return pick(words, &random)
        case 1: return String(repeating: "x", count: 17 * 1024)
        default:
            let id = random.next(below: 8) == 0 ? pick(words, &random) : "fuzz-\(random.next())"
            let tag = random.next(below: 8) == 0 ? pick(words, &random) : device
            return #"{"id":"\#(id)","at":\#(pick(times, &random)),"device":"\#(tag)","body":\#(pick(bodies, &random))}"#
        }
    }

    // MARK: - Parts

    private struct Session {
        let cookie: String
        let token: String
        let device: String
    }

    /// A new signed-in device of `person`, its stored session real (as a browser's).
    private static func signIn(_ person: Person, _ people: PeopleDatabase) async throws -> Session {
        let device = try await people.addDevice(for: person.id, userAgent: "fuzz")
        let key = RandomToken.make()
        let value = try JSONEncoder().encode(DeviceSession(deviceID: device.id))
        try await people.storeSession(key: WebPeople.sessionKeyPrefix + key, value: value, expires: Date().addingTimeInterval(3600), deviceID: device.id)
        return Session(cookie: "\(WebPeople.cookieName)=\(key)", token: device.csrfToken, device: device.tag)
    }

    /// Every app, on in-memory stores, their outside services on a closed loopback port.
    private static func apps() async throws -> [any PocketApp] {
        let dead = try #require(URL(string: "http://127.0.0.1:9/"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(UUID().uuidString)", isDirectory: true)
        let catalog = try StateCatalog.bundled()
        let plates = PlatesApp(database: try PlatesDatabase.inMemory(catalog: catalog), catalog: catalog,
                               images: PlateImageCache(folder: folder.appendingPathComponent("plates"), fetcher: LiveHTTPFetcher(), base: dead, patience: .seconds(1)))
        let store = try MuralsDatabase.inMemory()
        _ = try await store.apply(MuralsSamples.three, fetchedAt: Date(), wasIncremental: false)
        let service = MuralsService(endpoint: dead.appendingPathComponent("data2.php"), imageBase: dead.appendingPathComponent("images/"))
        let muralsApp = MuralsApp(store: store, service: service, imageFolder: folder.appendingPathComponent("murals"), timeout: .seconds(1), leaflet: nil)
        let conference = ConferenceApp(library: try await ConferenceLibrary.open(folder: folder.appendingPathComponent("conference")),
                                       manifestURL: dead.appendingPathComponent("sci-core.json"), talkTextBase: dead)
        return [conference, RemoteApp(store: try RemoteDatabase.inMemory()), muralsApp, ConverterApp(database: try ConverterDatabase.inMemory()), plates]
    }
}
