import Plates

/// What the offline module (`js/apps/plates.js`) is told about the game a Plates screen shows, on
/// the screen's `data-module` element: the spotted states, the finished trips and how many states
/// there are. Every screen gives the same facts, so whichever screen a phone shows offline, the
/// waiting changes are applied to the same game (the trips page knew no spots before).
struct PlatesModule: Sendable, Hashable {
    /// The module's versioned URL.
    let url: String
    /// The current trip's spotted states, space-separated, in order.
    let spotted: String
    /// Finished trips that have a plate (those the history lists).
    let finished: Int
    /// How many states the game has.
    let total: Int

    init(url: String, game: GameSnapshot, trips: [TripSummary], total: Int) {
        self.url = url
        spotted = game.spots.keys.sorted().joined(separator: " ")
        finished = trips.filter { !$0.trip.isCurrent && $0.score > 0 }.count
        self.total = total
    }

    /// The attributes, for the screen's module element.
    var attributes: HTML {
        " data-module=\"\(url)\" data-spotted=\"\(spotted)\" data-finished=\"\(finished)\" data-total=\"\(total)\""
    }
}
