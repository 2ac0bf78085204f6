import Converter
import Foundation
import Hummingbird
import HummingbirdTesting
import PocketCore
import Testing
@testable import PocketWeb

/// The Converter screen through the real router, on an in-memory store: what a user sees after
/// each key, wheel, segment and swap, and what the server refuses.
@Suite("Converter routes")
struct ConverterRouteTests {
    private static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    private func post(_ client: some TestClientProtocol, _ body: String, token: String) async throws -> TestResponse {
        var headers = Self.form
        headers[.cookie] = "pocket_csrf=\(token)"
        return try await client.execute(uri: "/converter", method: .post, headers: headers, body: ByteBuffer(string: "_csrf=\(token)&" + body))
    }

    /// Presses keys one by one, as the keypad's buttons post them; each answers 303 to the screen.
    private func press(_ client: some TestClientProtocol, _ keys: [String], token: String) async throws {
        for key in keys {
            let response = try await post(client, "key=\(key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? key)", token: token)
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/converter")
        }
    }

    private func screen(_ client: some TestClientProtocol, cookie: String? = nil) async throws -> String {
        var headers = HTTPFields()
        if let cookie { headers[.cookie] = cookie }
        return try await client.execute(uri: "/converter", method: .get, headers: headers) { response in
            #expect(response.status == .ok)
            return response.text
        }
    }

    /// The from and to labels as the page shows them.
    private func labels(_ html: String) -> (from: String?, to: String?) {
        (value(of: "converter-from", in: html), value(of: "converter-to", in: html))
    }

    private func value(of id: String, in html: String) -> String? {
        guard let start = html.range(of: "id=\"\(id)\"")?.upperBound,
              let open = html[start...].firstIndex(of: ">"),
              let close = html[open...].range(of: "</output>")?.lowerBound
        else { return nil }
        return String(html[html.index(after: open)..<close])
    }

    private func checked(_ name: String, in html: String) -> [String] {
        html.components(separatedBy: "<input type=\"radio\" name=\"\(name)\" value=\"").dropFirst().compactMap { rest in
            let value = rest.prefix { $0 != "\"" }
            let tag = rest.prefix { $0 != ">" }
            return tag.contains(" checked") ? String(value) : nil
        }
    }

    // MARK: Screen

