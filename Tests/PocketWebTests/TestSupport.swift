import Foundation
import Hummingbird
import HummingbirdTesting
import PocketWeb

/// An app registered only in tests, to prove registration, prefixes and error handling.
struct FixtureApp: PocketApp {
    struct Failure: Error {}

    var descriptor: AppDescriptor {
        AppDescriptor(id: "fixture", name: "Fixture <App>", icon: "icons/apps/plates.svg", summary: "A test app & more")
    }

    var externalSources: ExternalSources {
        ExternalSources(imageSources: ["https://images.example"], frameSources: ["https://frames.example"])
    }

    func addRoutes(to group: RouterGroup<PocketRequestContext>, environment: WebEnvironment) {
        group.get { _, context in
            try environment.renderer.page("shell/offline", frame: PageFrame(title: "Fixture"), model: ["home": "/"], context: context)
        }
        group.get("boom") { _, _ -> Response in
            throw Failure()
        }
        group.get("teapot") { _, _ -> Response in
            throw HTTPError(.badRequest, message: "The kettle <b>boiled</b> dry.")
        }
    }
}

/// Builds the real router with the bundled templates and assets.
func makeApplication(apps: [any PocketApp] = []) async throws -> some ApplicationProtocol {
    let renderer = try await PageRenderer(resources: WebResources.bundled())
    return Application(router: buildRouter(renderer: renderer, apps: apps))
}

extension TestResponse {
    /// The body as text.
    var text: String { String(buffer: body) }

    /// The CSRF token the server handed out in its cookie.
    var csrfCookie: String? {
        headers[values: .setCookie].lazy.compactMap { header -> String? in
            guard header.hasPrefix("pocket_csrf=") else { return nil }
            return header.dropFirst("pocket_csrf=".count).split(separator: ";").first.map(String.init)
        }.first
    }
}

extension TestClientProtocol {
    /// GETs a page and returns a fresh session token from its cookie.
    func sessionToken() async throws -> String {
        try await execute(uri: "/", method: .get) { response in
            guard let token = response.csrfCookie else { throw HTTPError(.internalServerError, message: "no token") }
            return token
        }
    }
}
