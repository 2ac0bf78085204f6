/// A number in words that plates.js changes when the game changes on the phone before the server
/// has heard (offline, or while a change is on its way): the page shows `text`, and the element
/// carries `pattern`, the same words with `slot` where plates.js writes the new number
/// (`fillSlot` in js/plates/game.js). So the words, and the total of states in them, are written
/// once, here, and never again in JavaScript.
struct CountText: Sendable, Hashable {
    /// Where the number goes in a pattern.
    static let slot = "{}"

    /// The words with the number in them, as the page shows them.
    let text: String
    /// The same words with `slot` in place of the number.
    let pattern: String

    init(_ count: Int, _ words: (String) -> String) {
        text = words(String(count))
        pattern = words(Self.slot)
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