    @Test func theFirstScreenIsDataByteToByteAndZero() async throws {
        let database = try ConverterDatabase.inMemory()
        let app = try await makeApplication(apps: [ConverterApp(database: database)])
        try await app.test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.text.contains(#"<a class="app-tile" href="/converter""#))
            }
            let html = try await screen(client)
            #expect(html.contains("<title>Converter · Pocket</title>"))
            #expect(html.contains(#"href="/static/css/apps/converter.css?v="#))
            #expect(html.contains(#"<form class="converter" id="converter" method="post" action="/converter" data-autosubmit data-transition="none" data-module="/static/js/converter/app.js?v="#))
            #expect(html.contains(#"data-catalog="/converter/catalog.json?v=\#(CatalogExport.version)" data-state-url="/converter/state""#))
            #expect(html.contains(#"name="_csrf""#))
            #expect(labels(html).from == "0" && labels(html).to == "0")
            #expect(checked("category", in: html) == ["data"])
            #expect(checked("from", in: html) == ["byte"] && checked("to", in: html) == ["byte"])
            #expect(checked("convention", in: html) == ["binary"])
            #expect(html.components(separatedBy: #"name="category""#).count - 1 == 10)
            #expect(html.contains(#"<p class="js-hidden converter__fallback"><button class="button button--tinted" type="submit" id="converter-apply">Convert</button></p>"#))
            // The keypad: ten digits, point, delete, clear and ± (disabled where negatives mean nothing).
            for digit in 0...9 {
                #expect(html.contains(#"name="key" value="\#(digit)" id="converter-key-\#(digit)" data-key="\#(digit)""#))
            }
            #expect(html.contains(#"value="." id="converter-key-point" data-key=". ,""#))
            #expect(html.contains(#"value="delete" id="converter-key-delete" data-key="Backspace Delete""#))
            #expect(html.contains(#"id="converter-key-sign" data-key="- ±" aria-label="Plus or minus" disabled"#))
            #expect(html.contains(#"data-copy="0""#))
            #expect(html.contains(#"<output class="converter__number converter__number--w3" id="converter-to" aria-live="polite">0</output>"#))
        }
    }

    // MARK: Keys

    @Test func keysEchoInTheFromLabelAndConvertAtOnce() async throws {
        let database = try ConverterDatabase.inMemory()
        let app = try await makeApplication(apps: [ConverterApp(database: database)])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            try await press(client, ["1"], token: token)
            #expect(labels(try await screen(client)) == ("1", "1"))
            try await press(client, ["2"], token: token)
            #expect(labels(try await screen(client)) == ("12", "12"))
            // The left wheel settles on Kilobyte: the whole form posts, without a key.
            _ = try await post(client, "category=data&from=kilobyte&to=byte&convention=binary", token: token)
            var html = try await screen(client)
            #expect(labels(html) == ("12", "12,288"))
            #expect(html.contains(#"id="converter-from-symbol" aria-hidden="true">KB</span>"#))
            try await press(client, [".", "5"], token: token)
            #expect(labels(try await screen(client)) == ("12.5", "12,800"))
            try await press(client, ["delete", "delete"], token: token)
            #expect(labels(try await screen(client)) == ("12", "12,288"))
            _ = try await post(client, "category=data&from=kilobyte&to=megabyte&convention=binary", token: token)
            html = try await screen(client)
            #expect(labels(html) == ("12", "0.01171875"))
            #expect(html.contains(#"data-copy="0.01171875""#))
        }
    }

    @Test func theDecimalPointGoesInOnceAndTheRefusalIsShownOnce() async throws {
        let database = try ConverterDatabase.inMemory()
        let app = try await makeApplication(apps: [ConverterApp(database: database)])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            // "." first gives "0.".
            try await press(client, ["."], token: token)
            #expect(labels(try await screen(client)).from == "0.")
            let second = try await post(client, "key=.", token: token)
            #expect(second.status == .seeOther)
            let cookie = try #require(second.headers[values: .setCookie].first { $0.hasPrefix("pocket_converter_notice=") })
            #expect(cookie.contains("decimalPointAlreadyEntered") && cookie.contains("Path=/converter") && cookie.contains("HttpOnly"))
            // The page the redirect leads to says why, once, and clears the notice.
            try await client.execute(uri: "/converter", method: .get, headers: [.cookie: "pocket_converter_notice=decimalPointAlreadyEntered"]) { response in
                #expect(response.text.contains(#"id="converter-message" role="status">The number already has a decimal point</p>"#))
                #expect(value(of: "converter-from", in: response.text) == "0.")
                #expect(response.headers[values: .setCookie].contains { $0.hasPrefix("pocket_converter_notice=;") && $0.contains("Max-Age=0") })
            }
            #expect(try await screen(client).contains(#"id="converter-message" role="status"></p>"#))
            try await press(client, ["5"], token: token)
            #expect(labels(try await screen(client)) == ("0.5", "0.5"))
        }
    }

    @Test func leadingZerosBehaveLikeACalculator() async throws {
        let database = try ConverterDatabase.inMemory()
        let app = try await makeApplication(apps: [ConverterApp(database: database)])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            try await press(client, ["0", "5"], token: token)
            #expect(labels(try await screen(client)).from == "5")
        }
    }

    @Test func fifteenDigitsAtMostWithVisibleFeedback() async throws {
        let database = try ConverterDatabase.inMemory()
        let app = try await makeApplication(apps: [ConverterApp(database: database)])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            try await press(client, Array(repeating: "9", count: 15), token: token)
            let refused = try await post(client, "key=1", token: token)
            #expect(refused.headers[values: .setCookie].contains { $0.hasPrefix("pocket_converter_notice=digitLimitReached") })
            let html = try await screen(client, cookie: "pocket_converter_notice=digitLimitReached")
            #expect(labels(html).from == "999,999,999,999,999")
            // Byte → Byte, but only 12 significant digits are shown: scientific notation takes over.
            #expect(labels(html).to == "1×10¹⁵")
            #expect(html.contains("At most 15 digits"))
            #expect(html.contains(#"class="converter__message converter__message--notice""#))
            #expect(html.contains(#"data-copy="1e+15""#))
        }
    }

    @Test func deletingEverythingShowsZero() async throws {
        let database = try ConverterDatabase.inMemory()
        let app = try await makeApplication(apps: [ConverterApp(database: database)])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            try await press(client, ["4", ".", "2"], token: token)
            try await press(client, ["delete"], token: token)
            #expect(labels(try await screen(client)).from == "4.")
            try await press(client, ["delete", "delete"], token: token)
            #expect(labels(try await screen(client)) == ("0", "0"))
            let nothing = try await post(client, "key=delete", token: token)
            #expect(nothing.headers[values: .setCookie].contains { $0.hasPrefix("pocket_converter_notice=nothingToDelete") })
            try await press(client, ["7", "clear"], token: token)
            #expect(labels(try await screen(client)).from == "0")
        }
    }

    // MARK: Wheels, categories, swap, convention

    @Test func threeCategoriesAreSegmentsAndTheRestAreInTheMoreMenu() async throws {
        let database = try ConverterDatabase.inMemory()
        let app = try await makeApplication(apps: [ConverterApp(database: database)])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            var html = try await screen(client)
            let segments = html.components(separatedBy: #"<details class="segmented__more""#)[0]
            let menu = html.components(separatedBy: #"<div class="segmented__menu" id="converter-more-menu">"#)[1].components(separatedBy: "</details>")[0]
            let names = { (text: String) in text.matches(of: /name="category" value="([a-z]+)"/).map { String($0.output.1) } }
            #expect(names(segments) == ["data", "temperature", "length"])
            #expect(names(menu) == ["mass", "volume", "area", "speed", "time", "energy", "pressure"])
            #expect(html.contains(#"aria-label="More categories"><span>More</span></summary>"#))
            // A category from the menu takes "More"'s place, and the segment looks chosen.
            _ = try await post(client, "category=pressure", token: token)
            html = try await screen(client)
            #expect(checked("category", in: html) == ["pressure"])
            #expect(html.contains(#"<details class="segmented__more" id="converter-more" data-popover data-chosen>"#))
            #expect(html.contains(#"aria-label="More categories: Pressure chosen"><span>Pressure</span></summary>"#))
        }
    }

    @Test func switchingCategoryKeepsTheValueAndShowsTheNewWheels() async throws {
        let database = try ConverterDatabase.inMemory()
        let app = try await makeApplication(apps: [ConverterApp(database: database)])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            try await press(client, ["1", "2"], token: token)
            // The segment changed; the wheels still carry the Data units, which are ignored.
            _ = try await post(client, "category=temperature&from=kilobyte&to=megabyte&convention=binary", token: token)
            var html = try await screen(client)
            #expect(checked("category", in: html) == ["temperature"])
            #expect(checked("from", in: html) == ["celsius"] && checked("to", in: html) == ["fahrenheit"])
            #expect(labels(html) == ("12", "53.6"))
            #expect(!html.contains("converter-conventions"))
            #expect(html.contains(#"id="converter-key-sign" data-key="- ±" aria-label="Plus or minus">±</button>"#))
            // −40 is where the scales meet.
            try await press(client, ["delete", "delete", "4", "0", "sign"], token: token)
            #expect(labels(try await screen(client)) == ("−40", "−40"))
            // Wheels: Fahrenheit → Kelvin is rounded, and says so.
            try await press(client, ["sign", "delete", "delete", "1", "0", "0"], token: token)
            _ = try await post(client, "category=temperature&from=fahrenheit&to=kelvin", token: token)
            html = try await screen(client)
            #expect(labels(html) == ("100", "310.927777778"))
            #expect(html.contains(#"<span aria-hidden="true">≈</span><span class="visually-hidden">equals about</span>"#))
            // Back on Data, the Data units are remembered.
            _ = try await post(client, "category=data&from=kelvin&to=kelvin", token: token)
            html = try await screen(client)
            #expect(checked("from", in: html) == ["byte"] && labels(html) == ("100", "100"))
        }
    }

    @Test func belowAbsoluteZeroIsExplainedInsteadOfConverted() async throws {
        let database = try ConverterDatabase.inMemory()
        let app = try await makeApplication(apps: [ConverterApp(database: database)])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            _ = try await post(client, "category=temperature", token: token)
            try await press(client, ["3", "0", "0", "sign"], token: token)
            let html = try await screen(client)
            #expect(labels(html) == ("−300", "—"))
            #expect(html.contains(#"class="converter__message converter__message--error""#))
            #expect(html.contains("−300 °C is below absolute zero (−273.15 °C)"))
            #expect(!html.contains("data-copy"))
        }
    }

    @Test func swapExchangesTheUnits() async throws {
        let database = try ConverterDatabase.inMemory()
        let app = try await makeApplication(apps: [ConverterApp(database: database)])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            try await press(client, ["2", "0", "4", "8"], token: token)
            _ = try await post(client, "category=data&from=byte&to=kilobyte", token: token)
            #expect(labels(try await screen(client)) == ("2,048", "2"))
            _ = try await post(client, "category=data&from=byte&to=kilobyte&swap=1", token: token)
            let html = try await screen(client)
            #expect(checked("from", in: html) == ["kilobyte"] && checked("to", in: html) == ["byte"])
            #expect(labels(html) == ("2,048", "2,097,152"))
        }
    }

    @Test func theConventionIsRememberedAndRelabelsTheWheels() async throws {
        let database = try ConverterDatabase.inMemory()
        // Route tests run as the owner (no sign-in yet), so the owner's screen is the one shown.
        let store = database.store(for: .firstOwner)
        let app = try await makeApplication(apps: [ConverterApp(database: database)])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            try await press(client, ["1"], token: token)
            _ = try await post(client, "category=data&from=kilobyte&to=byte&convention=binary", token: token)
            // The IEC segment: the wheels' rows are still the binary ones, and are ignored.
            _ = try await post(client, "category=data&from=byte&to=byte&convention=iec", token: token)
            var html = try await screen(client)
            #expect(checked("convention", in: html) == ["iec"])
            #expect(checked("from", in: html) == ["kibibyte"])
            #expect(html.contains("<span>Kibibyte</span>"))
            #expect(html.contains("1 KiB = 1,024 B"))
            #expect(labels(html) == ("1", "1,024"))
            _ = try await post(client, "category=data&from=kibibyte&to=byte&convention=decimal", token: token)
            html = try await screen(client)
            #expect(labels(html) == ("1", "1,000"))
            #expect(html.contains("1 kB = 1,000 B"))
        }
        #expect(try await store.state().convention == .decimal)
    }

    // MARK: Refusals

    @Test func changesNeedTheToken() async throws {
        let database = try ConverterDatabase.inMemory()
        // Route tests run as the owner (no sign-in yet), so the owner's screen is the one shown.
        let store = database.store(for: .firstOwner)
        let app = try await makeApplication(apps: [ConverterApp(database: database)])
        try await app.test(.router) { client in
            try await client.execute(uri: "/converter", method: .post, headers: Self.form, body: ByteBuffer(string: "key=5")) { response in
                #expect(response.status == .forbidden)
                #expect(response.text.contains("This page has expired"))
            }
            let token = try await client.sessionToken()
            try await client.execute(uri: "/converter", method: .post, headers: [.contentType: "application/x-www-form-urlencoded", .cookie: "pocket_csrf=\(token)"], body: ByteBuffer(string: "key=5")) { response in
                #expect(response.status == .forbidden)
            }
        }
        #expect(try await store.state() == .firstLaunch)
    }

    @Test func formsTheScreenCouldNotHaveSentAreFriendly400Pages() async throws {
        let database = try ConverterDatabase.inMemory()
        // Route tests run as the owner (no sign-in yet), so the owner's screen is the one shown.
        let store = database.store(for: .firstOwner)
        let app = try await makeApplication(apps: [ConverterApp(database: database)])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            let cases: [(body: String, message: String)] = [
                ("from=furlong", "There is no unit “furlong”."),
                ("to=%3Cscript%3E", "There is no unit “&lt;script&gt;”."),
                ("key=x", "The keypad has no “x” key."),
                ("key=10", "The keypad has no “10” key."),
                ("category=colour", "There is no “colour” category."),
                ("convention=metric", "There is no “metric” data convention."),
                ("category=data&from=kilogram&to=byte", "&#39;kilogram&#39; is not one of the Data units; choose one of: bit, B, KB, MB, GB, TB"),
            ]
            for (body, message) in cases {
                let response = try await post(client, body, token: token)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.text.contains("Bad Request"), "\(body)")
                #expect(response.text.contains(message), "\(body): \(response.text)")
                #expect(!response.text.contains("<script>"))
            }
        }
        #expect(try await store.state() == .firstLaunch)
    }

    // MARK: Persistence

    @Test func theScreenSurvivesARestartOnTheSameDatabase() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("converter-web-\(UUID().uuidString).sqlite")
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        }
        let first = try await makeApplication(apps: [ConverterApp(database: try ConverterDatabase.onDisk(at: url))])
        try await first.test(.router) { client in
            let token = try await client.sessionToken()
            _ = try await post(client, "category=length", token: token)
            _ = try await post(client, "category=length&from=mile&to=kilometre", token: token)
            try await press(client, ["2", "6", ".", "2"], token: token)
        }
        let second = try await makeApplication(apps: [ConverterApp(database: try ConverterDatabase.onDisk(at: url))])
        try await second.test(.router) { client in
            let html = try await screen(client)
            #expect(checked("category", in: html) == ["length"])
            #expect(checked("from", in: html) == ["mile"] && checked("to", in: html) == ["kilometre"])
            #expect(labels(html) == ("26.2", "42.1648128"))
        }
    }

    // MARK: Page model

    @Test func longNumbersGetSmallerSizeClasses() {
        #expect(ConverterScreen.Model.size(of: "0") == "w3")
        #expect(ConverterScreen.Model.size(of: "12,288") == "w4")
        #expect(ConverterScreen.Model.size(of: "0.01171875") == "w7")
        // The minus sign is wide in DejaVu Sans (0.84 em): at 375 px this must not wrap.
        #expect(ConverterScreen.Model.size(of: "−273.15") == "w5")
        #expect(ConverterScreen.Model.size(of: "999,999,999,999,999") == "w11")
        #expect(ConverterScreen.Model.size(of: "1.23456789012×10¹⁵") == "w11")
        #expect(ConverterScreen.Model.size(of: String(repeating: "8", count: 40)) == "w12")
    }

    @Test func conventionCaptionsComeFromTheCatalog() {
        #expect(DataConvention.binary.caption == "1 KB = 1,024 B")
        #expect(DataConvention.decimal.caption == "1 kB = 1,000 B")
        #expect(DataConvention.iec.caption == "1 KiB = 1,024 B")
    }

    @Test func theFormAppliesOnlyWhatChanged() throws {
        var state = ConverterState.firstLaunch
        var form = try ConverterForm(fields: FormFields(urlEncoded: "category=data&from=kilobyte&to=megabyte&key=7"))
        #expect(try form.apply(to: &state) == .accepted)
        #expect(state.units == UnitPair(from: "kilobyte", to: "megabyte") && state.input.display == "7")
        form = try ConverterForm(fields: FormFields(urlEncoded: "category=mass&from=kilobyte&to=megabyte&key=7"))
        #expect(try form.apply(to: &state) == .accepted)
        #expect(state.category == .mass && state.units == UnitPair(from: "kilogram", to: "pound"))
        #expect(state.input.display == "77")
        #expect(try ConverterForm().apply(to: &state) == nil)
    }
}
