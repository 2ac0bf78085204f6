import ArgumentParser
import AsyncHTTPClient
import Foundation
import Hummingbird
import Murals
import PocketCore
import PocketWeb

/// `pocket-bench murals`: sync from a loopback murals service, ordering by distance, and the
/// list page, each against the goals in issue #4.
struct MuralsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "murals",
        abstract: "Time a full and an incremental murals sync over loopback HTTP, ordering by distance, and the list page."
    )

    @Option(help: ArgumentHelp("Murals in the full feed (default 10000).", valueName: "n"))
    var count = 10_000

    @Option(help: ArgumentHelp("Records changed in each incremental response (default 10).", valueName: "n"))
    var changes = 10

    @Option(help: ArgumentHelp("Full syncs, each into a fresh database (default 5).", valueName: "n"))
    var fullRounds = 5

    @Option(help: ArgumentHelp("Incremental syncs after the last full one (default 50).", valueName: "n"))
    var incrementalRounds = 50

    @Option(help: ArgumentHelp("Murals on the list page (default 1000).", valueName: "n"))
    var pageMurals = 1000

    @Option(help: ArgumentHelp("Timed GET /murals requests (default 100).", valueName: "n"))
    var pageRequests = 100

    func run() async throws {
        guard count > 0, changes > 0, changes <= count, fullRounds > 0, incrementalRounds > 0, pageMurals > 0, pageRequests > 0 else {
            throw ValidationError("every count must be positive, and --changes at most --count")
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pocket-bench-murals-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        let service = try await LoopbackMuralsService.start(counts: [count, pageMurals], changes: changes)
        var table = TextTable("measurement", "runs", "p50 ms", "p99 ms", "max ms", "goal")
        func add(_ name: String, _ samples: Samples, goal: String) {
            table.add(name, String(samples.count), formatMilliseconds(samples.percentile(0.5)),
                      formatMilliseconds(samples.percentile(0.99)), formatMilliseconds(samples.percentile(1)), goal)
        }

        // Full sync: a fresh on-disk database each round.
        var full = Samples()
        var synced: MuralsDatabase?
        for round in 0..<fullRounds {
            let store = try MuralsDatabase.onDisk(at: scratch.appendingPathComponent("full-\(round).sqlite"))
            let synchronizer = MuralsSynchronizer(store: store, fetcher: LiveHTTPFetcher(), endpoint: service.endpoint(count: count))
            let summary = try await full.time { try await synchronizer.sync() }
            guard summary.inserted == count, !summary.wasIncremental else {
                throw BenchFailure(description: "the full sync inserted \(summary.inserted) of \(count) murals")
            }
            synced = store
        }
        add("full sync, \(count) murals", full, goal: "<= 2000")
        try await addFullSyncParts(service: service, scratch: scratch, to: &table)

        // Incremental syncs on the last full database: each response changes `changes` murals.
        guard let synced else { throw BenchFailure(description: "no full sync ran") }
        var incremental = Samples()
        for round in 0..<incrementalRounds {
            let synchronizer = MuralsSynchronizer(store: synced, fetcher: LiveHTTPFetcher(), endpoint: service.endpoint(count: count, round: round))
            let summary = try await incremental.time { try await synchronizer.sync() }
            guard summary.wasIncremental, summary.received == changes, summary.updated == changes else {
                throw BenchFailure(description: "incremental sync \(round) was \(summary)")
            }
        }
        add("incremental sync, \(changes) changes", incremental, goal: "<= 100")

        // Ordering every mural by distance from each fix of the bundled walk.
        let murals = try await synced.murals()
        let walk = try GPX.bundledWalk().map(\.coordinate)
        var ordering = Samples()
        for position in walk {
            let ordered = ordering.measure { MuralOrdering.byDistance(murals, from: position) }
            guard ordered.count == murals.count else { throw BenchFailure(description: "ordering lost murals") }
        }
        add("order \(murals.count) murals by distance", ordering, goal: "")

        // The list page, from the real router on a loopback port, over a database of `pageMurals`.
        let pageStore = try MuralsDatabase.onDisk(at: scratch.appendingPathComponent("page.sqlite"))
        let pageSummary = try await MuralsSynchronizer(store: pageStore, fetcher: LiveHTTPFetcher(), endpoint: service.endpoint(count: pageMurals)).sync()
        guard pageSummary.inserted == pageMurals else { throw BenchFailure(description: "the page database has \(pageSummary.inserted) murals") }
        let page = try await measurePage(store: pageStore, service: service, images: scratch.appendingPathComponent("images"), walk: walk)
        add("GET /murals, \(pageMurals) murals (\(page.bytes / 1000) KB)", page.samples, goal: "")
        var query = Samples()
        for _ in 0..<pageRequests { _ = try await query.time { try await pageStore.murals() } }
        add("  of which MuralsDatabase.murals()", query, goal: "")

        print("Murals benchmarks (\(buildKind))")
        print("date: \(ISO8601DateFormatter().string(from: Date()))")
        print("machine: \(machineDescription())")
        print("feed: DemoMuralService.feed(count: \(count)) = \(service.feedBytes(count: count) / 1000) KB, served by Hummingbird on 127.0.0.1:\(service.port); "
              + "fetched with LiveHTTPFetcher into MuralsDatabase.onDisk")
        print("ordering: MuralOrdering.byDistance from each of the \(walk.count) fixes of the bundled walk")
        print("page: GET /murals?at=<walk fix> on buildRouter's router (MuralsApp over the synced store), AsyncHTTPClient, keep-alive, \(pageRequests) requests after 5 untimed")
        print("")
        print(table.text)
    }

    /// The full sync's three steps timed alone, to show where its time goes: the HTTP fetch,
    /// decoding the JSON, and writing a fresh database.
    private func addFullSyncParts(service: LoopbackMuralsService, scratch: URL, to table: inout TextTable) async throws {
        var fetch = Samples(), decode = Samples(), apply = Samples()
        for round in 0..<fullRounds {
            let resource = try await fetch.time {
                try await LiveHTTPFetcher().fetch(service.endpoint(count: count), maxBytes: 32 << 20, timeout: .seconds(20))
            }
            let feed = try decode.measure { try MuralFeed.decode(resource.data) }
            let store = try MuralsDatabase.onDisk(at: scratch.appendingPathComponent("parts-\(round).sqlite"))
            _ = try await apply.time { try await store.apply(feed.murals, fetchedAt: Date(), wasIncremental: false) }
        }
        for (name, samples) in [("  of which HTTP fetch", fetch), ("  of which MuralFeed.decode", decode), ("  of which MuralsDatabase.apply", apply)] {
            table.add(name, String(samples.count), formatMilliseconds(samples.percentile(0.5)),
                      formatMilliseconds(samples.percentile(0.99)), formatMilliseconds(samples.percentile(1)), "")
        }
    }

    /// Serves the real router with a MuralsApp over `store` on a loopback port and times GET /murals.
    private func measurePage(store: MuralsDatabase, service: LoopbackMuralsService, images: URL,
                             walk: [GeoCoordinate]) async throws -> (samples: Samples, bytes: Int) {
        let app = MuralsApp(
            store: store,
            service: MuralsService(endpoint: service.endpoint(count: pageMurals), imageBase: service.imageBase),
            imageFolder: images,
            leaflet: LeafletAssets.load(from: LeafletAssets.defaultFolder)
        )
        let renderer = try PageRenderer(resources: WebResources.bundled())
        let session = try await BenchSession.make()
        let server = try await LoopbackServer.start(router: buildRouter(renderer: renderer, apps: [app], people: session.people))
        var samples = Samples()
        var bytes = 0
        for index in -5..<pageRequests {
            let fix = walk[(index + walk.count) % walk.count]
            let url = "http://127.0.0.1:\(server.port)/murals?at=\(fix.latitude),\(fix.longitude)"
            let body: Int
            if index < 0 {
                body = try await Self.get(url, cookie: session.cookie)
            } else {
                body = try await samples.time { try await Self.get(url, cookie: session.cookie) }
            }
            bytes = max(bytes, body)
        }
        return (samples, bytes)
    }

    /// GETs `url` and reads the whole body; returns its size.
    private static func get(_ url: String, cookie: String) async throws -> Int {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Cookie", value: cookie)
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 64 << 20)
        guard response.status == .ok else { throw BenchFailure(description: "GET \(url) answered \(response.status.code)") }
        return body.readableBytes
    }
}

