import Foundation
import Hummingbird
import Murals
import PocketCore

/// The handlers behind `MuralsApp`'s screens and forms: decode, read or change, render.
struct MuralsPages: Sendable {
    let store: MuralsDatabase
    let service: MuralsService
    let synchronizer: MuralsSynchronizer
    let images: MuralImageCache
    let leaflet: LeafletAssets?
    let tiles: MuralsTiles
    let renderer: PageRenderer
    /// Rendered main screens, kept while their models stay the same.
    private let homePages: PageMemo<MuralsHome.Model>
    private let homeModels: MuralsHome.ModelMemo
    /// The last sync's date as texts and day bounds, the same on every visit until the next sync.
    private let syncDays: MuralsText.SyncDays
    /// The map's versioned placeholder tile and module, which change only with the files: looked up once.
    private let placeholderURL: String
    private let moduleURL: String

    init(store: MuralsDatabase, service: MuralsService, synchronizer: MuralsSynchronizer, images: MuralImageCache,
         leaflet: LeafletAssets?, tiles: MuralsTiles, renderer: PageRenderer, caches: Caches) {
        self.store = store
        self.service = service
        self.synchronizer = synchronizer
        self.images = images
        self.leaflet = leaflet
        self.tiles = tiles
        self.renderer = renderer
        placeholderURL = renderer.assets.url(ServiceWorker.placeholderTilePath)
        moduleURL = renderer.appModuleURL(Self.app)
        homePages = PageMemo(caches)
        homeModels = MuralsHome.ModelMemo(keeping: caches.keeps(.boundedMemo))
        syncDays = MuralsText.SyncDays(keeping: caches.keeps(.boundedMemo))
    }

    static let app = "murals"
    private static let home = BackLink(label: "Pocket", href: ShellRoute.home.href())
    private static let mainBack = BackLink(label: "Murals", href: MuralsRoute.main.href())

    /// Every route of the app with its handler; the demo service's only when it is the one used.
    func endpoints(demoService: Bool) -> [Endpoint] {
        typealias R = MuralsRoute
        let endpoints = [
            R.main.handle(main), R.mural.handle(mural), R.favourite.handle(favourite), R.changes.handle(applyChange),
            R.offlineList.handle(offlineList), R.thumbnail.handle(thumbnail), R.image.handle(picture), R.refresh.handle(refresh),
            R.walk.handle(walk), R.trail.handle(trail), R.trailJSON.handle(trailJSON), R.visited.handle(visited),
            R.clearVisited.handle(clearVisited), R.leaflet.handle(leafletFile),
        ]
        return demoService ? endpoints + [R.demoFeed.handle(demoFeed), R.demoImage.handle(demoImage)] : endpoints
    }

    // MARK: Screens

    @Sendable func main(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let person = try context.requirePerson()
        let position = MuralsPosition.from(request)
        let filter = MuralsFilter(query: request.queryFields["show"])
        var state = try await store.syncState()
        if state.lastAttempt == nil {
            // The very first visit waits for the first sync (already under way since start-up)
            // rather than showing an empty list.
            _ = try? await synchronizer.sync()
            state = try await store.syncState()
        }
        let model = homeModels.model(for: MuralsHome.Inputs(
            murals: try await store.murals(),
            favourites: try await store.favouriteIDs(of: person),
            visited: try await store.visitedIDs(of: person),
            position: position,
            filter: filter,
            status: MuralsSyncStatus(state: state, isDemo: service.isDemo, days: syncDays),
            map: MuralsMapConfig(leaflet: leaflet, tiles: tiles.template, placeholder: placeholderURL, module: moduleURL, centre: position ?? NewBrighton.centre),
            start: Self.start
        ))
        let frame = PageFrame(title: "Murals", back: Self.home, screenClass: "screen--murals", app: Self.app)
        return renderer.page(frame: frame, context: context, memo: homePages, model: model, MuralsHome.View.init)
    }

    @Sendable func mural(_ request: Request, context: PocketRequestContext, id: Int) async throws -> Response {
        let person = try context.requirePerson()
        let mural = try await existingMural(id)
        let model = MuralDetail.Model(
            mural: mural,
            isFavourite: try await store.favouriteIDs(of: person).contains(mural.id),
            isVisited: try await store.visitedIDs(of: person).contains(mural.id),
            position: MuralsPosition.from(request),
            platform: MuralDetail.MapsPlatform(userAgent: request.headers[.userAgent])
        )
        let frame = PageFrame(title: mural.title, back: Self.mainBack, screenClass: "screen--mural", app: Self.app)
        return renderer.page(frame: frame, context: context) { MuralDetail.View(model: model, module: moduleURL, pageContext: $0) }
    }

