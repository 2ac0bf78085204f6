import Hummingbird

/// The session cookie as hummingbird-auth writes it, made `HttpOnly` (and `Secure` over HTTPS).
/// Workaround, 2026-11-24: hummingbird-auth 2.5.0's `SessionCookieParameters` has no `httpOnly`,
/// and whether a request is secure is only known per request (behind a proxy).
struct SessionCookieHardening: RouterMiddleware {
    typealias Context = PocketRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        let cookies = response.headers[values: .setCookie]
        guard cookies.contains(where: { $0.hasPrefix(WebPeople.cookieName + "=") }) else { return response }
        response.headers[values: .setCookie] = cookies.map { cookie in
            guard cookie.hasPrefix(WebPeople.cookieName + "=") else { return cookie }
            var hardened = cookie
            if !cookie.localizedCaseInsensitiveContains("; HttpOnly") { hardened += "; HttpOnly" }
            if context.isSecure, !cookie.localizedCaseInsensitiveContains("; Secure") { hardened += "; Secure" }
            return hardened
        }
        return response
    }
}