/// A stand-in murals service on a loopback port: `data2.php?count=N` answers the full demo feed
/// of N murals; with `lastModified`, it answers `changes` of them retitled and dated today
/// (`round` picks which, so every incremental sync changes other rows).
private struct LoopbackMuralsService {
    let port: Int
    private let feeds: [Int: Data]

    var imageBase: URL { URL(string: "http://127.0.0.1:\(port)/images/") ?? DemoMuralService.placeholderImageBase }

    func endpoint(count: Int, round: Int? = nil) -> URL {
        let extra = round.map { "&round=\($0)" } ?? ""
        return URL(string: "http://127.0.0.1:\(port)/data2.php?class=newbrighton_murals&count=\(count)\(extra)") ?? imageBase
    }

    func feedBytes(count: Int) -> Int {
        feeds[count]?.count ?? 0
    }

    static func start(counts: [Int], changes: Int) async throws -> LoopbackMuralsService {
        var feeds: [Int: Data] = [:]
        var records: [Int: [[String: Any]]] = [:]
        for count in Set(counts) {
            let feed = DemoMuralService.feed(count: count)
            feeds[count] = feed
            let object = try JSONSerialization.jsonObject(with: feed) as? [String: Any]
            records[count] = object?["newbrighton_murals"] as? [[String: Any]] ?? []
        }
        let today = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC") ?? .current,
                                                formatOptions: [.withFullDate, .withSpaceBetweenDateAndTime, .withTime, .withColonSeparatorInTime])
        let fixedFeeds = feeds
        let fixedRecords = records.mapValues { $0.map(Record.init) }
        let router = Router()
        router.get("data2.php") { request, _ -> Response in
            let query = request.uri.queryParameters
            let count = query["count"].flatMap { Int(String($0)) } ?? counts[0]
            guard let feed = fixedFeeds[count], let all = fixedRecords[count] else { return Response(status: .notFound) }
            let body: Data
            if query["lastModified"] != nil {
                let round = query["round"].flatMap { Int(String($0)) } ?? 0
                let changed = (0..<changes).map { offset in
                    all[(round * changes + offset) % all.count].changed(title: " (edit \(round))", lastModified: today)
                }
                body = (try? JSONSerialization.data(withJSONObject: ["newbrighton_murals": changed.map(\.fields)])) ?? Data()
            } else {
                body = feed
            }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        let server = try await LoopbackServer.start(router: router)
        return LoopbackMuralsService(port: server.port, feeds: feeds)
    }

    /// One wire record, kept as JSON fields (the bench changes two and sends the rest back as they were).
    struct Record: @unchecked Sendable {
        let fields: [String: Any]

        init(_ fields: [String: Any]) {
            self.fields = fields
        }

        func changed(title suffix: String, lastModified: String) -> Record {
            var fields = fields
            fields["title"] = (fields["title"] as? String ?? "Mural") + suffix
            fields["lastModified"] = lastModified
            return Record(fields)
        }
    }
}

/// A Hummingbird server on 127.0.0.1 and a free port. It runs until the process ends: cancelling
/// it only adds shutdown noise to the output, and the bench exits right after printing.
private struct LoopbackServer {
    let port: Int

    static func start<Context: RequestContext>(router: Router<Context>) async throws -> LoopbackServer where Context.Source == ApplicationRequestContextSource {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let application = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }
        )
        let task = Task { try await application.runService(gracefulShutdownSignals: []) }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            throw BenchFailure(description: "the loopback server did not start")
        }
        return LoopbackServer(port: port)
    }
}
