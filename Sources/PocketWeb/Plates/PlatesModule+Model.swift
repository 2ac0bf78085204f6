import Plates

/// What the offline module (`js/plates/app.js`) is told on a Plates screen's `data-module`
/// element: the game the screen shows (the spotted states and finished trips; every screen gives
/// the same facts, so whichever screen a phone shows offline, the waiting changes are applied to
/// the same game) and the addresses it needs, so no route is written in JavaScript: where changes
/// go, the forms that reset the game and start a trip, and the list a New Trip returns to. A
/// state's spot and un-spot addresses are on its cell.
struct PlatesModule: Sendable, Hashable {
    /// The module's versioned URL.
    let url: String
    /// The current trip's spotted states, space-separated, in order.
    let spotted: String
    /// Finished trips that have a plate (those the history lists).
    let finished: Int

    init(url: String, game: GameSnapshot, trips: [TripSummary]) {
        self.url = url
        spotted = game.spots.keys.sorted().joined(separator: " ")
        finished = trips.filter { !$0.trip.isCurrent && $0.score > 0 }.count
    }

    /// The attributes, for the screen's module element.
    var attributes: HTML {
        """
         data-module="\(url)" data-spotted="\(spotted)" data-finished="\(finished)" data-changes="\(PlatesRoute.changes.href())"\
         data-reset="\(PlatesRoute.reset.href())" data-new-trip="\(PlatesRoute.newTrip.href())" data-list="\(PlatesRoute.list.href())"
        """
    }
}
