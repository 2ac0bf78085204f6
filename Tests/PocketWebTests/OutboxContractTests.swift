import Foundation
import Hummingbird
import HummingbirdTesting
import Plates
import PocketCore
import TestSupport
import Testing
@testable import PocketWeb

/// The outbox contract is written twice, in Swift (`Outbox`) and in JavaScript
/// (js/lib/outbox-core.js, which pages and the service worker share): the lists of what each
/// answer means must be the same, and a change the browser's code builds must be one the server
/// reads.
@Suite("Outbox contract")
struct OutboxContractTests {
    private struct Script: Decodable {
        let refused: [Int]
        let setAside: [Int]
        let signedOut: [Int]
        let envelope: String
    }

    @Test func theBrowsersListsAreTheServers() throws {
        let script = try Self.runNode(device: "tag", at: 1, body: "{}")
        #expect(script.refused.sorted() == Outbox.refusedStatuses.map(\.code).sorted())
        #expect(script.setAside == [Outbox.setAsideStatus.code])
        #expect(script.signedOut.sorted() == Outbox.signedOutStatuses.map(\.code).sorted())
    }

    @Test func aChangeTheBrowserBuildsIsOneTheServerApplies() async throws {
        let household = try await TestHousehold.make()
        let owner = household.owner
        let catalog = try StateCatalog.bundled()
        let database = try PlatesDatabase.inMemory(catalog: catalog)
        let images = PlateImageCache(folder: FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString)"),
                                     fetcher: LiveHTTPFetcher(), base: URL(string: "http://127.0.0.1:9"), patience: .seconds(1))
        let app = try await makeApplication(apps: [PlatesApp(database: database, catalog: catalog, images: images)], household: household)
        let script = try Self.runNode(device: owner.device.tag, at: outboxBase, body: #"{"kind":"spot","state":"UT"}"#)
        try await app.test(.router) { client in
            let response = try await client.execute(
                uri: "/plates/changes", method: .post,
                headers: [.contentType: "application/json", .accept: "application/json", .cookie: owner.cookie, .csrfToken: owner.token],
                body: ByteBuffer(string: script.envelope))
            #expect(response.status == .ok, "\(String(buffer: response.body))")
        }
        #expect(try await database.game(for: owner.person.id).snapshot().isSpotted("UT"))
    }

    /// Runs outbox-core.js in Node: its lists, and the envelope it sends for a change.
    private static func runNode(device: String, at: Int64, body: String) throws -> Script {
        let module = NodeScript.repository.appendingPathComponent("Sources/PocketWeb/Resources/Public/js/lib/outbox-core.js").path
        let source = """
            const [, module, device, at, body] = process.argv;
            const core = await import(module);
            const change = { id: 'contract-1', app: 'plates', url: '/plates/changes', at: Number(at), device, person: '1', csrf: 't', body: JSON.parse(body) };
            console.log(JSON.stringify({ refused: core.REFUSED, setAside: core.SET_ASIDE, signedOut: core.SIGNED_OUT, envelope: JSON.stringify(core.envelope(change)) }));
            """
        let reply = try NodeScript.run(["--input-type=module", "-e", source, module, device, String(at), body])
        return try JSONDecoder().decode(Script.self, from: reply)
    }
}