    @Sendable func trail(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let person = try context.requirePerson()
        let (trail, start, position, filter) = try await plan(request, for: person)
        let model = MuralsTrail.Model(
            trail: trail, start: start, hasPosition: position != nil, visited: try await store.visitedIDs(of: person), filter: filter,
            returnTo: MuralsRoute.trail.href() + MuralsHome.Model.query(filter: filter, position: position)
        )
        return renderer.page(frame: PageFrame(title: "Trail", back: Self.mainBack, app: Self.app), context: context) { MuralsTrail.View(model: model, pageContext: $0) }
    }

    // MARK: Data for murals/app.js

    @Sendable func trailJSON(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let (trail, _, _, filter) = try await plan(request, for: try context.requirePerson())
        return try Self.json(MuralsTrail.Payload(trail: trail, filter: filter))
    }

    @Sendable func walk(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let payload = MuralsWalkPayload(walk: try GPX.bundledWalk(), start: try GPX.bundledStart())
        return try Self.json(payload, cacheControl: "public, max-age=86400")
    }

    // MARK: Changes

    @Sendable func favourite(_ request: Request, context: PocketRequestContext, id: Int) async throws -> Response {
        var request = request
        let person = try context.requirePerson()
        let mural = try await existingMural(id)
        let fields = try await request.formFields(context: context)
        guard let value = fields["favourite"], ["0", "1"].contains(value) else {
            throw HTTPError(.badRequest, message: "Say whether the mural is a favourite (favourite=1 or 0).")
        }
        try await store.setFavourite(value == "1", muralID: mural.id, for: person)
        if Self.wantsJSON(request) {
            return try Self.json(FavouriteAnswer(id: mural.id, favourite: value == "1"), cacheControl: "no-store")
        }
        return Response.redirect(to: ReturnAddress.within(MuralsRoute.prefix, fields["return"], otherwise: MuralsRoute.main.href()))
    }

    @Sendable func refresh(_ request: Request, context: PocketRequestContext) async throws -> Response {
        var request = request
        let fields = try await request.formFields(context: context)
        // A failure is recorded by the synchronizer and shown as the quiet offline line.
        _ = try? await synchronizer.sync()
        return Response.redirect(to: ReturnAddress.within(MuralsRoute.prefix, fields["return"], otherwise: MuralsRoute.main.href()))
    }

    /// murals/app.js reports where the visitor went; murals passed within 25 m are kept as visited.
    @Sendable func visited(_ request: Request, context: PocketRequestContext) async throws -> Response {
        var request = request
        let person = try context.requirePerson()
        let fields = try await request.formFields(context: context)
        let path = Self.path(fields["path"] ?? "")
        guard !path.isEmpty else {
            throw HTTPError(.badRequest, message: "Send the positions walked as path=lat,lon;lat,lon….")
        }
        let passed = TrailPlanner.visited(along: path, murals: try await store.murals())
        if !passed.isEmpty { try await store.markVisited(passed, for: person) }
        return try Self.json(VisitedAnswer(visited: try await store.visitedIDs(of: person).sorted()), cacheControl: "no-store")
    }

    @Sendable func clearVisited(_ request: Request, context: PocketRequestContext) async throws -> Response {
        var request = request
        let person = try context.requirePerson()
        let fields = try await request.formFields(context: context)
        try await store.clearVisited(for: person)
        return Response.redirect(to: ReturnAddress.within(MuralsRoute.prefix, fields["return"] ?? MuralsRoute.trail.href(), otherwise: MuralsRoute.main.href()))
    }

    // MARK: Pictures and files

    @Sendable func thumbnail(_ request: Request, context: PocketRequestContext, id: Int) async throws -> Response {
        let mural = try await existingMural(id)
        return await picture(at: service.thumbnailURL(for: mural), title: mural.title)
    }

    @Sendable func picture(_ request: Request, context: PocketRequestContext, id: Int, index: Int) async throws -> Response {
        let mural = try await existingMural(id)
        guard let url = service.imageURL(for: mural, index: index) else {
            throw HTTPError(.notFound, message: "\(mural.title) has no such picture.")
        }
        return await picture(at: url, title: mural.title)
    }

