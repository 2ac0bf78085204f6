import Hummingbird
import HummingbirdTesting
import Testing
@testable import PocketWeb

@Suite("Error pages")
struct ErrorPageTests {
    @Test func unknownAddressIsAFriendly404InTheLayout() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            try await client.execute(uri: "/no/such/%3Cscript%3Epage", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.text.contains("<title>Not Found · Pocket</title>"))
                #expect(response.text.contains(#"class="navbar__back" href="/""#))
                #expect(response.text.contains("There is nothing at this address"))
                #expect(!response.text.contains("<script>page"))
            }
        }
    }

    @Test func unexpectedErrorIsA500WithRequestIDAndNoDetails() async throws {
        let app = try await makeApplication(apps: [FixtureApp()])
        try await app.test(.router) { client in
            try await client.execute(uri: "/fixture/boom", method: .get) { response in
                #expect(response.status == .internalServerError)
                let requestID = response.headers[.requestID] ?? "missing"
                #expect(response.text.contains("Request ID: <code>\(requestID)</code>"))
                #expect(response.text.contains("Something Went Wrong"))
                #expect(!response.text.contains("Failure"))
                #expect(!response.text.contains("FixtureApp"))
            }
        }
    }

    /// Issue #32 (N1): a database that cannot be opened (out of file handles) is passing, not a
    /// bug: 503 with `Retry-After`, for a page and for the outbox's JSON alike.
    @Test func aDatabaseThatCannotBeOpenedIs503WithRetryAfter() async throws {
        let app = try await makeApplication(apps: [FixtureApp()])
        try await app.test(.router) { client in
            try await client.execute(uri: "/fixture/cannot-open", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "5")
                #expect(response.text.contains("Pocket cannot open its data just now"))
            }
            try await client.execute(uri: "/fixture/cannot-open", method: .get, headers: [.accept: "application/json"]) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "5")
                #expect(response.text.contains(#""error""#))
            }
        }
    }

    @Test func aRepeatingLogLineIsDueOnceAMinute() {
        let once = OncePerMinute()
        #expect(once.isDue())
        #expect(!once.isDue())
    }

    @Test func clientErrorsShowTheirMessageEscaped() async throws {
        let app = try await makeApplication(apps: [FixtureApp()])
        try await app.test(.router) { client in
            try await client.execute(uri: "/fixture/teapot", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(response.text.contains("The kettle &lt;b&gt;boiled&lt;/b&gt; dry."))
                #expect(!response.text.contains("Request ID"))
            }
        }
    }

    @Test func wrongMethodIsRefused() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            try await client.execute(uri: "/offline", method: .post, headers: [.cookie: "pocket_csrf=\(token)", .csrfToken: token]) { response in
                #expect([.notFound, .methodNotAllowed].contains(response.status))
                #expect(response.text.contains(#"class="empty-state""#))
            }
        }
    }
}
