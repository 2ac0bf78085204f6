import Foundation

/// The web app manifest that makes Pocket installable on a phone's home screen.
struct WebManifest: Encodable, Sendable {
    struct Icon: Encodable, Sendable {
        let src: String
        let sizes: String
        let type: String
        let purpose: String
    }

    struct Shortcut: Encodable, Sendable {
        let name: String
        let url: String
        let description: String
    }

    let name = "Pocket"
    let short_name = "Pocket"
    let description = "Five classic mobile apps in one: Conference, Remote, Murals, Converter and Plates."
    let id = "/"
    let start_url = "/"
    let scope = "/"
    let display = "standalone"
    let orientation = "any"
    let background_color = "#f2f2f7"
    let theme_color = "#f2f2f7"
    let icons: [Icon]
    let shortcuts: [Shortcut]

    init(apps: [AppDescriptor], assets: AssetCatalog) {
        icons = [
            Icon(src: assets.url("icons/pocket-192.png"), sizes: "192x192", type: "image/png", purpose: "any"),
            Icon(src: assets.url("icons/pocket-512.png"), sizes: "512x512", type: "image/png", purpose: "any"),
            Icon(src: assets.url("icons/pocket-maskable-512.png"), sizes: "512x512", type: "image/png", purpose: "maskable"),
            Icon(src: assets.url("icons/pocket.svg"), sizes: "any", type: "image/svg+xml", purpose: "any"),
        ]
        shortcuts = apps.map { Shortcut(name: $0.name, url: $0.href, description: $0.summary) }
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
