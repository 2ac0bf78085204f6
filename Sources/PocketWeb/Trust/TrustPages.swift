import Foundation
import Hummingbird
import PocketCore
import PocketTLS

/// The plain-HTTP listener's router: the trust page, the CA downloads and their files when Pocket
/// has its own CA, and a redirect to HTTPS for everything else. No session, no cookie.
func buildPlainRouter(renderer: PageRenderer, trust: WebTrust?, hosts: ServedHosts = .any, httpsPort: @escaping @Sendable () -> Int) -> Router<PocketRequestContext> {
    // HEAD answers as GET does, so a client checking a download before fetching it sees it is there.
    let router = Router(context: PocketRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: AccessLogMiddleware())
    // The redirects are built from `Host`: only names and addresses Pocket serves get one.
    router.add(middleware: HostCheckMiddleware(hosts: hosts, trustedProxy: nil))
    router.add(middleware: TrustHeadersMiddleware(httpsPort: httpsPort))
    TrustPages(renderer: renderer, trust: trust, httpsPort: httpsPort).addPlainRoutes(to: router)
    return router
}

/// The plain-HTTP listener beside Pocket's HTTPS. There is only the trust page, the CA downloads
/// and the files that page needs; everything else is redirected to the HTTPS origin. Nothing
/// there sets a cookie or carries a secret.
struct TrustPages: Sendable {
    let renderer: PageRenderer
    /// Pocket's own CA, or nil beside the person's own certificate (then plain HTTP only redirects).
    let trust: WebTrust?
    /// The HTTPS listener's port, for redirects.
    let httpsPort: @Sendable () -> Int

    /// The trust page, its downloads, and the static files it shows.
    var trustEndpoints: [Endpoint] {
        [TrustRoute.page.handle(trustPage)] + TrustDownload.allCases.map { file in TrustRoute.download(file).handle { _, _ in try download(file) } }
            + [ShellRoute.asset.handle(ShellPages(renderer: renderer, apps: [], serviceWorkerScript: ByteBuffer(), streams: nil, health: { [] }).asset)]
    }

    /// Every route of the plain-HTTP listener.
    func addPlainRoutes(to router: Router<PocketRequestContext>) {
        if trust != nil {
            router.add(trustEndpoints)
        }
        for method in [HTTPRequest.Method.get, .head, .post, .put, .patch, .delete, .options] {
            router.on("/", method: method, use: redirect)
            router.on("**", method: method, use: redirect)
        }
    }

    // MARK: Plain HTTP

    @Sendable func trustPage(_ request: Request, context: PocketRequestContext) throws -> Response {
        guard let trust else { throw HTTPError(.notFound) }
        let authority = trust.keeper.authority
        let model = TrustPage.Model(
            authorityName: authority.displayName, fingerprint: authority.fingerprint,
            platform: PhonePlatform(userAgent: request.headers[.userAgent]),
            host: HostName.urlHost(requestHost(request)), httpsPort: trust.httpsPort(),
            probePath: ShellRoute.asset.href("icons/favicon-32.png")
        )
        var response = renderer.plainPage(frame: PageFrame(title: "Trust Pocket"), pageStylesheet: "css/apps/trust.css", script: "js/trust.js",
                                          TrustPage.View(model: model))
        response.headers[.cacheControl] = "no-store"
        return response
    }

    func download(_ file: TrustDownload) throws -> Response {
        guard let trust else { throw HTTPError(.notFound) }
        let bytes = try file.bytes(for: trust.keeper.authority)
        var headers = HTTPFields()
        headers[.contentType] = file.contentType
        headers[.contentDisposition] = "attachment; filename=\"\(file.fileName)\""
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The same address on HTTPS: same host name, Pocket's HTTPS port, same path and query.
    @Sendable func redirect(_ request: Request, context: PocketRequestContext) -> Response {
        let query = request.uri.query.map { "?" + $0 } ?? ""
        let location = "https://\(HostName.urlHost(requestHost(request))):\(httpsPort())\(request.uri.path)\(query)"
        return Response(status: .temporaryRedirect, headers: [.location: location, .cacheControl: "no-store"])
    }

    /// The host the browser asked for, if it is a plain host name or address, else the first one phones are given.
    private func requestHost(_ request: Request) -> String {
        request.head.authority.flatMap(HostName.host(ofAuthority:)) ?? trust?.phoneLinks.hosts.first ?? "localhost"
    }
}
