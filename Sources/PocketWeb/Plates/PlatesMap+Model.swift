import Plates

/// The tile-grid map: one square per state, filled in as it is spotted.
enum PlatesMap {
    struct Model: Sendable {
        struct Tile: Sendable {
            let code: String
            let name: String
            let spotted: Bool
            let href: String
            let placement: String
            let label: String
        }

        /// A tile's label while its state is white, and once it is spotted; with the slot for the
        /// name (a tile's title), plates/app.js switches between them when a spot changes on the phone.
        static func labelWhite(_ name: String) -> String { "\(name), not spotted yet" }
        static func labelSpotted(_ name: String) -> String { "\(name), spotted" }

        let tiles: [Tile]
        let score: CountText
        let total: Int
        let complete: Bool
        let remaining: [String]
        let hasRemaining: Bool
        /// The offline module and the game it is told about, or nil for none.
        var module: PlatesModule?

        init(catalog: StateCatalog, game: GameSnapshot) {
            tiles = catalog.states.map { state in
                let spotted = game.isSpotted(state.code)
                return Tile(
                    code: state.code,
                    name: state.name,
                    spotted: spotted,
                    href: PlatesRoute.state.href(state.code) + "?from=map",
                    // Grid placement by class (no inline styles under the CSP).
                    placement: "tile--r\(state.tile.row) tile--c\(state.tile.column)",
                    label: spotted ? Self.labelSpotted(state.name) : Self.labelWhite(state.name)
                )
            }
            score = .mapScore(game.score, total: catalog.count)
            total = catalog.count
            complete = game.score == catalog.count
            remaining = catalog.states.filter { !game.isSpotted($0.code) }.map(\.name)
            hasRemaining = !remaining.isEmpty && remaining.count <= 10
        }
    }
}
