import Foundation
import Hummingbird
import PocketCore

/// The shell's routes: home screen, style guide, offline page, manifest, service worker, static files.
struct ShellPages {
    let renderer: PageRenderer
    let apps: [AppDescriptor]
    /// `/sw.js`, made once: it only changes with the files and the apps, and the offline bar asks
    /// for it every few seconds while the server is away.
    let serviceWorkerScript: ByteBuffer
    /// Bounds each person's event streams.
    let streams: OpenStreams?
    /// The home screens rendered and compressed, by person (a name is all a screen holds of them):
    /// the home screen was the one screen still compressed anew on every request.
    var homePages = PageMemo<Home.Model>()
    /// Each store's problem, by name (`people`, the apps' ids), or none.
    let health: @Sendable () async -> [HealthProblem]

    /// What a stranger may load: the offline page, the manifest, the service worker and static files.
    var publicEndpoints: [Endpoint] {
        [
            ShellRoute.offline.handle(offline), ShellRoute.manifest.handle(manifest), ShellRoute.serviceWorker.handle(serviceWorker),
            ShellRoute.asset.handle(asset), ShellRoute.health.handle(healthz),
        ]
    }

    /// The home screen and the style guide, for signed-in people.
    var privateEndpoints: [Endpoint] {
        [ShellRoute.home.handle(home), ShellRoute.design.handle(design), ShellRoute.designPost.handle(designPost), ShellRoute.designEvents.handle(designEvents)]
    }

    // MARK: Pages

    @Sendable func home(_ request: Request, context: PocketRequestContext) throws -> Response {
        let model = Home.Model(apps: apps, assets: renderer.assets, person: context.identity?.person)
        return renderer.page(frame: Self.homeFrame, context: context, memo: homePages, model: model) { Home.View(model: $0, pageContext: $1) }
    }

    private static let homeFrame = PageFrame(title: "Pocket", largeTitle: true, screenClass: "screen--home")

    @Sendable func design(_ request: Request, context: PocketRequestContext) throws -> Response {
        let fields = request.queryFields
        let model = Design.Model(query: fields["q"] ?? "", selectedID: fields["planet"])
        return renderer.page(frame: designFrame, context: context) { Design.View(model: model, pageContext: $0) }
    }

    /// Echoes the demo form without storing anything, so the style guide can show a real POST round trip.
    @Sendable func designPost(_ request: Request, context: PocketRequestContext) async throws -> Response {
        var request = request
        let fields = try await request.formFields(context: context)
        let model = Design.Model(posted: fields["message"] ?? "")
        return renderer.page(frame: designFrame, context: context) { Design.View(model: model, pageContext: $0) }
    }

    /// A clock ticking once a second, to show (and test) live updates over Server-Sent Events.
    @Sendable func designEvents(_ request: Request, context: PocketRequestContext) throws -> Response {
        let ticks = AsyncStream<ServerSentEvent> {
            try? await Task.sleep(for: .seconds(1))
            guard !Task.isCancelled else { return nil }
            return Self.clockEvent()
        }
        return EventStream.response(initial: [Self.clockEvent()], events: ticks, owner: streams?.owner(context))
    }

    private static func clockEvent() -> ServerSentEvent {
        let time = Date().formatted(Date.FormatStyle(date: .omitted, time: .standard, timeZone: .current).locale(Locale(identifier: "en_GB")))
        return ServerSentEvent(name: "patch", data: Design.clock(time: time).text)
    }

    @Sendable func offline(_ request: Request, context: PocketRequestContext) throws -> Response {
        renderer.page(frame: PageFrame(title: "Offline", back: BackLink(label: "Pocket", href: ShellRoute.home.href())), context: context) { _ in OfflineView(home: ShellRoute.home.href()) }
    }

    // MARK: Installability

    @Sendable func manifest(_ request: Request, context: PocketRequestContext) throws -> Response {
        let json = try WebManifest(apps: apps, assets: renderer.assets).json()
        return Response(status: .ok, headers: [.contentType: "application/manifest+json", .cacheControl: "no-cache"], body: .init(byteBuffer: ByteBuffer(string: json)))
    }

    @Sendable func serviceWorker(_ request: Request, context: PocketRequestContext) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/javascript; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        headers[.serviceWorkerAllowed] = "/"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: serviceWorkerScript))
    }

    // MARK: Health

    /// `GET /healthz`: 200 `{"status": "ok", "version": …}` when every database can be read, else
    /// 503 with which are unwell; never cached, and nothing in it is anyone's data.
    @Sendable func healthz(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let problems = await health()
        let answer = HealthAnswer(status: problems.isEmpty ? "ok" : "unwell", version: PocketVersion.current,
                                  unwell: problems.isEmpty ? nil : Dictionary(problems.map { ($0.store, $0.problem) }) { first, _ in first })
        return JSONAnswer.encode(answer, status: problems.isEmpty ? .ok : .serviceUnavailable)
    }

    // MARK: Static files

    @Sendable func asset(_ request: Request, context: PocketRequestContext, path: String) throws -> Response {
        guard let asset = renderer.assets.asset(at: path) else { throw HTTPError(.notFound) }
        var headers = HTTPFields()
        // Compressed once at start-up; each encoding has its own tag, as RFC 9110 asks of a strong one.
        let bytes = Compression.body(asset.buffer, gzip: asset.gzip, acceptEncoding: request.headers[values: .acceptEncoding], headers: &headers)
        let etag = headers[.contentEncoding] == nil ? "\"\(asset.hash)\"" : "\"\(asset.hash)-gzip\""
        headers[.eTag] = etag
        // A URL carrying the current hash never changes, so it may be cached for good.
        headers[.cacheControl] = request.queryFields["v"] == asset.hash ? "public, max-age=31536000, immutable" : "no-cache"
        if request.headers[values: .ifNoneMatch].flatMap({ $0.split(separator: ",") }).contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag }) {
            headers[.contentEncoding] = nil
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = asset.contentType
        headers[.contentLength] = String(bytes.readableBytes)
        let body: ResponseBody = request.method == .head ? .init() : .init(byteBuffer: bytes)
        return Response(status: .ok, headers: headers, body: body)
    }

    private var designFrame: PageFrame {
        PageFrame(title: "Design", back: BackLink(label: "Pocket", href: ShellRoute.home.href()), largeTitle: true)
    }
}

/// One unwell store for `GET /healthz`: its name (`people`, an app's id) and what is wrong.
struct HealthProblem: Sendable {
    let store: String
    let problem: String
}

/// What `GET /healthz` answers.
private struct HealthAnswer: Encodable {
    let status: String
    let version: String
    let unwell: [String: String]?
}
