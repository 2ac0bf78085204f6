import Foundation
import Hummingbird
import Plates
import PocketCore

/// The handlers behind `PlatesApp`'s routes: decode, change or read the signed-in person's game,
/// render.
struct PlatesPages: Sendable {
    let database: PlatesDatabase
    let catalog: StateCatalog
    let images: PlateImageCache
    let renderer: PageRenderer
    /// What each state's cell says, worked out once from the catalog.
    private let listTexts: PlatesList.Texts
    /// Rendered list and state pages, kept while their models stay the same.
    private let splitPages: PageMemo<PlatesSplit.Model>

    init(database: PlatesDatabase, catalog: StateCatalog, images: PlateImageCache, renderer: PageRenderer, caches: Caches) {
        self.database = database
        self.catalog = catalog
        self.images = images
        self.renderer = renderer
        listTexts = PlatesList.Texts(catalog: catalog)
        splitPages = PageMemo(caches)
    }

    private static let app = "plates"
    private static let listBack = BackLink(label: "US States", href: PlatesRoute.list.href())

    // MARK: Screens

    @Sendable func list(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let store = try signedInGame(context)
        let game = try await store.snapshot()
        let offline = try await module(store, game: game)
        let model = PlatesSplit.Model(list: listModel(game, module: offline), state: nil, module: offline)
        let frame = PageFrame(title: "US States", back: BackLink(label: "Pocket", href: ShellRoute.home.href()), app: Self.app)
        return renderer.page(frame: frame, context: context, memo: splitPages, model: model, PlatesSplit.View.init)
    }

    @Sendable func state(_ request: Request, context: PocketRequestContext, code: String) async throws -> Response {
        let store = try signedInGame(context)
        let state = try existingState(code)
        let fromMap = request.queryFields["from"] == "map"
        let back = fromMap ? BackLink(label: "Map", href: PlatesRoute.map.href()) : Self.listBack
        let game = try await store.snapshot()
        // Never wait for the picture: the words render at once and the download runs in the background.
        let image = await images.imageIfCached(state)
        let downloading = await images.isDownloading(state)
        let problem: String? = if image != nil { nil } else if downloading {
            "it is still on its way, so look again in a moment"
        } else {
            await images.lastFailure(for: state)
        }
        let returnTo = PlatesRoute.state.href(state.code) + (fromMap ? "?from=map" : "")
        let detail = PlateState.Model(
            state: state, game: game, hasImage: image != nil, imageProblem: problem, isDownloading: image == nil && downloading,
            pictureHost: images.sourceHost(for: state), returnTo: returnTo
        )
        // The list comes too: an iPad shows it beside the state (a phone shows the state alone).
        let offline = try await module(store, game: game)
        let model = PlatesSplit.Model(list: listModel(game, module: offline, selected: state.code), state: detail, module: offline)
        return renderer.page(frame: PageFrame(title: state.name, back: back, app: Self.app), context: context, memo: splitPages, model: model, PlatesSplit.View.init)
    }

    @Sendable func plateImage(_ request: Request, context: PocketRequestContext, code: String) async throws -> Response {
        let state = try existingState(code)
        guard let image = await images.cached(state) else { throw HTTPError(.notFound, message: "No picture of \(state.name)’s plate has been saved yet.") }
        return Response(
            status: .ok,
            headers: [.contentType: image.contentType, .cacheControl: "public, max-age=86400", .contentLength: String(image.data.count)],
            body: .init(byteBuffer: ByteBuffer(bytes: image.data))
        )
    }

    @Sendable func map(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let store = try signedInGame(context)
        let game = try await store.snapshot()
        var model = PlatesMap.Model(catalog: catalog, game: game)
        model.module = try await module(store, game: game)
        return renderer.page(frame: PageFrame(title: "Map", back: Self.listBack, app: Self.app), context: context) { PlatesMap.View(model: model, pageContext: $0) }
    }

    @Sendable func trips(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let store = try signedInGame(context)
        let game = try await store.snapshot()
        let trips = try await store.trips()
        var model = PlatesTrips.Model(trips: trips, total: catalog.count, sounds: !game.isMuted)
        model.module = PlatesModule(url: moduleURL, game: game, trips: trips)
        return renderer.page(frame: PageFrame(title: "Trips", back: Self.listBack, app: Self.app), context: context) { PlatesTrips.View(model: model, pageContext: $0) }
    }

    @Sendable func trip(_ request: Request, context: PocketRequestContext, id: Int64) async throws -> Response {
        let store = try signedInGame(context)
        let found: (summary: TripSummary, spots: [Spot])
        do {
            found = try await store.trip(id: id)
        } catch PlatesError.unknownTrip {
            throw HTTPError(.notFound, message: "There is no trip number \(id).")
        }
        let model = PlatesTrips.Detail(summary: found.summary, spots: found.spots, catalog: catalog)
        let frame = PageFrame(title: model.title, back: BackLink(label: "Trips", href: PlatesRoute.trips.href()), app: Self.app)
        return renderer.page(frame: frame, context: context) { PlatesTrips.DetailView(model: model, pageContext: $0) }
    }

