import Hummingbird

/// Guards the group every private route is registered in: a stranger gets the sign-in page
/// (HTML) or 401. Being route-group middleware, it decides by the route that matched, never
/// by how the path is spelled. A signed-in person's request runs as one of theirs in
/// `requests`, and as a stranger's while they are being removed.
struct RequireSignIn: RouterMiddleware {
    typealias Context = PocketRequestContext

    let renderer: PageRenderer
    let requests: PersonRequests

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let identity = context.identity, let response = try await requests.run(for: identity.person.id, { try await next(request, context) }) {
            return response
        }
        let wantsHTML = request.method == .get && (request.headers[.accept] ?? "").contains("text/html")
        guard wantsHTML else {
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; charset=utf-8"
            headers[.wwwAuthenticate] = "Cookie realm=\"Pocket\""
            return Response(status: .unauthorized, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "Sign in to Pocket first.\n")))
        }
        let model = SignInPage.Model(next: SignInPage.safeNext(request.uri.description), name: "", problem: nil)
        return renderer.page(frame: PageFrame(title: "Sign In"), context: context, status: .unauthorized) { SignInPage.View(model: model, pageContext: $0) }
    }
}
