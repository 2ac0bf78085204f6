import Foundation
import Hummingbird
import HummingbirdTesting
import Plates
import PocketCore
import Testing
@testable import PocketWeb

/// `POST /plates/changes`, the outbox's endpoint, through the real router with real stored
/// sessions: JSON in and out, each id once, clear 400s, and only the signed-in person's game.
@Suite("Plates changes route")
struct PlatesChangesRouteTests {
    private struct Fixture {
        let database: PlatesDatabase
        let app: PlatesApp
        let household: TestHousehold
    }

    private func fixture() async throws -> Fixture {
        let catalog = try StateCatalog.bundled()
        let database = try PlatesDatabase.inMemory(catalog: catalog)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plates-changes-\(UUID().uuidString)")
        let images = PlateImageCache(folder: folder, fetcher: LiveHTTPFetcher(), base: URL(string: "http://127.0.0.1:9"), patience: .seconds(3))
        return Fixture(database: database, app: PlatesApp(database: database, catalog: catalog, images: images), household: try await TestHousehold.make())
    }

    private struct Answer: Decodable {
        let applied: Bool
        let score: Int
        let total: Int
        let spotted: [String]
    }

    private func send(_ client: some TestClientProtocol, _ json: String, as member: TestHousehold.Member) async throws -> TestResponse {
        try await client.execute(
            uri: "/plates/changes", method: .post,
            headers: [.contentType: "application/json", .cookie: member.cookie, .csrfToken: member.token],
            body: ByteBuffer(string: json))
    }

    private func answer(_ response: TestResponse) throws -> Answer {
        try JSONDecoder().decode(Answer.self, from: Data(buffer: response.body))
    }

    @Test func aChangeIsAppliedOnceAndAResendChangesNothing() async throws {
        let fixture = try await fixture()
        let owner = fixture.household.owner
        let app = try await makeApplication(apps: [fixture.app], household: fixture.household)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try await app.test(.router) { client in
            let spot = #"{"id":"8C1B7E55-1","at":\#(now),"kind":"spot","state":"al"}"#
            let first = try await send(client, spot, as: owner)
            #expect(first.status == .ok)
            #expect(first.headers[.contentType]?.hasPrefix("application/json") == true)
            let applied = try answer(first)
            #expect(applied.applied && applied.score == 1 && applied.total == 50 && applied.spotted == ["AL"])
            _ = try await send(client, #"{"id":"8C1B7E55-2","at":\#(now + 10),"kind":"spot","state":"TX"}"#, as: owner)
            _ = try await send(client, #"{"id":"8C1B7E55-3","at":\#(now + 20),"kind":"unspot","state":"TX"}"#, as: owner)
            // The same id again: still 200, nothing changes (the un-spot of TX is not undone).
            let again = try answer(try await send(client, spot, as: owner))
            #expect(!again.applied && again.score == 1 && again.spotted == ["AL"])
            let reset = #"{"id":"8C1B7E55-4","at":\#(now + 30),"kind":"reset"}"#
            #expect(try answer(try await send(client, reset, as: owner)).score == 0)
            #expect(try answer(try await send(client, reset, as: owner)).applied == false)
        }
        #expect(try await fixture.database.game(for: owner.person.id).snapshot().score == 0)
    }

    @Test func badChangesGetAClearOneLineError() async throws {
        let fixture = try await fixture()
        let owner = fixture.household.owner
        let app = try await makeApplication(apps: [fixture.app], household: fixture.household)
        let cases: [(String, String)] = [
            ("not json", "That change cannot be applied: it is not a JSON object."),
            (#"{"at":1,"kind":"reset"}"#, "That change cannot be applied: it has no “id”."),
            (#"{"id":"x","at":"soon","kind":"reset"}"#, "That change cannot be applied: “at” has the wrong type."),
            (#"{"id":"x","at":1,"kind":"jump"}"#, "That change cannot be applied: its kind must be spot, unspot, reset or newTrip."),
            (#"{"id":"x","at":1,"kind":"spot"}"#, "That change cannot be applied: a spot needs a state."),
            (#"{"id":"x","at":1,"kind":"spot","state":"ZZ"}"#, "There is no state with the code “ZZ”."),
            (#"{"id":"x","at":1,"kind":"spot","state":"AL","location":{"lat":95,"lon":0}}"#, "That change cannot be applied: its location is not on Earth."),
            (#"{"id":"","at":1,"kind":"reset"}"#, "That change cannot be applied: its id must be 1 to 100 printable ASCII characters."),
        ]
        try await app.test(.router) { client in
            for (body, message) in cases {
                let response = try await send(client, body, as: owner)
                #expect(response.status == .badRequest, "\(body)")
                let error = try JSONDecoder().decode([String: String].self, from: Data(buffer: response.body))
                #expect(error["error"] == message, "\(body)")
                #expect(!(error["error"] ?? "").contains("\n"))
            }
            // Without the CSRF token the change is refused before it is read.
            let forged = try await client.execute(
                uri: "/plates/changes", method: .post, headers: [.contentType: "application/json", .cookie: owner.cookie],
                body: ByteBuffer(string: #"{"id":"y","at":1,"kind":"reset"}"#))
            #expect(forged.status == .forbidden)
        }
        #expect(try await fixture.database.game(for: owner.person.id).snapshot().score == 0)
    }

    @Test func anotherPersonsGameIsUntouched() async throws {
        let fixture = try await fixture()
        let (owner, member) = (fixture.household.owner, fixture.household.member)
        _ = try await fixture.database.game(for: owner.person.id).spot("OR", at: Date(), location: nil)
        let app = try await makeApplication(apps: [fixture.app], household: fixture.household)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try await app.test(.router) { client in
            for (index, json) in [#""kind":"spot","state":"TX""#, #""kind":"reset""#, #""kind":"newTrip""#].enumerated() {
                let response = try await send(client, #"{"id":"shared-\#(index)","at":\#(now + Int64(index)),\#(json)}"#, as: member)
                #expect(response.status == .ok)
            }
        }
        let mine = fixture.database.game(for: owner.person.id)
        #expect(Set(try await mine.snapshot().spots.keys) == ["OR"])
        #expect(try await mine.trips().count == 1)
    }
}
