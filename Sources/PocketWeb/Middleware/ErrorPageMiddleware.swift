import Hummingbird
import Logging

/// Turns every error into a friendly page in Pocket's design, never a stack trace.
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
            return page(for: ErrorPage.Model(status: error.status, message: error.body, requestID: context.id, path: request.uri.path), context: context, headers: error.headers)
        } catch let error as any HTTPResponseError {
            return page(for: ErrorPage.Model(status: error.status, message: nil, requestID: context.id, path: request.uri.path), context: context, headers: [:])
        } catch {
            context.logger.error("request failed: \(String(reflecting: error))")
            return page(for: ErrorPage.Model(status: .internalServerError, message: nil, requestID: context.id, path: request.uri.path), context: context, headers: [:])
        }
    }

    private func page(for model: ErrorPage.Model, context: Context, headers: HTTPFields) -> Response {
        var response = renderer.page(frame: PageFrame(title: model.title, back: BackLink(label: "Pocket", href: ShellRoute.home.href)), context: context, status: model.status) { _ in ErrorPage.View(model: model) }
        for field in headers where field.name != .contentType && field.name != .contentLength {
            response.headers.append(field)
        }
        return response
    }
}
