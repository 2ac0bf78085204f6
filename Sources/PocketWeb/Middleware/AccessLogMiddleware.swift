import Foundation
import Hummingbird
import Logging

/// Writes one info line per request (method, path, status, duration), tagged with the request id.
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

    private func log(_ request: Request, status: Int, since start: ContinuousClock.Instant, logger: Logger) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        logger.info(
            "\(request.method.rawValue) \(request.uri.path) \(status) \(String(format: "%.1f", milliseconds))ms"
        )
    }
}
