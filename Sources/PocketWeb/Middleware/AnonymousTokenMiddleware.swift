import Hummingbird
import PocketCore

/// Gives a browser that is not signed in a CSRF token in a cookie, for the forms it can use
/// (signing in, setting up, pairing). A signed-in device uses its own stored token instead.
struct AnonymousTokenMiddleware: RouterMiddleware {
    typealias Context = PocketRequestContext

    /// The cookie that carries the token.
    static let cookieName = "pocket_csrf"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let existing = request.cookies[Self.cookieName]?.value
        let isNew = existing.map { !RandomToken.isWellFormed($0) } ?? true
        context.csrfToken = isNew ? RandomToken.make() : (existing ?? "")
        var response = try await next(request, context)
        if isNew {
            // A session cookie (no expiry): it only guards the sign-in, setup and pairing forms.
            response.setCookie(Cookie(name: Self.cookieName, value: context.csrfToken, path: "/", secure: context.isSecure, httpOnly: true, sameSite: .lax))
        }
        return response
    }
}
