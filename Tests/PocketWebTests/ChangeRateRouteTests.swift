import Foundation
import Hummingbird
import HummingbirdTesting
import Plates
import PocketCore
import Testing
@testable import PocketWeb

/// Issue #32 (N5): one person sending changes flat out is told to wait (429 with `Retry-After`,
/// which the outbox reads as "send again later"), and another person's changes still go through.
@Suite("Change rate")
struct ChangeRateRouteTests {
    @Test func changesBeyondThePersonsRateAre429WithRetryAfterAndOthersStillApply() async throws {
        let catalog = try StateCatalog.bundled()
        let database = try PlatesDatabase.inMemory(catalog: catalog)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("change-rate-\(UUID().uuidString)")
        let images = PlateImageCache(folder: folder, fetcher: LiveHTTPFetcher(), base: URL(string: "http://127.0.0.1:9"), patience: .seconds(3))
        let household = try await TestHousehold.make()
        let renderer = try PageRenderer(resources: WebResources.bundled())
        let people = WebPeople(store: household.people, throttle: AttemptThrottle(), setupToken: RandomToken.make())
        let router = buildRouter(renderer: renderer, apps: [PlatesApp(database: database, catalog: catalog, images: images)], people: people,
                                 changeRate: ChangeRate(burst: 5, perSecond: 0.01))
        let app = Application(router: router)
        try await app.test(.router) { client in
            func send(_ member: TestHousehold.Member, _ id: String, state: String) async throws -> TestResponse {
                try await client.execute(
                    uri: "/plates/changes", method: .post,
                    headers: [.contentType: "application/json", .cookie: member.cookie, .csrfToken: member.token],
                    body: ByteBuffer(string: member.change(id, at: outboxBase, #"{"kind":"spot","state":"\#(state)"}"#)))
            }
            var statuses: [HTTPResponse.Status] = []
            var retryAfter: [String] = []
            for index in 0..<8 {
                let response = try await send(household.owner, "flat-out-\(index)", state: "TX")
                statuses.append(response.status)
                if let wait = response.headers[.retryAfter] { retryAfter.append(wait) }
            }
            #expect(statuses == Array(repeating: .ok, count: 5) + Array(repeating: .tooManyRequests, count: 3))
            #expect(retryAfter.count == 3 && retryAfter.allSatisfy { (Int($0) ?? 0) >= 1 })
            // Bea's bucket is her own.
            #expect(try await send(household.member, "bea-1", state: "CA").status == .ok)
        }
        // The refused changes were not applied: only TX, from the first five.
        #expect(try await database.game(for: household.owner.person.id).snapshot().score == 1)
    }
}
