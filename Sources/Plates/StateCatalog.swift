import Foundation

/// The fifty states, read from the bundled `states.json` (provenance in `Resources/SOURCES.md`).
public struct StateCatalog: Sendable {
    /// Every state, alphabetical by name.
    public let states: [USState]
    /// Sections by first letter, only letters that have states, alphabetical inside: worked out
    /// once, since the list screen shows them on every request.
    public let sections: [StateSection]
    private let byCode: [String: USState]

    /// The number of states to spot.
    public var count: Int { states.count }

    /// Loads the bundled catalog.
    public static func bundled() throws(PlatesError) -> StateCatalog {
        guard let url = Bundle.module.url(forResource: "states", withExtension: "json") else {
            throw .catalogInvalid("states.json is missing from the Plates bundle")
        }
        do {
            return try StateCatalog(json: Data(contentsOf: url))
        } catch let error as PlatesError {
            throw error
        } catch {
            throw .catalogInvalid(error.localizedDescription)
        }
    }

    /// Parses `[{"name","nickname","plateImageURL"}]`; the postal code comes from the image's file name.
    public init(json: Data) throws(PlatesError) {
        struct Entry: Decodable {
            let name: String
            let nickname: String
            let plateImageURL: String
        }
        let entries: [Entry]
        do {
            entries = try JSONDecoder().decode([Entry].self, from: json)
        } catch {
            throw .catalogInvalid("states.json is not a list of states: \(error.localizedDescription)")
        }
        var states: [USState] = []
        for entry in entries {
            guard let url = URL(string: entry.plateImageURL), let scheme = url.scheme, ["http", "https"].contains(scheme) else {
                throw .catalogInvalid("\(entry.name) has no usable plate image URL")
            }
            // File names are <postal code><year>[a|b].jpg, e.g. al09a.jpg.
            let code = String(url.lastPathComponent.prefix(2)).uppercased()
            guard let tile = Self.tiles[code] else {
                throw .catalogInvalid("\(entry.name)'s plate image \(url.lastPathComponent) does not name a state")
            }
            states.append(USState(code: code, name: entry.name, nickname: entry.nickname, plateImageURL: url, tile: tile))
        }
        states.sort { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        let byCode = Dictionary(states.map { ($0.code, $0) }) { first, _ in first }
        guard byCode.count == states.count else { throw .catalogInvalid("two entries name the same state") }
        self.states = states
        self.byCode = byCode
        sections = Self.sections(of: states)
    }

    private static func sections(of states: [USState]) -> [StateSection] {
        var sections: [StateSection] = []
        for state in states {
            if let last = sections.last, last.letter == state.sectionLetter {
                sections[sections.count - 1] = StateSection(letter: last.letter, states: last.states + [state])
            } else {
                sections.append(StateSection(letter: state.sectionLetter, states: [state]))
            }
        }
        return sections
    }

    /// The state with a postal code, case-insensitively.
    public func state(code: String) -> USState? {
        byCode[code.uppercased()]
    }

    /// The grid's size: rows and columns.
    public var gridSize: (rows: Int, columns: Int) {
        ((states.map(\.tile.row).max() ?? 0) + 1, (states.map(\.tile.column).max() ?? 0) + 1)
    }
}

private extension StateCatalog {
    /// A tile-grid cartogram: each state one square, near its familiar place on the map.
    static let tiles: [String: USState.Tile] = {
        let rows: [[String?]] = [
            ["AK", nil, nil, nil, nil, nil, nil, nil, nil, nil, "ME"],
            [nil, nil, nil, nil, nil, nil, nil, nil, nil, "VT", "NH"],
            ["WA", "ID", "MT", "ND", "MN", "IL", "WI", "MI", "NY", "RI", "MA"],
            ["OR", "NV", "WY", "SD", "IA", "IN", "OH", "PA", "NJ", "CT", nil],
            ["CA", "UT", "CO", "NE", "MO", "KY", "WV", "VA", "MD", "DE", nil],
            [nil, "AZ", "NM", "KS", "AR", "TN", "NC", "SC", nil, nil, nil],
            [nil, nil, nil, "OK", "LA", "MS", "AL", "GA", nil, nil, nil],
            ["HI", nil, nil, "TX", nil, nil, nil, nil, "FL", nil, nil],
        ]
        var tiles: [String: USState.Tile] = [:]
        for (row, codes) in rows.enumerated() {
            for (column, code) in codes.enumerated() {
                if let code { tiles[code] = USState.Tile(row: row, column: column) }
            }
        }
        return tiles
    }()
}
