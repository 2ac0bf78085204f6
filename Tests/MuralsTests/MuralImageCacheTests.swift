import Foundation
import PocketCore
import Testing
@testable import Murals

/// The picture cache against the fixture service on loopback.
@Suite("Mural image cache")
struct MuralImageCacheTests {
    static func jpeg(_ fill: UInt8, size: Int = 400) -> Data {
        Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: fill, count: size - 4))
    }

    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("mural-images-\(UUID().uuidString)")
    }

    @Test func fetchesOnceThenServesFromDiskOffline() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = MuralsFixture()
        fixture.putPicture("IMG 1065X.JPG", Self.jpeg(1), contentType: "image/jpeg")
        let pictureURL = LockedBox<URL?>(nil)
        try await fixture.run { _, base in
            let mural = Mural(id: 1, title: "T", artist: nil, info: nil, thumbnail: nil, coordinate: NewBrighton.centre, isEnabled: true, lastModified: "",
                              images: [MuralImage(id: "1", filename: "IMG 1065X.JPG")])
            let url = try #require(mural.imageURLs(base: base.appendingPathComponent("nbm_images")).first)
            pictureURL.value = url
            let cache = MuralImageCache(folder: folder, fetcher: LiveHTTPFetcher())
            #expect(try await cache.image(at: url) == CachedImage(data: Self.jpeg(1), contentType: "image/jpeg"))
            #expect(try await cache.image(at: url).data == Self.jpeg(1))
            #expect(fixture.pictureRequests == ["IMG 1065X.JPG"]) // the second came from disk
        }
        // The server is gone: a new cache on the same folder still has it.
        let url = try #require(pictureURL.value)
        let offline = MuralImageCache(folder: folder, fetcher: LiveHTTPFetcher(), timeout: .seconds(1))
        #expect(try await offline.image(at: url) == CachedImage(data: Self.jpeg(1), contentType: "image/jpeg"))
        #expect(await offline.cached(at: url)?.data == Self.jpeg(1))
        let other = try #require(URL(string: url.absoluteString + "-not-saved"))
        await #expect(throws: MuralsError.imageUnavailable("127.0.0.1 could not be reached")) { try await offline.image(at: other) }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".part") }
        #expect(leftovers.isEmpty)
    }

    @Test func refusesWhatIsNotAPictureAndExplainsMissingOnes() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = MuralsFixture()
        fixture.putPicture("page.jpg", Data("<html>login</html>".utf8), contentType: "text/html")
        fixture.putPicture("drawing.svg", Data(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8), contentType: "image/svg+xml")
        fixture.putPicture("photo.jpg", Self.jpeg(9), contentType: "IMAGE/JPEG; charset=binary")
        try await fixture.run { _, base in
            let cache = MuralImageCache(folder: folder, fetcher: LiveHTTPFetcher())
            let images = base.appendingPathComponent("nbm_images")
            await #expect(throws: MuralsError.notAnImage(contentType: "text/html")) {
                try await cache.image(at: images.appendingPathComponent("page.jpg"))
            }
            #expect(await cache.totalBytes() == 0)
            await #expect(throws: MuralsError.imageUnavailable("the server answered 404")) {
                try await cache.image(at: images.appendingPathComponent("missing.jpg"))
            }
            // Pocket re-serves pictures from its own origin: an SVG could run script there.
            await #expect(throws: MuralsError.notAnImage(contentType: "image/svg+xml")) {
                try await cache.image(at: images.appendingPathComponent("drawing.svg"))
            }
            let photo = try await cache.image(at: images.appendingPathComponent("photo.jpg"))
            #expect(photo.contentType == "image/jpeg")
        }
    }

    @Test func evictsTheLeastRecentlyUsedOverTheCap() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = MuralsFixture()
        for (name, fill) in [("a.jpg", UInt8(1)), ("b.jpg", 2), ("c.jpg", 3)] {
            fixture.putPicture(name, Self.jpeg(fill), contentType: "image/jpeg")
        }
        try await fixture.run { _, base in
            let images = base.appendingPathComponent("nbm_images")
            let (a, b, c) = (images.appendingPathComponent("a.jpg"), images.appendingPathComponent("b.jpg"), images.appendingPathComponent("c.jpg"))
            let cache = MuralImageCache(folder: folder, fetcher: LiveHTTPFetcher(), capacityBytes: 1000)
            _ = try await cache.image(at: a)
            _ = try await cache.image(at: b)
            _ = try await cache.image(at: a) // a is now more recent than b
            _ = try await cache.image(at: c) // 1200 bytes > 1000: b goes
            #expect(await cache.totalBytes() == 800)
            #expect(await cache.cached(at: a) != nil)
            #expect(await cache.cached(at: b) == nil)
            #expect(await cache.cached(at: c) != nil)
            // A fresh cache reads the folder and keeps the same order (file dates) when it evicts.
            let reopened = MuralImageCache(folder: folder, fetcher: LiveHTTPFetcher(), capacityBytes: 1000)
            #expect(await reopened.totalBytes() == 800)
            _ = try await reopened.image(at: b) // a is now the oldest
            #expect(await reopened.cached(at: a) == nil)
            #expect(await reopened.cached(at: c) != nil)
            #expect(fixture.pictureRequests == ["a.jpg", "b.jpg", "c.jpg", "b.jpg"])
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(files.count == 4) // two pictures, each with its metadata
        }
    }

    @Test func concurrentRequestsForOnePictureFetchItOnce() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = MuralsFixture()
        fixture.putPicture("a.jpg", Self.jpeg(7), contentType: "image/jpeg")
        try await fixture.run { _, base in
            let url = base.appendingPathComponent("nbm_images/a.jpg")
            let cache = MuralImageCache(folder: folder, fetcher: LiveHTTPFetcher())
            async let first = cache.image(at: url)
            async let second = cache.image(at: url)
            let (x, y) = try await (first, second)
            #expect(x == y)
            #expect(fixture.pictureRequests.count <= 2)
            #expect(fixture.pictureRequests.allSatisfy { $0 == "a.jpg" })
        }
    }
}

/// A value shared between a test and the closures it passes to the fixture.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
