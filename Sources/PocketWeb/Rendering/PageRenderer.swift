import Foundation
import Hummingbird
import Mustache
import PocketCore

/// Renders page models through Mustache templates into HTML responses.
public struct PageRenderer: Sendable {
    private let library: MustacheLibrary
    /// The static files pages link to.
    public let assets: AssetCatalog

    /// Loads every template below `resources.templates` and every static file.
    public init(resources: WebResources) async throws {
        do {
            library = try await MustacheLibrary(directory: resources.templates.path)
        } catch let error as MustacheLibrary.ParserError {
            throw WebError.templateInvalid("\(error.filename): \(error.error) at line \(error.context.lineNumber)")
        }
        assets = try AssetCatalog(root: resources.publicFiles)
    }

    /// The layout-wide values for one request.
    public func chrome(for context: PocketRequestContext, app: String? = nil) -> Chrome {
        Chrome(
            csrfToken: context.csrfToken,
            stylesheet: assets.url("css/pocket.css"),
            script: assets.url("js/pocket.js"),
            favicon: assets.url("icons/pocket.svg"),
            faviconPNG: assets.url("icons/favicon-32.png"),
            appleTouchIcon: assets.url("icons/apple-touch-icon.png"),
            appStylesheet: app.flatMap { assets.asset(at: "css/apps/\($0).css") != nil ? assets.url("css/apps/\($0).css") : nil },
            version: PocketVersion.current
        )
    }

    /// Renders the page `view` builds inside the shared layout.
    func page<View: PageView>(frame: PageFrame, context: PocketRequestContext, status: HTTPResponse.Status = .ok, _ view: (Chrome) throws -> View) rethrows -> Response {
        let chrome = chrome(for: context, app: frame.app)
        let html = Layout.document(frame: frame, chrome: chrome, view: try view(chrome))
        return Self.htmlResponse(html.text, status: status)
    }

    /// Renders `template` with `model` inside the shared layout.
    public func page(_ template: String, frame: PageFrame, model: some Sendable, context: PocketRequestContext, status: HTTPResponse.Status = .ok) throws -> Response {
        let envelope = PageEnvelope(frame: frame, page: model, chrome: chrome(for: context, app: frame.app))
        let html = try render(envelope, template: template)
        return Self.htmlResponse(html, status: status)
    }

    /// Renders a template with no layout (fragments, the service worker).
    public func render(_ object: Any, template: String) throws -> String {
        guard let text = library.render(object, withTemplate: template) else {
            throw WebError.templateInvalid("no template named \(template)")
        }
        return text
    }

    /// An HTML response that is never stored by shared caches.
    public static func htmlResponse(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}

/// The object every page template renders: `frame.*`, `page.*`, `chrome.*`.
struct PageEnvelope<Model: Sendable>: Sendable {
    let frame: PageFrame
    let page: Model
    let chrome: Chrome
}
