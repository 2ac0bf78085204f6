extension Home {
    /// The springboard's grid of apps, and links to the design system and Settings.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var body: HTML {
            """
            <nav class="springboard" aria-label="Apps">
            \(if: model.hasApps, """
            <ul class="springboard__grid" role="list">
            \(each: model.tiles, tile)</ul>
            """, else: """
            <p class="springboard__empty">No apps are registered in this build of Pocket yet.</p>
            """)
            </nav>
            <p class="springboard__footer"><a href="\(model.designHref)">Design system</a> · <a href="\(model.settingsHref)" id="home-settings">Settings (\(model.personName))</a> · Pocket \(pageContext.version)</p>
            """
        }

        private func tile(_ tile: Model.Tile) -> HTML {
            """
            <li><a class="app-tile" href="\(tile.href)" title="\(tile.summary)"><img class="app-tile__icon" src="\(tile.icon)" alt="" width="60" height="60"><span class="app-tile__name">\(tile.name)</span></a></li>

            """
        }
    }
}
