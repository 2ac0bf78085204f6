import Hummingbird

/// Gives each browser session a CSRF token in a cookie and makes it available to pages.
struct SessionMiddleware: RouterMiddleware {
    typealias Context = PocketRequestContext

    /// The cookie that carries the token.
    static let cookieName = "pocket_csrf"

    let isSecure: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.isSecure = isSecure
        let existing = request.cookies[Self.cookieName]?.value
        let isNew = existing.map { !CSRFToken.isWellFormed($0) } ?? true
        context.csrfToken = isNew ? CSRFToken.make() : (existing ?? "")
        var response = try await next(request, context)
        if isNew {
            // A session cookie (no expiry): the token lives as long as the browser session.
            response.setCookie(Cookie(name: Self.cookieName, value: context.csrfToken, path: "/", secure: isSecure, httpOnly: true, sameSite: .lax))
        }
        return response
    }
}
