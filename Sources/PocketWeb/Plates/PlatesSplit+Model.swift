/// "US States" as a split view: the list, and beside it (on an iPad) the state it was asked about.
/// On a phone the list shows alone at /plates and the state alone at /plates/states/XX.
enum PlatesSplit {
    struct Model: Sendable, Hashable {
        let list: PlatesList.Model
        /// The state page's contents, or nil for the list alone.
        let state: PlateState.Model?
        /// The offline module and the game it is told about, or nil for none.
        var module: PlatesModule?
    }
}
