import Foundation

/// One of the fifty states whose plates the game asks you to spot.
public struct USState: Sendable, Equatable, Identifiable {
    /// Two-letter postal code, e.g. `AL`; the stable identifier in URLs and the database.
    public let code: String
    /// Full name, e.g. `Alabama`.
    public let name: String
    /// Nickname shown as the cell's subtitle.
    public let nickname: String
    /// Where a picture of the state's plate is published (plain HTTP on another host).
    public let plateImageURL: URL
    /// Position in the tile-grid map (row 0 at the top, column 0 at the west).
    public let tile: Tile

    /// The `Identifiable` identity.
    public var id: String { code }

    /// The section a state belongs in: the first letter of its name.
    public var sectionLetter: String { String(name.prefix(1)).uppercased() }

    /// A square in the tile-grid cartogram.
    public struct Tile: Sendable, Equatable, Hashable {
        /// Row from the top.
        public let row: Int
        /// Column from the west.
        public let column: Int
    }
}

/// A group of states sharing a first letter, as the list shows them.
public struct StateSection: Sendable, Equatable {
    /// The letter in the header.
    public let letter: String
    /// The states, alphabetical.
    public let states: [USState]
}
