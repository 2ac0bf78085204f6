import Foundation
import Hummingbird
import HummingbirdTesting
import Murals
import PocketCore
import Testing
@testable import PocketWeb

/// Murals offline through the real router: the outbox's `POST /murals/changes` and the
/// "Keep offline" list `GET /murals/offline.json`.
@Suite("Murals offline routes")
struct MuralsOfflineRouteTests {
    private struct Answer: Decodable, Equatable {
        let id: String
        let mural: Int
        let favourite: Bool
        let result: String
    }

    private struct Failure: Decodable {
        let error: String
    }

    private struct KeepList: Decodable {
        struct Item: Decodable {
            let url: String
            let bytes: Int?
        }

        let murals: Int
        let items: [Item]
    }

    private static let deadService = MuralsService(
        endpoint: URL(string: "http://127.0.0.1:9/nbm/data2.php?class=newbrighton_murals") ?? MuralsSynchronizer.defaultEndpoint,
        imageBase: URL(string: "http://127.0.0.1:9/nbm_images/") ?? MuralsSynchronizer.defaultImageBase
    )

    private func app(murals: [Mural] = MuralsSamples.three, service: MuralsService = deadService) async throws -> (MuralsDatabase, MuralsApp) {
        let store = try MuralsDatabase.inMemory()
        if !murals.isEmpty { _ = try await store.apply(murals, fetchedAt: Date(), wasIncremental: false) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("murals-offline-\(UUID().uuidString)")
        return (store, MuralsApp(store: store, service: service, imageFolder: folder, timeout: .seconds(1), leaflet: nil))
    }

    private func send(_ client: some TestClientProtocol, _ json: String, as member: TestHousehold.Member, token: String? = nil) async throws -> TestResponse {
        let headers: HTTPFields = [
            .contentType: "application/json", .accept: "application/json",
            .cookie: member.cookie, .csrfToken: token ?? member.token,
        ]
        return try await client.execute(uri: "/murals/changes", method: .post, headers: headers, body: ByteBuffer(string: json))
    }

    /// A star change made `at` milliseconds after `outboxBase`.
    private struct Star {
        let id: String
        let at: Int64
        let body: String
    }

    private func change(_ id: String, at: Int64, _ kind: String, mural: Int) -> Star {
        Star(id: id, at: outboxBase + at, body: #"{"kind":"\#(kind)","mural":\#(mural)}"#)
    }

    /// Sends `star` as `member`'s device made it.
    private func send(_ client: some TestClientProtocol, _ star: Star, as member: TestHousehold.Member, token: String? = nil) async throws -> TestResponse {
        try await send(client, member.change(star.id, at: star.at, star.body), as: member, token: token)
    }

    private func answer(_ response: TestResponse) throws -> Answer {
        try JSONDecoder().decode(Answer.self, from: Data(buffer: response.body))
    }

    @Test func changesApplyOnceAndTheLatestPerMuralWins() async throws {
        let (store, murals) = try await app()
        let household = try await TestHousehold.make()
        let owner = household.owner
        let app = try await makeApplication(apps: [murals], household: household)
        try await app.test(.router) { client in
            let first = try await send(client, change("c1", at: 1_000, "favourite", mural: 2), as: owner)
            #expect(first.status == .ok)
            #expect(try answer(first) == Answer(id: "c1", mural: 2, favourite: true, result: "applied"))
            #expect(first.headers[.contentType] == "application/json; charset=utf-8")
            // The same change again (a resend after a lost answer): 2xx, nothing changes.
            let again = try await send(client, change("c1", at: 1_000, "favourite", mural: 2), as: owner)
            #expect(again.status == .ok)
            #expect(try answer(again).result == "duplicate")
            // An older change from another phone arriving late does not undo the newer one.
            let older = try await send(client, change("c2", at: 500, "unfavourite", mural: 2), as: owner)
            #expect(try answer(older) == Answer(id: "c2", mural: 2, favourite: true, result: "superseded"))
            #expect(try await store.favouriteIDs(of: owner.person.id) == [2])
            let newer = try await send(client, change("c3", at: 2_000, "unfavourite", mural: 2), as: owner)
            #expect(try answer(newer).result == "applied")
            #expect(try await store.favouriteIDs(of: owner.person.id).isEmpty)
        }
    }

    @Test func changesBelongToThePersonWhoseDeviceSentThem() async throws {
        let (store, murals) = try await app()
        let household = try await TestHousehold.make()
        let app = try await makeApplication(apps: [murals], household: household)
        try await app.test(.router) { client in
            #expect(try await send(client, change("o1", at: 1_000, "favourite", mural: 1), as: household.owner).status == .ok)
            #expect(try await send(client, change("b1", at: 1_000, "favourite", mural: 3), as: household.member).status == .ok)
            // Bea clearing the owner's favourite clears only her own (there is none).
            #expect(try await send(client, change("b2", at: 5_000, "unfavourite", mural: 1), as: household.member).status == .ok)
            // The owner's token does not go with Bea's session.
            let crossed = try await send(client, change("b3", at: 6_000, "unfavourite", mural: 3), as: household.member, token: household.owner.token)
            #expect(crossed.status == .forbidden)
            #expect(try await store.favouriteIDs(of: household.owner.person.id) == [1])
            #expect(try await store.favouriteIDs(of: household.member.person.id) == [3])
        }
    }

    @Test func badChangesGetAClearOneLine400AndChangeNothing() async throws {
        let (store, murals) = try await app()
        let household = try await TestHousehold.make()
        let owner = household.owner
        let app = try await makeApplication(apps: [murals], household: household)
        let cases: [(String, String)] = [
            ("not json", "it is not a JSON object {id, at, device, body}"),
            ("[1,2]", "it is not a JSON object {id, at, device, body}"),
            (owner.change("x", at: outboxBase, #"{"kind":"like","mural":1}"#), "“kind” must be favourite or unfavourite"),
            (owner.change("x", at: outboxBase, #"{"kind":"favourite","mural":"1"}"#), "“body.mural” has the wrong type"),
            (owner.change("x", at: outboxBase, #"{"kind":"favourite","mural":true}"#), "“body.mural” has the wrong type"),
            (owner.change("x", at: outboxBase, #"{"kind":"favourite"}"#), "it has no “body.mural”"),
            (owner.change("x", at: outboxBase, #"{"kind":"favourite","mural":0}"#), "“mural” must be a mural’s id, not 0"),
            (#"{"id":"x","at":1.5,"device":"\#(owner.device.tag)","body":{"kind":"favourite","mural":1}}"#, "“at” must be a whole number of milliseconds since 1970"),
        ]
        try await app.test(.router) { client in
            for (body, message) in cases {
                let response = try await send(client, body, as: owner)
                #expect(response.status == .badRequest, "\(body)")
                let failure = try JSONDecoder().decode(Failure.self, from: Data(buffer: response.body))
                #expect(failure.error.contains(message), "\(body): \(failure.error)")
                #expect(!failure.error.contains("\n"))
            }
            // A time outside Pocket's bounds: refused for good (422), the star unchanged.
            for at in [Int64(-4), ChangeTime.milliseconds(Date()) + 3_600_000] {
                let response = try await send(client, owner.change("t\(at)", at: at, #"{"kind":"favourite","mural":1}"#), as: owner)
                #expect(response.status == .unprocessableContent)
            }
            let unknown = try await send(client, change("u", at: 1, "favourite", mural: 42), as: owner)
            #expect(unknown.status == .notFound)
            #expect(try JSONDecoder().decode(Failure.self, from: Data(buffer: unknown.body)).error == "There is no mural with id 42.")
            #expect(try await store.favouriteIDs(of: owner.person.id).isEmpty)
        }
    }

    @Test func theKeepListNamesEveryScreenMuralAndPictureOnPocketsOrigin() async throws {
        let (_, murals) = try await app()
        let app = try await makeApplication(apps: [murals])
        try await app.test(.router) { client in
            try await client.execute(uri: "/murals/offline.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "no-store")
                let list = try JSONDecoder().decode(KeepList.self, from: Data(buffer: response.body))
                #expect(list.murals == 3)
                let urls = list.items.map(\.url)
                for screen in ["/murals", "/murals?show=all", "/murals?show=favourites", "/murals/trail", "/murals/walk.json"] {
                    #expect(urls.contains(screen), "\(screen)")
                }
                for mural in MuralsSamples.three {
                    #expect(urls.contains("/murals/mural/\(mural.id)"))
                    #expect(urls.contains("/murals/mural/\(mural.id)/thumbnail"))
                    for index in mural.images.indices { #expect(urls.contains("/murals/mural/\(mural.id)/images/\(index)")) }
                }
                #expect(urls.count == 6 + 3 * (1 + 1 + 2))
                #expect(urls.allSatisfy { $0.hasPrefix("/murals") && !$0.contains("//") })
                // Nothing is saved on this server yet (its picture host is dead), so no sizes are known.
                #expect(list.items.allSatisfy { $0.bytes == nil })
            }
        }
    }

    @Test func theKeepListGivesTheSizeOfPicturesPocketHasSaved() async throws {
        let (_, murals) = try await app(murals: [], service: .demo)
        let app = try await makeApplication(apps: [murals])
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/murals", method: .get) { $0.status }
            let before = try await client.execute(uri: "/murals/offline.json", method: .get) { response in
                try JSONDecoder().decode(KeepList.self, from: Data(buffer: response.body))
            }
            #expect(before.murals > 0)
            let picture = try #require(before.items.first { $0.url.hasSuffix("/images/0") })
            #expect(picture.bytes == nil)
            let served = try await client.execute(uri: picture.url, method: .get) { $0.body.readableBytes }
            let after = try await client.execute(uri: "/murals/offline.json", method: .get) { response in
                try JSONDecoder().decode(KeepList.self, from: Data(buffer: response.body))
            }
            #expect(after.items.first { $0.url == picture.url }?.bytes == served)
        }
    }

    @Test func theKeepListNeedsSignIn() async throws {
        let (_, murals) = try await app()
        let app = try await makeApplication(apps: [murals], signedIn: false)
        try await app.test(.router) { client in
            try await client.execute(uri: "/murals/offline.json", method: .get) { response in
                #expect(response.status != .ok)
                #expect(!response.text.contains("/murals/mural/1"))
            }
        }
    }
}
