extension PlatesMap {
    /// The tile-grid map: a square per state, green once spotted, each leading to its state.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var body: HTML {
            """
            \(if: model.complete, """
            <p class="plates-celebration" role="status"><span class="plates-celebration__confetti" aria-hidden="true"></span>All \(model.total) states! What a trip.</p>
            """)
            <p class="plates-map__score" id="plates-map-score" data-score-text="\(model.score.pattern)">\(model.score.text)</p>
            <div class="plates-map-frame" data-scroll-edges>
            <nav class="plates-map" aria-label="Map of the states"\(unwrap: model.module, \.attributes)\
             data-label-white="\(Model.labelWhite(PlatesSlot.marker))" data-label-spotted="\(Model.labelSpotted(PlatesSlot.marker))">
            \(each: model.tiles, Self.tile)
            </nav>
            </div>
            \(if: model.hasRemaining, """
            <p class="list-section__footer">Still to find: \(each: model.remaining, { "<span class=\"plates-map__remaining\">\($0)</span>" })</p>
            """)
            """
        }

        private static func tile(_ tile: Model.Tile) -> HTML {
            """
            <a class="tile \(tile.placement)\(if: tile.spotted, " tile--spotted")" href="\(tile.href)" aria-label="\(tile.label)" title="\(tile.name)">\(tile.code)</a>
            """
        }
    }
}