    @Sendable func leafletFile(_ request: Request, context: PocketRequestContext, path: String) throws -> Response {
        guard let leaflet, let file = leaflet.file(at: path) else {
            throw HTTPError(.notFound, message: "The map library is not installed on this server.")
        }
        var headers: HTTPFields = [.contentType: file.contentType]
        headers[.cacheControl] = request.queryFields["v"] == leaflet.version ? "public, max-age=31536000, immutable" : "public, max-age=3600"
        let bytes = Compression.body(file.buffer, gzip: file.gzip, acceptEncoding: request.headers[values: .acceptEncoding], headers: &headers)
        headers[.contentLength] = String(bytes.readableBytes)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes))
    }

    @Sendable func demoFeed(_ request: Request, context: PocketRequestContext) throws -> Response {
        let scheme = context.isSecure ? "https" : "http"
        let authority = request.head.authority.flatMap { $0.allSatisfy { $0.isLetter || $0.isNumber || ".:-[]".contains($0) } ? $0 : nil } ?? "127.0.0.1"
        let base = URL(string: "\(scheme)://\(authority)\(MuralsRoute.demoImage.folder)")
        let feed = DemoMuralService.feed(since: request.queryFields[MuralsSynchronizer.lastModifiedParameter], imageBase: base)
        return Self.data(feed, type: "application/json", cacheControl: "no-cache")
    }

    @Sendable func demoImage(_ request: Request, context: PocketRequestContext, file: String) throws -> Response {
        guard let data = DemoMuralService.image(named: file) else {
            throw HTTPError(.notFound, message: "The demo service has no such picture.")
        }
        return Self.data(data, type: DemoMuralService.imageContentType, cacheControl: "public, max-age=86400")
    }
}

// MARK: - Helpers

extension MuralsPages {
    /// Where simulated locations start: the spec's single New Brighton point.
    static let start: GeoCoordinate = (try? GPX.bundledStart().coordinate) ?? NewBrighton.centre

    /// Walked positions from `lat,lon;lat,lon…`; bad pairs are skipped, at most 5,000 kept.
    static func path(_ text: String) -> [GeoCoordinate] {
        Array(text.split(separator: ";").lazy.compactMap { MuralsPosition.parse(String($0)) }.prefix(5000))
    }

    static func wantsJSON(_ request: Request) -> Bool {
        request.headers[.accept]?.contains("application/json") == true
    }

    static func json(_ value: some Encodable, cacheControl: String = "no-cache") throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return data(try encoder.encode(value), type: "application/json", cacheControl: cacheControl)
    }

    static func data(_ data: Data, type: String, cacheControl: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: cacheControl, .contentLength: String(data.count)],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    func existingMural(_ id: Int) async throws -> Mural {
        guard let mural = try await store.mural(id: id) else {
            throw HTTPError(.notFound, message: "There is no mural with the id “\(id)”.")
        }
        return mural
    }

    /// The trail through the shown murals (or only `person`'s favourites) from the visitor (or
    /// New Brighton's centre).
    func plan(_ request: Request, for person: PersonID) async throws -> (Trail, GeoCoordinate, GeoCoordinate?, MuralsFilter) {
        let position = MuralsPosition.from(request)
        let filter = MuralsFilter(query: request.queryFields["show"])
        var murals = try await store.murals()
        if filter == .favourites {
            let favourites = try await store.favouriteIDs(of: person)
            murals = murals.filter { favourites.contains($0.id) }
        }
        let start = position ?? NewBrighton.centre
        return (TrailPlanner.plan(from: start, through: murals), start, position, filter)
    }

    /// A saved or freshly fetched picture; when neither is possible, a picture that says so in
    /// words (never a broken image), which the browser must not keep.
    func picture(at url: URL?, title: String) async -> Response {
        if let url, let image = try? await images.image(at: url) {
            return Self.data(image.data, type: image.contentType, cacheControl: "public, max-age=86400")
        }
        return Self.data(MuralsPlaceholder.svg(title: title), type: "image/svg+xml", cacheControl: "no-store")
    }
}

private struct FavouriteAnswer: Encodable {
    let id: Int
    let favourite: Bool
}

private struct VisitedAnswer: Encodable {
    let visited: [Int]
}

/// The picture shown where a mural picture cannot be fetched (offline and never saved).
enum MuralsPlaceholder {
    static func svg(title: String) -> Data {
        let label = "No picture of \(title) is saved yet"
        let escaped = label.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300" role="img" aria-label="\(escaped)">\
            <rect width="400" height="300" fill="#8e8e93"/>\
            <text x="200" y="140" text-anchor="middle" font-family="sans-serif" font-size="22" fill="#fff">No picture saved yet</text>\
            <text x="200" y="172" text-anchor="middle" font-family="sans-serif" font-size="16" fill="#fff">It will appear once Pocket is online</text>\
            </svg>
            """
        return Data(svg.utf8)
    }
}
