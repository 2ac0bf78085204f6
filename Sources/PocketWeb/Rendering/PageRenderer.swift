import Foundation
import Hummingbird
import PocketCore

/// Renders page views inside the shared layout into HTML responses.
public struct PageRenderer: Sendable {
    /// The static files pages link to.
    public let assets: AssetCatalog
    /// The layout's links, which only change with the files: worked out once, not per page.
    private let links: PageContext
    /// The modules' versioned URLs, for the layout and the Content-Security-Policy.
    let importMap: ImportMap
    /// `/sw.js` less its constants, made once (ShellPages adds the apps' and keeps the whole).
    let serviceWorkerBody: String
    /// Which modules import which, for each page's `modulepreload` links.
    let modules: ModuleGraph
    /// Each app's pages' `modulepreload` URLs, worked out once.
    private let appPreloads: [String: [String]]
    /// The stylesheets a first visit's page carries inside itself; their hashes go into the
    /// Content-Security-Policy.
    let inlineStyles: InlineStyles

    /// Reads every static file.
    public init(resources: WebResources) throws {
        assets = try AssetCatalog(root: resources.publicFiles)
        importMap = try ImportMap(assets: assets)
        serviceWorkerBody = try ServiceWorker.body(assets: assets)
        modules = try ModuleGraph(assets: assets)
        inlineStyles = InlineStyles(assets: assets)
        var links = PageContext(
            csrfToken: "",
            signedIn: nil,
            stylesheet: assets.url("css/pocket.css"),
            script: assets.url("js/pocket.js"),
            favicon: assets.url("icons/pocket.svg"),
            faviconPNG: assets.url("icons/favicon-32.png"),
            appleTouchIcon: assets.url("icons/apple-touch-icon.png"),
            appStylesheet: nil,
            version: PocketVersion.current,
            importMap: importMap.json
        )
        let modules = modules, assets = assets
        links.modulePreloads = Self.modulePreloads(app: nil, modules: modules, assets: assets)
        self.links = links
        let apps = assets.paths.compactMap(Self.app(ofModule:))
        appPreloads = Dictionary(uniqueKeysWithValues: apps.map { ($0, Self.modulePreloads(app: $0, modules: modules, assets: assets)) })
    }

    /// Where `app`'s own module lives among the static files: `js/<app>/app.js`, in the folder
    /// with the modules only that app imports. `live.js` imports it when a page names it.
    static func appModulePath(_ app: String) -> String {
        "js/\(app)/app.js"
    }

    /// The app whose own module is at `path` (`js/<app>/app.js`), if it is one.
    static func app(ofModule path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let app = parts.dropFirst().first, !app.isEmpty, appModulePath(String(app)) == path else { return nil }
        return String(app)
    }

    /// The versioned URL of `app`'s own module, for the page element that names it (`data-module`).
    func appModuleURL(_ app: String) -> String {
        assets.url(Self.appModulePath(app))
    }

    /// The versioned URLs of every module a page of `app` runs: `pocket.js` and what it imports,
    /// then the app's module (`appModulePath`) and its imports.
    static func modulePreloads(app: String?, modules: ModuleGraph, assets: AssetCatalog) -> [String] {
        let appModule = app.map(appModulePath).flatMap { assets.asset(at: $0) == nil ? nil : $0 }
        return modules.closure(of: ["js/pocket.js"] + (appModule.map { [$0] } ?? [])).map(assets.url)
    }

    /// The layout-wide values for one request.
    public func pageContext(for context: PocketRequestContext, app: String? = nil) -> PageContext {
        var pageContext = links
        pageContext.csrfToken = context.csrfToken
        pageContext.signedIn = context.identity.map { OutboxOwner(device: $0.device.tag, person: $0.person.id.rawValue, name: $0.person.name) }
        pageContext.appStylesheet = app.flatMap { assets.asset(at: "css/apps/\($0).css") != nil ? assets.url("css/apps/\($0).css") : nil }
        if context.pageFetch == .workerPreload {
            pageContext.modulePreloads = []
            pageContext.scriptAfterContent = true
        } else if let app, let preloads = appPreloads[app] {
            pageContext.modulePreloads = preloads
        }
        if context.pageFetch == .navigation { pageContext.inlineStyles = inlineStyles }
        return pageContext
    }

    /// Renders the page `view` builds inside the shared layout.
    func page<View: PageView>(frame: PageFrame, context: PocketRequestContext, status: HTTPResponse.Status = .ok, _ view: (PageContext) throws -> View) rethrows -> Response {
        let pageContext = pageContext(for: context, app: frame.app)
        let html = Layout.document(frame: frame, pageContext: pageContext, view: try view(pageContext))
        return Self.htmlResponse(html.text, status: status)
    }

    /// Renders a page of the plain-HTTP trust listener inside the shared layout, with Pocket's
    /// stylesheet and icons and the page's own stylesheet and script (`pageStylesheet`, `script`:
    /// paths under `/static/`) instead of Pocket's client (`Layout.Head.plain`).
    func plainPage(frame: PageFrame, pageStylesheet: String, script: String, _ view: some PageView) -> Response {
        let head = Layout.PlainLinks(stylesheet: links.stylesheet, pageStylesheet: assets.url(pageStylesheet), script: assets.url(script),
                                     favicon: links.favicon, faviconPNG: links.faviconPNG, appleTouchIcon: links.appleTouchIcon)
        return Self.htmlResponse(Layout.document(frame: frame, head: .plain(head), view: view).text)
    }

    /// Renders `model`'s page inside the shared layout, or answers with the page `memo` kept from an
    /// earlier request with the same frame, pageContext and model.
    func page<Model, View: PageView>(frame: PageFrame, context: PocketRequestContext, memo: PageMemo<Model>, model: Model,
                                     _ view: (Model, PageContext) -> View) -> Response {
        let pageContext = pageContext(for: context, app: frame.app)
        let key = PageMemo.Key(frame: frame, pageContext: pageContext, model: model)
        let render = { Layout.document(frame: frame, pageContext: pageContext, view: view(model, pageContext)).text }
        if context.mayCompressPersonal, let compressed = memo.compressedPage(key, hard: context.pageFetch != .other, render: render) {
            var response = Self.htmlResponse(compressed)
            response.headers[.contentEncoding] = "gzip"
            response.headers.appendVary(.acceptEncoding)
            return response
        }
        return Self.htmlResponse(memo.page(key, render: render))
    }

    /// An HTML response that no shared cache stores and the browser revalidates: pages are
    /// personal, so `private`.
    public static func htmlResponse(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        htmlResponse(ByteBuffer(string: html), status: status)
    }

    /// An HTML response, already in a buffer, as `htmlResponse(_:status:)`.
    static func htmlResponse(_ html: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "private, no-cache"
        return Response(status: status, headers: headers, body: .init(byteBuffer: html))
    }
}
