/// Where plates/app.js writes a value from the page into the server's words (`fillSlot` in
/// js/plates/game.js): a count, the time of a spot, a state's name. Words with one such value carry
/// it as a pattern, so they are written once, in Swift, and never again in JavaScript.
enum PlatesSlot {
    static let marker = "{}"
}

/// A number in words that plates/app.js changes when the game changes on the phone before the server
/// has heard (offline, or while a change is on its way): the page shows `text`, and the element
/// carries `pattern`, the same words with `PlatesSlot.marker` where plates/app.js writes the new
/// number. So the words, and the total of states in them, are written once, here.
struct CountText: Sendable, Hashable {
    /// The words with the number in them, as the page shows them.
    let text: String
    /// The same words with `PlatesSlot.marker` in place of the number.
    let pattern: String

    init(_ count: Int, _ words: (String) -> String) {
        text = words(String(count))
        pattern = words(PlatesSlot.marker)
    }

    /// "Score: 3 / 50", in the list's toolbar.
    static func score(_ score: Int, total: Int) -> CountText {
        CountText(score) { "Score: \($0) / \(total)" }
    }

    /// "3 of 50", beside the list's Map row.
    static func mapDetail(_ score: Int, total: Int) -> CountText {
        CountText(score) { "\($0) of \(total)" }
    }

    /// "3 of 50 states", above the map.
    static func mapScore(_ score: Int, total: Int) -> CountText {
        CountText(score) { "\($0) of \(total) states" }
    }

    /// "3 / 50", beside a trip.
    static func tripScore(_ score: Int, total: Int) -> CountText {
        CountText(score) { "\($0) / \(total)" }
    }

    /// "2 finished", beside the list's Trips row.
    static func finishedTrips(_ count: Int) -> CountText {
        CountText(count) { "\($0) finished" }
    }
}
