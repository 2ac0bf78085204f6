import Foundation
import Hummingbird
import Logging

/// Writes one info line per request (method, path, status, duration), tagged with the request id.
/// A setup token or a pairing code in the path is a secret that signs someone in: it is logged
/// redacted, so the log (and any backup or support message it ends up in) never holds one.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = PocketRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            var response = try await next(request, context)
            response.headers[.requestID] = context.id
            log(request, status: response.status.code, since: start, logger: context.logger)
            return response
        } catch {
            // Errors normally become pages further in; anything still thrown here is logged with its status.
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log(request, status: status, since: start, logger: context.logger)
            throw error
        }
    }

    /// The paths whose last part is a secret (`/setup/<token>`, `/join/<code>`), as their routes spell them, up to the secret.
    private static let secretPrefixes = [PeopleRoute.setupPage.folder, PeopleRoute.joinLinkPage.folder]

    /// `path` with a setup token or pairing code in it replaced by `[redacted]`.
    static func loggedPath(_ path: String) -> String {
        for prefix in secretPrefixes where path.hasPrefix(prefix) && path.count > prefix.count {
            return prefix + "[redacted]"
        }
        return path
    }

    private func log(_ request: Request, status: Int, since start: ContinuousClock.Instant, logger: Logger) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        logger.info(
            "\(request.method.rawValue) \(Self.loggedPath(request.uri.path)) \(status) \(String(format: "%.1f", milliseconds))ms"
        )
    }
}
