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
            /// The tile's label while the state is white, and once it is spotted: plates.js
            /// switches between them when a spot changes on the phone.
            let labelWhite: String
            let labelSpotted: String

            var label: String { spotted ? labelSpotted : labelWhite }
        }

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
                    href: PlatesRoute.state(state.code).href + "?from=map",
                    // Grid placement by class (no inline styles under the CSP).
                    placement: "tile--r\(state.tile.row) tile--c\(state.tile.column)",
                    labelWhite: "\(state.name), not spotted yet",
                    labelSpotted: "\(state.name), spotted"
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
