import Foundation
import Hummingbird
import HummingbirdTesting
import Plates
import PocketCore
import Testing
@testable import PocketWeb

/// What plates/app.js is given to change a Plates page on the phone: the `<template>`s it copies (one
/// per variant, not per state), each cell's data attributes, words with a slot for a count or a
/// name, and the module's addresses, all rendered by the server and escaped. The game here has two
/// states, one named to break out of every attribute and element.
@Suite("Plates templates")
struct PlatesTemplateTests {
    static let name = #"Al"><script>alert(1)</script>'&"#
    static let nickname = #"<img src=x onerror=alert(2)>"#
    /// The hostile name and nickname as HTML escapes them, in text and attributes alike.
    static let escapedName = "Al&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&#39;&amp;"
    static let escapedNickname = "&lt;img src=x onerror=alert(2)&gt;"

    private func app() throws -> PlatesApp {
        let json = """
            [{"name": \(try Self.jsonString(Self.name)), "nickname": \(try Self.jsonString(Self.nickname)), "plateImageURL": "http://www.15q.net/al09a.jpg"},
             {"name": "Texas", "nickname": "The Lone Star State", "plateImageURL": "http://www.15q.net/tx09.jpg"}]
            """
        let catalog = try StateCatalog(json: Data(json.utf8))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plates-templates-\(UUID().uuidString)")
        let images = PlateImageCache(folder: folder, fetcher: LiveHTTPFetcher(), base: URL(string: "http://127.0.0.1:9"), patience: .seconds(3))
        return PlatesApp(database: try PlatesDatabase.inMemory(catalog: catalog), catalog: catalog, images: images)
    }

    private static func jsonString(_ value: String) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    private static func count(_ needle: String, in html: String) -> Int {
        html.components(separatedBy: needle).count - 1
    }

    /// Nothing from the hostile state became markup: the only scripts are the layout's own two,
    /// there is no image, and neither raw text appears anywhere.
    private static func expectNoInjection(_ html: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(count("<script", in: html) == 2, sourceLocation: sourceLocation)
        #expect(!html.contains("<img"), sourceLocation: sourceLocation)
        #expect(!html.contains(name) && !html.contains(nickname), sourceLocation: sourceLocation)
        #expect(!html.contains("'&") && !html.contains(#"Al">"#), sourceLocation: sourceLocation)
    }

