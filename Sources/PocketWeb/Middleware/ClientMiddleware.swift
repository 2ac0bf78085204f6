import Hummingbird
import NIOCore

/// Works out who the client is: its address (for throttling and logs), whether it reached
/// Pocket over HTTPS, and how it asks for pages (`PageFetch`). `X-Forwarded-For` and `X-Forwarded-Proto` are believed only when the
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
        context.pageFetch = PageFetch(request.headers)
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
