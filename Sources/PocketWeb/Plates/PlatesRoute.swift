import Hummingbird
import Plates

/// Every route of the Plates app, each declared once; `PlatesPages.endpoints` gives each its
/// handler, and links are built from the same values. A state is named by its code (`UT`).
enum PlatesRoute {
    /// The prefix every Plates URL starts with.
    static let prefix = "/plates"

    static let list = Route(.get, "", under: prefix)
    static let state = Route(.get, "states/:code", String.self, under: prefix)
    static let plateImage = Route(.get, "states/:code/plate", String.self, under: prefix)
    static let spot = Route(.post, "states/:code/spot", String.self, under: prefix)
    /// The un-spot alert, and un-spotting.
    static let confirmUnspot = Route(.get, "states/:code/unspot", String.self, under: prefix)
    static let unspot = Route(.post, "states/:code/unspot", String.self, under: prefix)
    /// The Reset Game alert, and resetting.
    static let confirmReset = Route(.get, "reset", under: prefix)
    static let reset = Route(.post, "reset", under: prefix)
    static let map = Route(.get, "map", under: prefix)
    /// The trips, the New Trip alert, and starting a new trip.
    static let trips = Route(.get, "trips", under: prefix)
    static let confirmNewTrip = Route(.get, "trips/new", under: prefix)
    static let newTrip = Route(.post, "trips", under: prefix)
    static let trip = Route(.get, "trips/:id", Int64.self, under: prefix)
    static let settings = Route(.post, "settings", under: prefix)
    static let sound = Route(.get, "sounds/:name", PlatesSound.self, under: prefix)
    /// The outbox's endpoint: one change as JSON (see `PlatesChanges`).
    static let changes = Route(.post, "changes", under: prefix)
}

/// A sound is served under its name with its type (`spot.wav`); the bare name is read too.
extension PlatesSound: PathValue {
    init?(pathPart: String) {
        self.init(rawValue: pathPart.hasSuffix(".wav") ? String(pathPart.dropLast(4)) : pathPart)
    }

    var pathPart: String { rawValue + ".wav" }
}
