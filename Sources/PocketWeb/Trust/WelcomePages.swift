import Hummingbird

/// The page after pairing, on HTTPS: the phone is signed in, and now goes on the Home Screen.
struct WelcomePages: Sendable {
    let renderer: PageRenderer

    /// What needs a signed-in person: the page after pairing.
    var privateEndpoints: [Endpoint] {
        [TrustRoute.welcome.handle(welcome)]
    }

    @Sendable func welcome(_ request: Request, context: PocketRequestContext) throws -> Response {
        guard let person = context.identity?.person else { throw HTTPError(.unauthorized, message: "Sign in first.") }
        let model = Welcome.Model(personName: person.name, platform: PhonePlatform(userAgent: request.headers[.userAgent]))
        return renderer.page(frame: PageFrame(title: "Welcome", back: BackLink(label: "Pocket", href: ShellRoute.home.href())), context: context) { _ in Welcome.View(model: model) }
    }
}
