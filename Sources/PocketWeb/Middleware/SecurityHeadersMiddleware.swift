import Hummingbird

/// Adds the baseline security headers to every response, error pages included.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = PocketRequestContext

    /// The Content-Security-Policy value, worked out once rather than per response.
    let policy: String
    /// Whether HTTPS responses ask for HTTPS only from now on. Not beside Pocket's own trust page:
    /// HSTS covers every port of a host, so a phone would then open the plain-HTTP trust page's
    /// links (a later pairing QR code) as HTTPS and fail.
    let strictTransportSecurity: Bool

    init(policy: ExternalSources, strictTransportSecurity: Bool = true) {
        self.policy = policy.headerValue
        self.strictTransportSecurity = strictTransportSecurity
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        // A document made for Pocket's own frames (a Conference talk's text) brings its own, sandboxed
        // policy (no scripts, `frame-ancestors 'self'`); only a sandboxing policy is kept, every other
        // response gets Pocket's.
        let framed = response.headers[.contentSecurityPolicy].flatMap { $0.hasPrefix("sandbox") ? $0 : nil }
        response.headers[.contentSecurityPolicy] = framed ?? policy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "same-origin"
        response.headers[.xFrameOptions] = framed == nil ? "DENY" : "SAMEORIGIN"
        response.headers[.crossOriginOpenerPolicy] = "same-origin"
        response.headers[.permissionsPolicy] = "geolocation=(self), camera=(), microphone=(), payment=()"
        if context.isSecure, strictTransportSecurity {
            // HTTPS only from now on: a later visit cannot be downgraded to plain HTTP on the way.
            response.headers[.strictTransportSecurity] = "max-age=31536000"
        }
        return response
    }
}