    @Test func theListCarriesOneTemplatePerVariantAndEachCellItsEscapedData() async throws {
        let app = try await makeApplication(apps: [try app()])
        try await app.test(.router) { client in
            let html = try await client.execute(uri: "/plates", method: .get) { $0.text }
            Self.expectNoInjection(html)
            for id in ["plates-cell-white", "plates-cell-spotted", "plates-unspot-alert"] {
                #expect(Self.count(#"<template id="\#(id)">"#, in: html) == 1, "\(id)")
            }
            #expect(Self.count("<template", in: html) == 3)
            // The templates are the server's own controls with nothing of a state in them.
            #expect(html.contains(#"<template id="plates-cell-white"><form class="cell__form" method="post" action=""><input type="hidden" name="_csrf""#))
            #expect(html.contains(#"data-sound="/plates/sounds/spot.wav" aria-label=""><span class="cell__text"><span class="cell__title"></span><span class="cell__subtitle"></span></span></button></form></template>"#))
            #expect(html.contains(#"<template id="plates-cell-spotted"><a class="cell__main" href="" data-dialog="unspot-template" aria-label="">"#))
            #expect(html.contains(#"<template id="plates-unspot-alert"><dialog class="alert" id="unspot-template" aria-labelledby="unspot-template-title""#))
            #expect(html.contains(#"<h2 class="alert__title" id="unspot-template-title">Reset {}?</h2>"#))
            #expect(html.contains(#"<p class="alert__message" id="unspot-template-message">{} goes back to white and your score goes down by one.</p>"#))
            #expect(html.contains(#"commandfor="unspot-template" command="close">Cancel</button>"#))
            #expect(html.contains(#"data-sound="/plates/sounds/unspot.wav">Un-spot</button>"#))
            // Each cell: its addresses, name, labels and alert, escaped; the hostile state's too.
            #expect(html.contains("""
                <li class="cell" id="state-AL" data-state="AL" data-name="\(Self.escapedName)" data-nickname="\(Self.escapedNickname)" \
                data-spot="/plates/states/AL/spot" data-unspot="/plates/states/AL/unspot" \
                data-label-white="\(Self.escapedName), \(Self.escapedNickname): mark spotted" \
                data-label-spotted="\(Self.escapedName), \(Self.escapedNickname): spotted. Reset?" \
                data-alert="unspot-AL">
                """))
            #expect(html.contains(#"<li class="cell" id="state-TX" data-state="TX" data-name="Texas" data-nickname="The Lone Star State""#))
            // The counts in the server's words, the total from the catalog, never 50.
            #expect(html.contains(#"id="plates-score" role="status" data-score-text="Score: {} / 2">Score: 0 / 2</span>"#))
            #expect(html.contains(#"<span class="cell__detail" data-score-text="{} of 2">0 of 2</span>"#))
            #expect(html.contains(#"<span class="cell__detail" data-finished-text="{} finished">0 finished</span>"#))
            #expect(!html.contains("/ 50") && !html.contains("of 50"))
            // Where changes go and the forms that change the whole game.
            #expect(html.contains(#"data-finished="0" data-changes="/plates/changes" data-reset="/plates/reset" data-new-trip="/plates/trips" data-list="/plates">"#))
        }
    }

    @Test func templatesFollowTheSettingsAndASpottedCellKeepsItsData() async throws {
        let app = try await makeApplication(apps: [try app()])
        try await app.test(.router) { client in
            let token = try await client.sessionToken()
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .cookie: "pocket_csrf=\(token)"]
            _ = try await client.execute(uri: "/plates/settings", method: .post, headers: form, body: ByteBuffer(string: "_csrf=\(token)&location=on"))
            _ = try await client.execute(uri: "/plates/states/AL/spot", method: .post, headers: form, body: ByteBuffer(string: "_csrf=\(token)"))
            let html = try await client.execute(uri: "/plates", method: .get) { $0.text }
            Self.expectNoInjection(html)
            // Sounds off, location on: the template's form is the cells' form.
            #expect(!html.contains("data-sound"))
            #expect(html.contains(#"<template id="plates-cell-white"><form class="cell__form" method="post" action="" data-geolocate>"#))
            #expect(html.contains(#"<li class="cell cell--bg-green cell--spotted" id="state-AL" data-state="AL" data-name="\#(Self.escapedName)""#))
            #expect(html.contains(#"<a class="cell__main" href="/plates/states/AL/unspot" data-dialog="unspot-AL" aria-label="\#(Self.escapedName), \#(Self.escapedNickname): spotted. Reset?">"#))
            #expect(html.contains(#"<h2 class="alert__title" id="unspot-AL-title">Reset \#(Self.escapedName)?</h2>"#))
            #expect(html.contains(#"data-score-text="Score: {} / 2">Score: 1 / 2</span>"#))
        }
    }

    @Test func aStatePageCarriesBothSpottingBlocksForItsState() async throws {
        let app = try await makeApplication(apps: [try app()])
        try await app.test(.router) { client in
            let page = try await client.execute(uri: "/plates/states/AL", method: .get) { $0.text }
            Self.expectNoInjection(page)
            #expect(Self.count("<template", in: page) == 5, "the list's three and the state's two")
            #expect(page.contains(#"<div class="list" id="plate-spotting">"#))
            #expect(page.contains("""
                <template id="plate-spotting-spotted"><div class="cell cell--bg-green"><div class="cell__main"><span class="cell__text">\
                <span class="cell__title" id="plate-spotted" data-time-text="Spotted today at {}"></span></span></div></div>
                <div class="cell"><a class="cell__main" href="/plates/states/AL/unspot?return=/plates/states/AL" data-dialog="unspot-AL">\
                <span class="cell__text"><span class="cell__title cell__title--destructive">Reset \(Self.escapedName)…</span></span></a></div></template>
                """))
            #expect(page.contains(#"<template id="plate-spotting-white"><div class="cell"><div class="cell__main">"#))
            #expect(page.contains(#"data-sound="/plates/sounds/spot.wav">I Spotted \#(Self.escapedName)</button></div></form></template>"#))
            #expect(page.contains(#"<li class="cell plates-cell--selected" id="state-AL" data-state="AL""#))
        }
    }

    @Test func theMapAndTripsGiveTheirLabelsAndCountsInTheServersWords() async throws {
        let app = try await makeApplication(apps: [try app()])
        try await app.test(.router) { client in
            let map = try await client.execute(uri: "/plates/map", method: .get) { $0.text }
            Self.expectNoInjection(map)
            #expect(map.contains(#"aria-label="\#(Self.escapedName), not spotted yet" title="\#(Self.escapedName)">AL</a>"#))
            #expect(map.contains(#"data-list="/plates" data-label-white="{}, not spotted yet" data-label-spotted="{}, spotted">"#))
            #expect(map.contains(#"<p class="plates-map__score" id="plates-map-score" data-score-text="{} of 2 states">0 of 2 states</p>"#))
            let trips = try await client.execute(uri: "/plates/trips", method: .get) { $0.text }
            #expect(trips.contains(#"<span class="cell__detail" data-score-text="{} / 2">0 / 2</span>"#))
            #expect(trips.contains(#"data-new-trip="/plates/trips""#))
        }
    }
}
