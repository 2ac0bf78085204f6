import Foundation
import Hummingbird
import HummingbirdTesting
import Murals
import Testing
@testable import PocketWeb

/// One declaration per route (`Route`): its links, and what its handler receives through the real
/// router.
@Suite("Routes")
struct RouteTests {
    /// An app whose one route takes an `Int` and the rest of the path, answering with what its
    /// handler received, so a link can be followed back to its typed values.
    private struct EchoApp: PocketApp {
        static let echo = Route(.get, "item/:id/file/**", Int.self, String.self, under: "/echo")
        static let plain = Route(.post, "", under: "/echo")
        var descriptor: AppDescriptor { AppDescriptor(id: "echo", name: "Echo", icon: "icons/apps/murals.svg", summary: "Echo") }

        func addRoutes(to group: RouterGroup<PocketRequestContext>, environment: WebEnvironment) {
            group.add([
                Self.echo.handle { _, _, id, file in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "\(id + 1) \(file)"))) },
            ])
        }
    }

    @Test func linksAreFilledInOrderBelowTheirPrefix() {
        #expect(EchoApp.echo.href(7, "a/b.js") == "/echo/item/7/file/a/b.js")
        #expect(EchoApp.plain.href() == "/echo")
        #expect(EchoApp.echo.folder == "/echo/item/")
        #expect(Route(.get, "", under: "").href() == "/")
        #expect(MuralsRoute.main.href() == "/murals")
        #expect(MuralsRoute.image.href(7, 2) == "/murals/mural/7/images/2")
        #expect(MuralsRoute.leaflet.href("dist/leaflet.js") == "/murals/leaflet/dist/leaflet.js")
        #expect(MuralsRoute.demoImage.folder == "/murals/demo-service/images/")
    }

    @Test func aLinkLeadsBackToTheValuesItWasBuiltFrom() async throws {
        let app = try await makeApplication(apps: [EchoApp()])
        try await app.test(.router) { client in
            for (id, file) in [(7, "a.js"), (-3, "deep/er/b.css"), (Int.max - 1, "x")] {
                try await client.execute(uri: EchoApp.echo.href(id, file), method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.text == "\(id + 1) \(file)")
                }
            }
        }
    }

    @Test func aPartThatDoesNotSpellItsValueIsNotFound() async throws {
        let app = try await makeApplication(apps: [EchoApp()])
        try await app.test(.router) { client in
            for uri in ["/echo/item/abc/file/a.js", "/echo/item/1.5/file/a.js", "/echo/item/99999999999999999999/file/a.js"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(response.text.contains("There is no page at"), "\(uri)")
                }
            }
        }
    }

    @Test func everyMuralsRouteIsRegisteredOnceWithAsManyValuesAsParameters() async throws {
        let environment = try await Self.environment()
        let declared = [
            MuralsRoute.main.signature, MuralsRoute.mural.signature, MuralsRoute.favourite.signature, MuralsRoute.changes.signature,
            MuralsRoute.offlineList.signature, MuralsRoute.thumbnail.signature, MuralsRoute.image.signature, MuralsRoute.refresh.signature,
            MuralsRoute.walk.signature, MuralsRoute.trail.signature, MuralsRoute.trailJSON.signature, MuralsRoute.visited.signature,
            MuralsRoute.clearVisited.signature, MuralsRoute.leaflet.signature,
        ]
        let demoOnly = [MuralsRoute.demoFeed.signature, MuralsRoute.demoImage.signature]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("routes-\(UUID().uuidString)")
        let live = MuralsApp(store: try MuralsDatabase.inMemory(), service: .live(), imageFolder: folder, leaflet: nil)
        let demo = MuralsApp(store: try MuralsDatabase.inMemory(), service: .demo, imageFolder: folder, leaflet: nil)
        check(live.endpoints(environment: environment), declared)
        check(demo.endpoints(environment: environment), declared + demoOnly)
    }

    /// What the shell gives every app's routes.
    private static func environment() async throws -> WebEnvironment {
        let household = try await TestHousehold.make()
        return WebEnvironment(renderer: try PageRenderer(resources: WebResources.bundled()), streams: OpenStreams(people: household.people))
    }

    private func check(_ endpoints: [Endpoint], _ declared: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(endpoints.map(\.signature).sorted() == declared.sorted(), sourceLocation: sourceLocation)
        for endpoint in endpoints {
            #expect(endpoint.parameterCount == endpoint.valueCount, "\(endpoint.signature)", sourceLocation: sourceLocation)
        }
    }
}

extension Route {
    /// Method and pattern, as the router tells routes apart.
    var signature: String { "\(method) \(pattern)" }
}

extension Endpoint {
    var signature: String { "\(method) \(pattern)" }
}
