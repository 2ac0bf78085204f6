import Foundation
import Hummingbird
import Logging
import PocketCore

/// Turns every error into a friendly page in Pocket's design, never a stack trace; a request
/// that asks for JSON (and not HTML) gets `{"error": "…"}` with the same status instead.
struct ErrorPageMiddleware: RouterMiddleware {
    typealias Context = PocketRequestContext

    let renderer: PageRenderer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            if error.status.code >= 500 {
                context.logger.error("request failed: \(error)")
            }
            return answer(status: error.status, message: error.body, request: request, context: context, headers: error.headers)
        } catch let error as any PersonFacingError {
            if error.status.code >= 500 {
                context.logger.error("request failed: \(String(reflecting: error))")
            }
            return answer(status: error.status, message: error.message, request: request, context: context, headers: [:])
        } catch let error as any HTTPResponseError {
            return answer(status: error.status, message: nil, request: request, context: context, headers: [:])
        } catch where HealthCheck.isCannotOpen(error) {
            // Out of file handles (or the data folder gone): say so once, and ask the phone to retry.
            if Self.cannotOpen.isDue() {
                context.logger.error("a database cannot be opened (out of file handles?); answering 503 meanwhile: \(String(reflecting: error))")
            }
            return answer(status: .serviceUnavailable, message: "Pocket cannot open its data just now. Try again in a moment.",
                          request: request, context: context, headers: [.retryAfter: "5"])
        } catch {
            context.logger.error("request failed: \(String(reflecting: error))")
            return answer(status: .internalServerError, message: nil, request: request, context: context, headers: [:])
        }
    }

    /// Logs a database that cannot be opened at most once a minute, not once per request.
    private static let cannotOpen = OncePerMinute()

    private func answer(status: HTTPResponse.Status, message: String?, request: Request, context: Context, headers: HTTPFields) -> Response {
        let model = ErrorPage.Model(status: status, message: message, requestID: context.id, path: request.uri.path)
        var response = Self.wantsJSON(request) ? JSONAnswer.error(model.message, status: status)
            : renderer.page(frame: PageFrame(title: model.title, back: BackLink(label: "Pocket", href: ShellRoute.home.href())), context: context, status: status) { _ in
                ErrorPage.View(model: model)
            }
        for field in headers where field.name != .contentType && field.name != .contentLength {
            response.headers.append(field)
        }
        return response
    }

    /// Whether the client asked for JSON rather than a page.
    static func wantsJSON(_ request: Request) -> Bool {
        let accept = request.headers[.accept]?.lowercased() ?? ""
        return accept.contains("application/json") && !accept.contains("text/html")
    }
}

/// JSON answers, written one way: sorted keys, UTF-8, never stored by a cache.
enum JSONAnswer {
    /// `value` as JSON with `status`.
    static func encode(_ value: some Encodable, status: HTTPResponse.Status = .ok, cacheControl: String = "no-store") -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Pocket's own answer types always encode; the fallback keeps a failure an answer, not a crash.
        let data = (try? encoder.encode(value)) ?? Data(#"{"error":"Pocket could not write its answer."}"#.utf8)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: cacheControl, .contentLength: String(data.count)],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `{"error": message}` with `status`: the one shape every JSON error has.
    static func error(_ message: String, status: HTTPResponse.Status) -> Response {
        encode(["error": message], status: status)
    }
}

