import Converter
import Foundation
import Hummingbird

/// The handlers behind `ConverterApp`'s routes: read or change the signed-in person's remembered
/// state, render.
struct ConverterPages: Sendable {
    let database: ConverterDatabase
    let renderer: PageRenderer
    /// Screens already rendered (and compressed), kept while what they show stays the same.
    let screens: PageMemo<ConverterScreen.Shown>

    private static let app = "converter"

    /// Carries why a key press was refused from the POST to the page it redirects to: a
    /// one-shot cookie, so the message shows once, in that browser only, with or without
    /// JavaScript, while the redirect target stays plain `/converter`.
    static let noticeCookie = "pocket_converter_notice"

    // MARK: Screen

    @Sendable func screen(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let person = try context.requirePerson()
        let store = database.store(for: person)
        let state = try await store.state()
        let savedAt = try await store.savedAt()
        let posted = request.cookies[Self.noticeCookie]?.value
        let shown = ConverterScreen.Shown(state: state, notice: posted.flatMap(IgnoredKeyReason.init(rawValue:)), owner: String(person.rawValue), savedAt: savedAt)
        let frame = PageFrame(title: "Converter", back: BackLink(label: "Pocket", href: ShellRoute.home.href()), screenClass: "screen--converter", app: Self.app)
        var response = renderer.page(frame: frame, context: context, memo: screens, model: shown) { ConverterScreen.View(model: model($0), pageContext: $1) }
        if posted != nil {
            response.setCookie(noticeCookie(value: "", maxAge: 0, context: context))
        }
        return response
    }

    /// The screen's model: what `shown` says, with what the page's module needs to convert offline.
    private func model(_ shown: ConverterScreen.Shown) -> ConverterScreen.Model {
        let offline = ConverterScreen.Offline(
            module: renderer.appModuleURL(Self.app), catalog: ConverterRoute.catalogHref,
            stateURL: ConverterRoute.state.href(), owner: shown.owner, state: shown.state, savedAt: shown.savedAt)
        return ConverterScreen.Model(state: shown.state, notice: shown.notice, offline: offline)
    }

    // MARK: Changes (each one transaction in the store, then back to the screen)

    @Sendable func change(_ request: Request, context: PocketRequestContext) async throws -> Response {
        var request = request
        let store = database.store(for: try context.requirePerson())
        let form = try ConverterForm(fields: try await request.formFields(context: context))
        let outcome = try await store.update { state in try form.apply(to: &state) }.result
        var response = Response.redirect(to: ConverterRoute.screen.href())
        if case .ignored(let reason)? = outcome {
            response.setCookie(noticeCookie(value: reason.rawValue, maxAge: 60, context: context))
        }
        return response
    }

    // MARK: Catalog (what the phone's own engine converts with)

    /// `GET /converter/catalog.json`: immutable under its versioned URL, revalidated by ETag otherwise.
    @Sendable func catalog(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let etag = "\"\(CatalogExport.version)\""
        let versioned = request.uri.queryParameters["v"].map { String($0) } == CatalogExport.version
        let cacheControl = versioned ? "public, max-age=31536000, immutable" : "no-cache"
        if request.headers[.ifNoneMatch] == etag {
            return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: cacheControl])
        }
        let data = CatalogExport.json
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/json", .cacheControl: cacheControl, .eTag: etag,
                .contentLength: String(data.count),
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    // MARK: Helpers

    private func noticeCookie(value: String, maxAge: Int, context: PocketRequestContext) -> Cookie {
        Cookie(name: Self.noticeCookie, value: value, maxAge: maxAge, path: ConverterRoute.prefix, secure: context.isSecure, httpOnly: true, sameSite: .lax)
    }
}
