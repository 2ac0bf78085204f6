import Foundation
import Hummingbird
import PocketCore
import TestSupport
import Testing
@testable import Plates

/// A picture host may redirect, but never send Pocket's server on to another host (issue #23,
/// D2): a secret picture on another loopback port was re-served as a plate picture.
@Suite("Plate pictures and redirects")
struct PlateRedirectTests {
    static let secret = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("secret".utf8))
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 100))

    /// A server that is not the picture host: something on the LAN or loopback.
    private static func secretServer(_ router: Router<BasicRequestContext>) {
        router.get("secret.png") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: ByteBuffer(bytes: Self.secret)))
        }
    }

    /// The picture host: Alabama's picture redirects to `elsewhere`, Alaska's to its own Alabama,
    /// Arizona's round in a loop.
    private static func pictureHost(elsewhere: String) -> (Router<BasicRequestContext>) -> Void {
        { router in Self.pictureHost(router, elsewhere: elsewhere) }
    }

    private static func pictureHost(_ router: Router<BasicRequestContext>, elsewhere: String) {
        router.get("us1/:file") { _, context -> Response in
            switch try context.parameters.require("file") {
            case "al09a.jpg": return Response(status: .found, headers: [.location: elsewhere])
            case "ak12.jpg": return Response(status: .movedPermanently, headers: [.location: "/us1/real.jpg"])
            case "real.jpg": return Response(status: .ok, headers: [.contentType: "image/jpeg"], body: .init(byteBuffer: ByteBuffer(bytes: Self.jpeg)))
            case "az09b.jpg": return Response(status: .temporaryRedirect, headers: [.location: "/us1/az09b.jpg"])
            default: throw HTTPError(.notFound)
            }
        }
    }

    @Test func aRedirectToAnotherHostIsNeverFollowedAndOneOnTheSameHostIs() async throws {
        let catalog = try StateCatalog.bundled()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plate-redirects-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await LoopbackServer.serving(Self.secretServer) { secret in
            let secretURL = secret.appendingPathComponent("secret.png").absoluteString
            try await LoopbackServer.serving(Self.pictureHost(elsewhere: secretURL)) { base in
                let cache = PlateImageCache(folder: folder, fetcher: LiveHTTPFetcher(), base: base, patience: .seconds(60))
                let alabama = try #require(catalog.state(code: "AL"))
                #expect(await cache.image(for: alabama) == nil)
                #expect(await cache.lastFailure(for: alabama) == "the server sent Pocket on to another host (127.0.0.1), which Pocket does not fetch from")
                let alaska = try #require(catalog.state(code: "AK"))
                #expect(await cache.image(for: alaska)?.data == Self.jpeg)
                let arizona = try #require(catalog.state(code: "AZ"))
                #expect(await cache.image(for: arizona) == nil)
                #expect(await cache.lastFailure(for: arizona) == "the server answered 307")
            }
        }
        // Nothing of the secret was kept.
        let kept = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        #expect(try kept.allSatisfy { try Data(contentsOf: $0) != Self.secret })
    }

    @Test func anotherAllowedOriginMayBeRedirectedTo() async throws {
        try await LoopbackServer.serving(Self.secretServer) { secret in
            let secretURL = secret.appendingPathComponent("secret.png")
            try await LoopbackServer.serving(Self.pictureHost(elsewhere: secretURL.absoluteString)) { host in
                let start = host.appendingPathComponent("us1/al09a.jpg")
                let allowed = LiveHTTPFetcher(alsoAllowing: [secretURL])
                let fetched = try await allowed.fetch(start, maxBytes: 1 << 20, timeout: .seconds(30))
                #expect(fetched.data == Self.secret)
                await #expect(throws: FetchError.redirectedElsewhere(host: "127.0.0.1")) {
                    try await LiveHTTPFetcher().fetch(start, maxBytes: 1 << 20, timeout: .seconds(30))
                }
            }
        }
    }
}
