import Hummingbird
import PocketCore

/// The plain-HTTP listener's security headers: Pocket's policy, with `connect-src` widened to
/// exactly the HTTPS origin of the host asked for, which the trust page's script checks.
struct TrustHeadersMiddleware: RouterMiddleware {
    typealias Context = PocketRequestContext

    let httpsPort: @Sendable () -> Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        let origin = request.head.authority.flatMap(HostName.host(ofAuthority:)).map { "https://\(HostName.urlHost($0)):\(httpsPort())" }
        response.headers[.contentSecurityPolicy] = ExternalSources(connectSources: origin.map { [$0] } ?? []).headerValue
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.crossOriginOpenerPolicy] = "same-origin"
        return response
    }
}
