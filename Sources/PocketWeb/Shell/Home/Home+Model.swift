import PocketCore

/// The springboard: a grid of the registered apps.
enum Home {
    struct Model: Sendable, Hashable {
        struct Tile: Sendable, Hashable {
            let name: String
            let href: String
            let icon: String
            let summary: String
        }

        let tiles: [Tile]
        let hasApps: Bool
        let designHref: String
        /// "Signed in as …", linking to Settings.
        let personName: String
        let settingsHref: String

        init(apps: [AppDescriptor], assets: AssetCatalog, person: Person?) {
            tiles = apps.map { Tile(name: $0.name, href: $0.href, icon: assets.url($0.icon), summary: $0.summary) }
            hasApps = !apps.isEmpty
            designHref = ShellRoute.design.href()
            personName = person?.name ?? ""
            settingsHref = PeopleRoute.settings.href()
        }
    }
}
