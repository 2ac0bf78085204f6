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
        let now = outboxBase
        try await app.test(.router) { client in
            let spot = owner.change("8C1B7E55-1", at: now, #"{"kind":"spot","state":"al"}"#)
            let first = try await send(client, spot, as: owner)
            #expect(first.status == .ok)
            #expect(first.headers[.contentType]?.hasPrefix("application/json") == true)
            let applied = try answer(first)
            #expect(applied.applied && applied.score == 1 && applied.total == 50 && applied.spotted == ["AL"])
            _ = try await send(client, owner.change("8C1B7E55-2", at: now + 10, #"{"kind":"spot","state":"TX"}"#), as: owner)
            _ = try await send(client, owner.change("8C1B7E55-3", at: now + 20, #"{"kind":"unspot","state":"TX"}"#), as: owner)
            // The same id again: still 200, nothing changes (the un-spot of TX is not undone).
            let again = try answer(try await send(client, spot, as: owner))
            #expect(!again.applied && again.score == 1 && again.spotted == ["AL"])
            let reset = owner.change("8C1B7E55-4", at: now + 30, #"{"kind":"reset"}"#)
            #expect(try answer(try await send(client, reset, as: owner)).score == 0)
            #expect(try answer(try await send(client, reset, as: owner)).applied == false)
        }
        #expect(try await fixture.database.game(for: owner.person.id).snapshot().score == 0)
    }

    @Test func badChangesGetAClearOneLineErrorWithTheStatusThatSaysWhatToDo() async throws {
        let fixture = try await fixture()
        let owner = fixture.household.owner
        let app = try await makeApplication(apps: [fixture.app], household: fixture.household)
        let device = owner.device.tag
        let at = outboxBase
        let cases: [(String, HTTPResponse.Status, String)] = [
            ("not json", .badRequest, "That change cannot be applied: it is not a JSON object {id, at, device, body}."),
            (#"{"at":\#(at),"device":"\#(device)","body":{"kind":"reset"}}"#, .badRequest, "That change cannot be applied: it has no “id”."),
            (#"{"id":"x","at":"soon","device":"\#(device)","body":{"kind":"reset"}}"#, .badRequest, "That change cannot be applied: “at” has the wrong type."),
            (#"{"id":"x","at":1e300,"device":"\#(device)","body":{"kind":"reset"}}"#, .badRequest, "That change cannot be applied: “at” must be a whole number of milliseconds since 1970."),
            (owner.change("x", at: at, #"{"kind":"jump"}"#), .badRequest, "That change cannot be applied: its kind must be spot, unspot, reset or newTrip."),
            (owner.change("x", at: at, #"{"kind":"spot"}"#), .badRequest, "That change cannot be applied: a spot needs a state."),
            (owner.change("x", at: at, #"{"kind":"spot","state":"ZZ"}"#), .notFound, "There is no state with the code “ZZ”."),
            (owner.change("x", at: at, #"{"kind":"spot","state":"AL","location":{"lat":95,"lon":0}}"#), .badRequest,
             "That change cannot be applied: its location is not on Earth."),
            (owner.change("", at: at, #"{"kind":"reset"}"#), .badRequest, "That change cannot be applied: its id must be 1 to 100 printable ASCII characters."),
            // D1 and D7: 1 January 10000 passed the old range check, was stored as text GRDB could not
            // read back, and trapped the process; a spot dated in the future could never be undone.
            (owner.change("x", at: 253_402_300_800_000, #"{"kind":"spot","state":"AL"}"#), .unprocessableContent,
             "That change cannot be applied: its time (253402300800000 ms since 1970) is more than 10 minutes ahead of Pocket’s clock: check the phone’s clock."),
            (owner.change("x", at: ChangeTime.milliseconds(Date()) + 11 * 60_000, #"{"kind":"newTrip"}"#), .unprocessableContent, "ahead of Pocket’s clock"),
            (owner.change("x", at: 1, #"{"kind":"reset"}"#), .unprocessableContent, "is before the year 2000"),
            // D3: a change bound to another device is set aside, never applied to whoever is signed in.
            (outboxChange("x", at: at, device: "AnotherDeviceTag000000", #"{"kind":"spot","state":"UT"}"#), .conflict,
             "That change was made on another device or before signing in again, so it is not applied to Owner."),
        ]
        try await app.test(.router) { client in
            for (body, status, message) in cases {
                let response = try await send(client, body, as: owner)
                #expect(response.status == status, "\(body)")
                let error = try JSONDecoder().decode([String: String].self, from: Data(buffer: response.body))
                #expect(error["error"] == message || (error["error"] ?? "").contains(message), "\(body): \(error)")
                #expect(!(error["error"] ?? "").contains("\n"))
            }
            // Without the CSRF token the change is refused before it is read.
            let forged = try await client.execute(
                uri: "/plates/changes", method: .post, headers: [.contentType: "application/json", .cookie: owner.cookie],
                body: ByteBuffer(string: owner.change("y", at: at, #"{"kind":"reset"}"#)))
            #expect(forged.status == .forbidden)
            // The game still opens, and still takes changes.
            #expect(try await client.execute(uri: "/plates", method: .get, headers: [.cookie: owner.cookie]) { $0.status } == .ok)
            #expect(try await send(client, owner.change("z", at: at, #"{"kind":"spot","state":"AL"}"#), as: owner).status == .ok)
        }
        #expect(try await fixture.database.game(for: owner.person.id).snapshot().spots.keys.sorted() == ["AL"])
    }

    @Test func aSpotsPlaceIsKeptOnlyWhenThePersonRecordsWhere() async throws {
        let fixture = try await fixture()
        let owner = fixture.household.owner
        let app = try await makeApplication(apps: [fixture.app], household: fixture.household)
        let game = fixture.database.game(for: owner.person.id)
        try await app.test(.router) { client in
            let place = #""location":{"lat":39.3,"lon":-111.1,"accuracy":20}"#
            _ = try await send(client, owner.change("p1", at: outboxBase, #"{"kind":"spot","state":"UT",\#(place)}"#), as: owner)
            #expect(try await game.snapshot().spots["UT"]?.location == nil)
            _ = try await game.setRecordsLocation(true)
            _ = try await send(client, owner.change("p2", at: outboxBase + 1, #"{"kind":"spot","state":"NV",\#(place)}"#), as: owner)
            #expect(try await game.snapshot().spots["NV"]?.location == (try Location(latitude: 39.3, longitude: -111.1)))
        }
    }

    @Test func anotherPersonsGameIsUntouched() async throws {
        let fixture = try await fixture()
        let (owner, member) = (fixture.household.owner, fixture.household.member)
        _ = try await fixture.database.game(for: owner.person.id).spot("OR", at: Date(), location: nil)
        let app = try await makeApplication(apps: [fixture.app], household: fixture.household)
        try await app.test(.router) { client in
            for (index, json) in [#"{"kind":"spot","state":"TX"}"#, #"{"kind":"reset"}"#, #"{"kind":"newTrip"}"#].enumerated() {
                let response = try await send(client, member.change("shared-\(index)", at: outboxBase + Int64(index), json), as: member)
                #expect(response.status == .ok)
            }
            // The owner's device tag in the member's session: set aside, not applied to either.
            let borrowed = try await send(client, owner.change("borrowed", at: outboxBase + 5, #"{"kind":"spot","state":"UT"}"#), as: member)
            #expect(borrowed.status == .conflict)
        }
        let mine = fixture.database.game(for: owner.person.id)
        #expect(Set(try await mine.snapshot().spots.keys) == ["OR"])
        #expect(try await mine.trips().count == 1)
        #expect(try await fixture.database.game(for: member.person.id).snapshot().spots.isEmpty)
    }

    /// Forty changes at once, from two devices of one person and from another person's device
    /// carrying the first person's tag: each applied once to its own person, none crossing over.
    @Test func fortyChangesAtOnceApplyOnceEachToTheirOwnPerson() async throws {
        let fixture = try await fixture()
        let (owner, member) = (fixture.household.owner, fixture.household.member)
        let second = try await fixture.household.secondDevice(of: owner)
        let app = try await makeApplication(apps: [fixture.app], household: fixture.household)
        let states = Array(try StateCatalog.bundled().states.prefix(20).map(\.code))
        try await app.test(.router) { client in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for (index, code) in states.enumerated() {
                    let phone = index.isMultiple(of: 2) ? owner : second
                    let change = phone.change("spot-\(code)", at: outboxBase + Int64(index), #"{"kind":"spot","state":"\#(code)"}"#)
                    group.addTask { try await send(client, change, as: phone).status }
                    // Each change sent twice at once: still applied once.
                    group.addTask { try await send(client, change, as: phone).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.count == 40 && statuses.allSatisfy { $0 == .ok })
            let crossed = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for (index, code) in states.enumerated() {
                    let change = owner.change("cross-\(code)", at: outboxBase + 100 + Int64(index), #"{"kind":"unspot","state":"\#(code)"}"#)
                    group.addTask { try await send(client, change, as: member).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(crossed.allSatisfy { $0 == .conflict })
        }
        #expect(Set(try await fixture.database.game(for: owner.person.id).snapshot().spots.keys) == Set(states))
        #expect(try await fixture.database.game(for: member.person.id).snapshot().spots.isEmpty)
    }
}