    // MARK: Confirmations (the pages behind the alerts, for browsers without JavaScript)

    @Sendable func confirmUnspot(_ request: Request, context: PocketRequestContext, code: String) async throws -> Response {
        let store = try signedInGame(context)
        let state = try existingState(code)
        let game = try await store.snapshot()
        let returnTo = ReturnAddress.within(PlatesRoute.prefix, request.queryFields["return"], otherwise: PlatesRoute.list.href())
        guard game.isSpotted(state.code) else { return Response.redirect(to: returnTo, type: .normal) }
        let confirmation = Confirmations.unspot(state, sounds: !game.isMuted, cancelHref: returnTo, returnTo: request.queryFields["return"].map { _ in returnTo })
        return try renderer.confirmationPage(confirmation, back: Self.listBack, app: Self.app, context: context)
    }

    @Sendable func confirmReset(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let store = try signedInGame(context)
        let game = try await store.snapshot()
        return try renderer.confirmationPage(Confirmations.resetGame(sounds: !game.isMuted), back: Self.listBack, app: Self.app, context: context)
    }

    @Sendable func confirmNewTrip(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let store = try signedInGame(context)
        let game = try await store.snapshot()
        let confirmation = Confirmations.newTrip(score: game.score, total: catalog.count, sounds: !game.isMuted)
        return try renderer.confirmationPage(confirmation, back: BackLink(label: "Trips", href: PlatesRoute.trips.href()), app: Self.app, context: context)
    }

    // MARK: Changes (each one transaction in the store, then back where the player was)

    @Sendable func spot(_ request: Request, context: PocketRequestContext, code: String) async throws -> Response {
        var request = request
        let store = try signedInGame(context)
        let state = try existingState(code)
        let fields = try await request.formFields(context: context)
        var location: Location?
        if let latitude = fields["latitude"].flatMap(DecimalText.number), let longitude = fields["longitude"].flatMap(DecimalText.number) {
            location = try? Location(latitude: latitude, longitude: longitude)
        }
        // The store keeps the place only if the person chose to record where.
        _ = try await store.spot(state.code, at: Date(), location: location)
        return Response.redirect(to: ReturnAddress.within(PlatesRoute.prefix, fields["return"], otherwise: PlatesRoute.list.href()))
    }

    @Sendable func unspot(_ request: Request, context: PocketRequestContext, code: String) async throws -> Response {
        let store = try signedInGame(context)
        let state = try existingState(code)
        _ = try await store.unspot(state.code)
        return Response.redirect(to: ReturnAddress.within(PlatesRoute.prefix, request.queryFields["return"], otherwise: PlatesRoute.list.href()))
    }

    @Sendable func reset(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let store = try signedInGame(context)
        _ = try await store.resetGame()
        return Response.redirect(to: PlatesRoute.list.href())
    }

    @Sendable func newTrip(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let store = try signedInGame(context)
        _ = try await store.startNewTrip(at: Date())
        return Response.redirect(to: PlatesRoute.list.href())
    }

    @Sendable func settings(_ request: Request, context: PocketRequestContext) async throws -> Response {
        var request = request
        let store = try signedInGame(context)
        let fields = try await request.formFields(context: context)
        // Unchecked switches send nothing, so the form always carries every switch it shows.
        _ = try await store.setMuted(fields["sounds"] == nil)
        _ = try await store.setRecordsLocation(fields["location"] != nil)
        return Response.redirect(to: ReturnAddress.within(PlatesRoute.prefix, fields["return"], otherwise: PlatesRoute.list.href()))
    }

    // MARK: Helpers

    /// The offline module every game screen loads (`js/plates/app.js`), versioned.
    private var moduleURL: String { renderer.appModuleURL(Self.app) }

    /// The offline module and what it is told about `game`.
    private func module(_ store: PlatesGame, game: GameSnapshot) async throws -> PlatesModule {
        PlatesModule(url: moduleURL, game: game, trips: try await store.trips())
    }

    /// The signed-in person's game: every handler reads and changes only that.
    /// "US States" for `game`, with `selected` marked when a state's page shows beside it.
    private func listModel(_ game: GameSnapshot, module: PlatesModule, selected: String? = nil) -> PlatesList.Model {
        PlatesList.Model(texts: listTexts, game: game, finishedTrips: module.finished, selected: selected)
    }

    private func signedInGame(_ context: PocketRequestContext) throws -> PlatesGame {
        database.game(for: try context.requirePerson())
    }

    private func existingState(_ code: String) throws -> USState {
        guard let state = catalog.state(code: code) else {
            throw HTTPError(.notFound, message: "There is no state with the code “\(code)”.")
        }
        return state
    }

}
