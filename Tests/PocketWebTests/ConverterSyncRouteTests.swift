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
            let response = try await client.execute(uri: ConverterRoute.catalog.href, method: .get)
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
            let token = try await client.sessionToken()
            let change = #"{"id":"5B4E","at":1,"state":{"category":"temperature","from":"fahrenheit","to":"celsius","convention":"decimal","input":"-98.6","rememberedUnits":{"data":{"from":"kilobyte","to":"byte"}}}}"#
            let first = try await setState(client, change, token: token)
            #expect(first.status == .ok)
            #expect(first.text.contains(#""id":"5B4E""#))
            let state = try await database.store(for: .firstOwner).state()
            #expect(state.category == .temperature && state.fromUnit == "fahrenheit" && state.toUnit == "celsius")
            #expect(state.convention == .decimal && state.input.entry == "-98.6")
            let second = try await setState(client, change, token: token)
            #expect(second.status == .ok)
            #expect(try await database.store(for: .firstOwner).state() == state)
            // A change made before the saved one is answered but not applied: the latest change wins.
            let older = try await setState(
                client, #"{"id":"9C1F","at":0,"state":{"category":"speed","input":"7"}}"#, token: token)
            #expect(older.status == .ok && older.text.contains(#""applied":false"#))
            #expect(try await database.store(for: .firstOwner).state() == state)
            // The page shows it, converted by the server's engine, with when it was saved.
            let html = try await client.execute(uri: "/converter", method: .get) { $0.text }
            #expect(html.contains(#"id="converter-from">−98.6</output>"#))
            #expect(html.contains(#"id="converter-to" aria-live="polite">−72.5555555556</output>"#))
            #expect(html.contains(#"data-saved-at="1" data-state="#))
        }
    }

    @Test func unitsTheCatalogNoLongerOffersAreRepairedAndTheSignDropped() async throws {
        let database = try ConverterDatabase.inMemory()
        let app = try await makeApplication(apps: [ConverterApp(database: database)])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            let response = try await setState(
                client, #"{"id":"a","state":{"category":"length","from":"furlong","to":"mile","input":"-3"}}"#, token: token)
            #expect(response.status == .ok)
            let state = try await database.store(for: .firstOwner).state()
            #expect(state.fromUnit == "kilometre" && state.toUnit == "mile" && state.input.entry == "3")
        }
    }

    @Test func badChangesAreRefusedWithAMessageAndChangeNothing() async throws {
        let database = try ConverterDatabase.inMemory()
        let app = try await makeApplication(apps: [ConverterApp(database: database)])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            let cases: [(String, String)] = [
                ("not json", "The converter change is not JSON."),
                (#"{"id":"a"}"#, "The converter change has no “state”."),
                (#"{"id":"a","state":{"category":"colour"}}"#, "The converter change’s “state.category” is not valid."),
                (#"{"id":"a","state":{"category":"data","input":"1.2.3"}}"#, "The converter change’s “state.input” is not valid."),
            ]
            for (body, message) in cases {
                let response = try await setState(client, body, token: token)
                #expect(response.status == .badRequest, "\(body)")
                let answer = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: String]
                #expect(answer?["error"] == message, "\(body)")
            }
            let large = try await setState(client, String(repeating: " ", count: 20_000) + "{}", token: token)
            #expect(large.status == .contentTooLarge)
            let forged = try await setState(client, #"{"id":"a","state":{"category":"speed"}}"#, token: nil)
            #expect(forged.status == .forbidden)
            #expect(try await database.store(for: .firstOwner).state() == .firstLaunch)
        }
    }
}
