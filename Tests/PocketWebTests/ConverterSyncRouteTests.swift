import Converter
import Foundation
import Hummingbird
import HummingbirdTesting
import PocketCore
import Testing
@testable import PocketWeb

/// The endpoints the phone's converter uses, through the real router on an in-memory store: the
/// catalog it converts with, and setting the person's whole state from JSON.
@Suite("Converter sync routes")
struct ConverterSyncRouteTests {
    private func setState(_ client: some TestClientProtocol, _ json: String, token: String?) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json", .accept: "application/json"]
        if let token {
            headers[.cookie] = "pocket_csrf=\(token)"
            headers[.csrfToken] = token
        }
        return try await client.execute(uri: "/converter/state", method: .post, headers: headers, body: ByteBuffer(string: json))
    }

    @Test func theCatalogIsTheSwiftCatalogUnderAVersionedCacheableURL() async throws {
        let app = try await makeApplication(apps: [ConverterApp(database: try ConverterDatabase.inMemory())])
        try await app.test(.router) { client in
            let response = try await client.execute(uri: ConverterRoute.catalogHref, method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(response.headers[.eTag] == "\"\(CatalogExport.version)\"")
            let catalog = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            let categories = try #require(catalog["categories"] as? [[String: Any]])
            #expect(categories.compactMap { $0["id"] as? String } == UnitCategory.allCases.map(\.rawValue))
            // Every unit of every convention, with its exact factor as a fraction.
            for convention in DataConvention.allCases {
                for (category, listing) in zip(categories, UnitCatalog.listing(convention: convention)) {
                    let units = try #require((category["units"] as? [String: Any])?[convention.rawValue] as? [[String: Any]])
                    #expect(units.compactMap { $0["id"] as? String } == listing.units.map(\.id.rawValue))
                    #expect(units.compactMap { $0["symbol"] as? String } == listing.units.map(\.symbol))
                }
            }
            let temperature = try #require((categories[1]["units"] as? [String: Any])?["binary"] as? [[String: Any]])
            let fahrenheit = try #require(temperature.first { $0["id"] as? String == "fahrenheit" })
            #expect(fahrenheit["scale"] as? [String: String] == ["numerator": "5", "denominator": "9"])
            #expect(fahrenheit["offset"] as? [String: String] == ["numerator": "45967", "denominator": "100"])

            let again = try await client.execute(
                uri: "/converter/catalog.json", method: .get, headers: [.ifNoneMatch: "\"\(CatalogExport.version)\""])
            #expect(again.status == .notModified)
            #expect(again.headers[.cacheControl] == "no-cache")
        }
    }

    @Test func theWholeStateIsSetOnceAndAResendChangesNothing() async throws {
        let database = try ConverterDatabase.inMemory()
        let app = try await makeApplication(apps: [ConverterApp(database: database)])
        try await app.test(.router) { client in
            let (token, device) = try await client.sessionDevice()
            let state = #"{"state":{"category":"temperature","from":"fahrenheit","to":"celsius","convention":"decimal","input":"-98.6","rememberedUnits":{"data":{"from":"kilobyte","to":"byte"}}}}"#
            let change = outboxChange("5B4E", at: outboxBase, device: device, state)
            let first = try await setState(client, change, token: token)
            #expect(first.status == .ok)
            #expect(first.text.contains(#""id":"5B4E""#))
            let saved = try await database.store(for: .firstOwner).state()
            #expect(saved.category == .temperature && saved.fromUnit == "fahrenheit" && saved.toUnit == "celsius")
            #expect(saved.convention == .decimal && saved.input.entry == "-98.6")
            let second = try await setState(client, change, token: token)
            #expect(second.status == .ok)
            #expect(try await database.store(for: .firstOwner).state() == saved)
            // A change made before the saved one is answered but not applied: the latest change wins.
            let older = try await setState(
                client, outboxChange("9C1F", at: outboxBase - 1, device: device, #"{"state":{"category":"speed","input":"7"}}"#), token: token)
            #expect(older.status == .ok && older.text.contains(#""applied":false"#))
            #expect(try await database.store(for: .firstOwner).state() == saved)
            // The page shows it, converted by the server's engine, with when it was saved.
            let html = try await client.execute(uri: "/converter", method: .get) { $0.text }
            #expect(html.contains(#"id="converter-from">−98.6</output>"#))
            #expect(html.contains(#"id="converter-to" aria-live="polite">−72.5555555556</output>"#))
            #expect(html.contains(#"data-saved-at="\#(outboxBase)" data-state="#))
        }
    }

    @Test func unitsTheCatalogNoLongerOffersAreRepairedAndTheSignDropped() async throws {
        let database = try ConverterDatabase.inMemory()
        let app = try await makeApplication(apps: [ConverterApp(database: database)])
        try await app.test(.router) { client in
            let (token, device) = try await client.sessionDevice()
            let response = try await setState(
                client, outboxChange("a", at: outboxBase, device: device, #"{"state":{"category":"length","from":"furlong","to":"mile","input":"-3"}}"#),
                token: token)
            #expect(response.status == .ok)
            let state = try await database.store(for: .firstOwner).state()
            #expect(state.fromUnit == "kilometre" && state.toUnit == "mile" && state.input.entry == "3")
        }
    }

    @Test func badChangesAreRefusedWithAMessageAndChangeNothing() async throws {
        let database = try ConverterDatabase.inMemory()
        let app = try await makeApplication(apps: [ConverterApp(database: database)])
        try await app.test(.router) { client in
            let (token, device) = try await client.sessionDevice()
            let cases: [(String, HTTPResponse.Status, String)] = [
                ("not json", .badRequest, "That change cannot be applied: it is not a JSON object {id, at, device, body}."),
                (outboxChange("a", at: outboxBase, device: device, "{}"), .badRequest, "That change cannot be applied: it has no “body.state”."),
                (outboxChange("a", at: outboxBase, device: device, #"{"state":{"category":"colour"}}"#), .badRequest,
                 "That change cannot be applied: “body.state.category” is not valid."),
                (outboxChange("a", at: outboxBase, device: device, #"{"state":{"category":"data","input":"1.2.3"}}"#), .badRequest,
                 "That change cannot be applied: “body.state.input” is not valid."),
                // D8: a time far ahead or far back was stored as unreadable text and broke the converter for good.
                (outboxChange("a", at: 1_000_000_000_000_000, device: device, #"{"state":{"category":"speed"}}"#), .unprocessableContent,
                 "That change cannot be applied: its time (1000000000000000 ms since 1970) is more than 10 minutes ahead of Pocket’s clock: check the phone’s clock."),
                (outboxChange("a", at: -1_000_000_000_000_000, device: device, #"{"state":{"category":"speed"}}"#), .unprocessableContent,
                 "That change cannot be applied: its time (-1000000000000000 ms since 1970) is before the year 2000: check the phone’s clock."),
                (outboxChange("a", at: outboxBase, device: "another-device", #"{"state":{"category":"speed"}}"#), .conflict,
                 "That change was made on another device or before signing in again, so it is not applied to Owner."),
            ]
            for (body, status, message) in cases {
                let response = try await setState(client, body, token: token)
                #expect(response.status == status, "\(body)")
                let answer = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: String]
                #expect(answer?["error"] == message, "\(body)")
            }
            let large = try await setState(client, String(repeating: " ", count: 20_000) + "{}", token: token)
            #expect(large.status == .contentTooLarge)
            let forged = try await setState(client, outboxChange("a", at: outboxBase, device: device, #"{"state":{"category":"speed"}}"#), token: nil)
            #expect(forged.status == .forbidden)
            #expect(try await database.store(for: .firstOwner).state() == .firstLaunch)
            // The person's converter still opens and still takes changes.
            #expect(try await client.execute(uri: "/converter", method: .get) { $0.status } == .ok)
            let good = try await setState(client, outboxChange("b", at: outboxBase, device: device, #"{"state":{"category":"speed"}}"#), token: token)
            #expect(good.status == .ok)
        }
    }
}
