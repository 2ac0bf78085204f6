import Foundation
import Hummingbird
import PocketCore
import TestSupport
import Testing
@testable import Plates

/// The cache against a real HTTP server on loopback (a fixture app in this test target).
@Suite("Plate image cache")
struct PlateImageCacheTests {
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 300))
    /// A page gives up on a download after three seconds; these tests wait for the outcome itself,
    /// so a heavily loaded machine cannot turn a slow answer into a missing one.
    static let patience = Duration.seconds(60)

    /// The picture host's one route.
    private static func pictureHost(_ router: Router<BasicRequestContext>) {
        router.get("us1/:file") { request, context -> Response in
            let file = try context.parameters.require("file")
            switch file {
            case "al09a.jpg":
                return Response(status: .ok, headers: [.contentType: "image/jpeg"], body: .init(byteBuffer: ByteBuffer(bytes: Self.jpeg)))
            case "ak12.jpg":
                return Response(status: .ok, headers: [.contentType: "text/html"], body: .init(byteBuffer: ByteBuffer(string: "<html>not a picture</html>")))
            case "az09b.jpg":
                return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: .init(byteBuffer: ByteBuffer(bytes: [0x89, 0x50, 0x4E, 0x47, 1, 2, 3])))
            default:
                throw HTTPError(.notFound)
            }
        }
    }

    private func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("plate-images-\(UUID().uuidString)")
    }

    @Test func fetchesOnceThenServesFromDiskEvenWhenTheServerIsGone() async throws {
        let catalog = try StateCatalog.bundled()
        let alabama = try #require(catalog.state(code: "AL"))
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await LoopbackServer.serving(Self.pictureHost) { base in
            let port = try #require(base.port)
            let cache = PlateImageCache(folder: folder, fetcher: LiveHTTPFetcher(), base: base, patience: Self.patience)
            #expect(cache.sourceURL(for: alabama).absoluteString == "http://127.0.0.1:\(port)/us1/al09a.jpg")
            let image = await cache.image(for: alabama)
            #expect(image == .init(data: Self.jpeg, contentType: "image/jpeg"))
        }
        // The server has stopped; a new cache on the same folder still has the picture.
        let offline = PlateImageCache(folder: folder, fetcher: LiveHTTPFetcher(), base: URL(string: "http://127.0.0.1:9"), patience: Self.patience)
        #expect(await offline.image(for: alabama)?.data == Self.jpeg)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".part") }
        #expect(leftovers.isEmpty)
    }

    @Test func failuresAreExplainedAndNotRetriedAtOnce() async throws {
        let catalog = try StateCatalog.bundled()
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await LoopbackServer.serving(Self.pictureHost) { base in
            let cache = PlateImageCache(folder: folder, fetcher: LiveHTTPFetcher(), base: base, patience: Self.patience)
            let missing = try #require(catalog.state(code: "CA"))
            #expect(await cache.image(for: missing) == nil)
            #expect(await cache.lastFailure(for: missing) == "the server answered 404")
            let html = try #require(catalog.state(code: "AK"))
            #expect(await cache.image(for: html) == nil)
            #expect(await cache.lastFailure(for: html) == "the server sent something that is not a picture")
            // A vague content type is accepted when the bytes are a picture.
            let sniffed = try #require(catalog.state(code: "AZ"))
            #expect(await cache.image(for: sniffed)?.contentType == "image/png")
        }
        let unreachable = PlateImageCache(folder: folder, fetcher: LiveHTTPFetcher(), base: URL(string: "http://127.0.0.1:9"), patience: Self.patience)
        let texas = try #require(catalog.state(code: "TX"))
        #expect(await unreachable.image(for: texas) == nil)
        #expect(await unreachable.lastFailure(for: texas) == "127.0.0.1 could not be reached")
    }

    @Test func aPageNeverWaitsForTheDownloadThatItStarts() async throws {
        let catalog = try StateCatalog.bundled()
        let alabama = try #require(catalog.state(code: "AL"))
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let gate = Gate()
        // A host that does not answer until told to, and a patience far beyond any test's length.
        let cache = PlateImageCache(folder: folder, fetcher: StalledFetcher(gate: gate, data: Self.jpeg), patience: .seconds(3600))
        #expect(await cache.imageIfCached(alabama) == nil)
        #expect(await cache.isDownloading(alabama), "the download carries on in the background")
        #expect(await cache.imageIfCached(alabama) == nil, "a second visit does not wait either")
        await gate.open()
        // Once the download finishes, the next visit has the picture.
        #expect(await cache.image(for: alabama)?.data == Self.jpeg)
        #expect(await cache.imageIfCached(alabama)?.data == Self.jpeg)
        #expect(await cache.isDownloading(alabama) == false)
    }

    @Test func theSourceHostIsTheMirrorsWhenOneIsSet() throws {
        let catalog = try StateCatalog.bundled()
        let alabama = try #require(catalog.state(code: "AL"))
        let mirrored = PlateImageCache(folder: folder(), fetcher: LiveHTTPFetcher(), base: URL(string: "http://mirror.example:8080"))
        #expect(mirrored.sourceHost(for: alabama) == "mirror.example")
        let original = PlateImageCache(folder: folder(), fetcher: LiveHTTPFetcher())
        #expect(original.sourceHost(for: alabama) == alabama.plateImageURL.host)
    }
}

/// Holds callers until opened, so a test decides when a download may finish.
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        waiters.forEach { $0.resume() }
        waiters = []
    }
}

/// A picture host that answers only once its gate opens.
struct StalledFetcher: HTTPFetching {
    let gate: Gate
    let data: Data

    func fetch(_ url: URL, maxBytes: Int, timeout: Duration) async throws(FetchError) -> FetchedResource {
        await gate.wait()
        return FetchedResource(data: data, contentType: "image/jpeg")
    }
}
