import Hummingbird
import NIOCore

/// Works out who the client is: its address (for throttling and logs) and whether it reached
/// Pocket over HTTPS. `X-Forwarded-For` and `X-Forwarded-Proto` are believed only when the
/// connection comes from the configured trusted proxy; from anyone else they are ignored.
struct ClientMiddleware: RouterMiddleware {
    typealias Context = PocketRequestContext

    let isTLS: Bool
    let trustedProxy: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let peer = context.remoteAddress?.ipAddress
        context.clientAddress = peer ?? "unknown"
        context.isSecure = isTLS
        if let trustedProxy, let peer, Self.sameAddress(peer, trustedProxy) {
            // The proxy appends the address it saw last: the rightmost entry is the one it vouches for.
            if let forwarded = request.headers[.xForwardedFor]?.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !forwarded.isEmpty {
                context.clientAddress = forwarded
            }
            if let scheme = request.headers[.xForwardedProto]?.split(separator: ",").first?.trimmingCharacters(in: .whitespaces).lowercased() {
                context.isSecure = scheme == "https"
            }
        }
        return try await next(request, context)
    }

    /// `::ffff:127.0.0.1` (an IPv4 peer on a dual-stack socket) is the same as `127.0.0.1`.
    static func sameAddress(_ a: String, _ b: String) -> Bool {
        func plain(_ text: String) -> String {
            let lower = text.lowercased()
            return lower.hasPrefix("::ffff:") ? String(lower.dropFirst(7)) : lower
        }
        return plain(a) == plain(b)
    }
}

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
