import Foundation
import Murals
import PocketCore

// The list page's model, made once per set of inputs.
//
// Why: the page's inputs (the kept murals, a person's stars and visits, where they are) are the
// same from one request to the next far more often than not, while making the model formats
// every mural's distance, coordinates and links, and the page memo then hashed all that text to
// find the page: together a fifth of the page's time under load (issue #14). Kept by its inputs,
// the model comes back as the same values, which compare by identity in no time.

extension MuralsHome {
    /// Everything `Model` is made from; the model is a pure function of it.
    struct Inputs: Sendable, Hashable {
        let murals: [Mural]
        let favourites: Set<Int>
        let visited: Set<Int>
        let position: GeoCoordinate?
        let filter: MuralsFilter
        let status: MuralsSyncStatus
        let map: MuralsMapConfig
        let start: GeoCoordinate

        // Sizes and choices find the entry; `==` (synthesized) still compares everything, so two
        // inputs that merely hash alike never share a model. The murals and the sets come from the
        // stores' caches, which hand out the same storage until a commit: those compare by identity.
        func hash(into hasher: inout Hasher) {
            hasher.combine(murals.count)
            hasher.combine(murals.first?.id)
            hasher.combine(favourites.count)
            hasher.combine(visited.count)
            hasher.combine(position)
            hasher.combine(filter)
            hasher.combine(status.updatedText)
            hasher.combine(status.isOffline)
        }
    }

    /// Models already made, by their inputs.
    final class ModelMemo: Sendable {
        /// Beyond this many, all are forgotten: positions come from outside.
        static let capacity = 64

        private let models: BoundedMemo<Inputs, Model>

        /// An empty memo; one not `keeping` makes every model afresh (the page benchmark's pass-through).
        init(keeping: Bool = true) {
            models = BoundedMemo(capacity: Self.capacity, keeping: keeping)
        }

        /// The model of `inputs`, made now or kept from an earlier request.
        func model(for inputs: Inputs) -> Model {
            models.value(for: inputs) { Model(inputs) }
        }

        /// How many models are kept (for tests).
        var count: Int {
            models.count
        }
    }
}

extension MuralsHome.Model {
    // The page memo hashes the whole model on every request: the cells' ids and marks and the
    // page's choices are enough to tell pages apart, and `==` compares the rest.
    func hash(into hasher: inout Hasher) {
        hasher.combine(cells.count)
        for cell in cells {
            hasher.combine(cell.id)
            hasher.combine(cell.favourite.isFavourite)
            hasher.combine(cell.visited)
        }
        hasher.combine(filterValue)
        hasher.combine(positionParam)
        hasher.combine(status.updatedText)
        hasher.combine(status.isOffline)
    }
}
