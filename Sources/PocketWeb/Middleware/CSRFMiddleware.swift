import Foundation
import Hummingbird
import PocketCore

/// Refuses any state-changing request that does not carry this device's token (or, before
/// signing in, the browser's cookie token).
///
/// The token may come from the `X-CSRF-Token` header (pocket.js), a `_csrf` form field
/// (plain HTML forms), or a `_csrf` query item on a multipart upload only (its body is not
/// parsed here); a token in any other request's address would end up in logs and history.
struct CSRFMiddleware: RouterMiddleware {
    typealias Context = PocketRequestContext

    /// The form field and query item name.
    static let fieldName = "_csrf"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard ![.get, .head, .options].contains(request.method) else {
            return try await next(request, context)
        }
        if let site = request.headers[.secFetchSite], !["same-origin", "none"].contains(site) {
            throw HTTPError(.forbidden, message: "Pocket only accepts forms sent from its own pages.")
        }
        // Browsers without Sec-Fetch-Site still say where a form came from: it must be this origin.
        if let claimed = request.headers[.origin] ?? request.headers[.referer].flatMap(Self.origin(of:)),
           claimed != Self.ownOrigin(of: request, context: context) {
            throw HTTPError(.forbidden, message: "Pocket only accepts forms sent from its own pages.")
        }
        var request = request
        let presented = try await presentedToken(in: &request, context: context)
        guard let presented, RandomToken.matches(presented, context.csrfToken) else {
            throw HTTPError(.forbidden, message: "This page has expired. Reload it and try again.")
        }
        return try await next(request, context)
    }

    /// `scheme://host[:port]` of a URL (a Referer), as an Origin header would say it.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased() else {
            return "unparseable"
        }
        return components.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }

    /// This request's own origin: its scheme and the Host it was sent to.
    static func ownOrigin(of request: Request, context: Context) -> String {
        let scheme = context.isSecure ? "https" : "http"
        var host = (request.head.authority ?? "").lowercased()
        // Browsers leave a scheme's default port out of Origin.
        let defaultPort = context.isSecure ? ":443" : ":80"
        if host.hasSuffix(defaultPort) { host.removeLast(defaultPort.count) }
        return "\(scheme)://\(host)"
    }

    private func presentedToken(in request: inout Request, context: Context) async throws -> String? {
        if let header = request.headers[.csrfToken] { return header }
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        if contentType.hasPrefix("multipart/form-data") { return request.queryFields[Self.fieldName] }
        guard contentType.hasPrefix("application/x-www-form-urlencoded") else { return nil }
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: context.maxUploadSize)
        } catch {
            throw HTTPError(.contentTooLarge, message: "That form is too large to send.")
        }
        // collectBody leaves the collected bytes in place, so the route can read the form again.
        return FormFields(urlEncoded: String(buffer: buffer))[Self.fieldName]
    }
}
