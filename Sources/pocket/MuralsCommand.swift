import ArgumentParser
import Foundation
import Logging
import Murals
import PocketCore

/// `pocket murals …`: the New Brighton murals from the command line.
struct MuralsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "murals",
        abstract: "The Murals app: sync the New Brighton murals, list them by distance, keep favourites.",
        discussion: """
            Murals are kept in murals.sqlite in the data directory. The first sync fetches every mural; \
            later ones only what changed since the day before the last successful sync. Favourites and \
            visits belong to a person: these commands use the owner's (person 1), the first person set up.
            """,
        subcommands: [Sync.self, List.self, Favourite.self, Unfavourite.self]
    )
}

extension MuralsCommand {
    /// `pocket murals sync`
    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "sync", abstract: "Fetch new and changed murals from the murals service.")

        @OptionGroup var data: DataOptions

        @Option(help: ArgumentHelp("Address of the murals service (env POCKET_MURALS_URL; default \(MuralsSynchronizer.defaultEndpoint.absoluteString)).", valueName: "url"))
        var url: String?

        @Option(help: ArgumentHelp("Seconds to wait for the service (default 20).", valueName: "seconds"))
        var timeout = 20

        func run() async throws {
            let endpoint = try PocketConfiguration.muralsEndpoint(option: url, environment: ProcessInfo.processInfo.environment) ?? MuralsSynchronizer.defaultEndpoint
            let (configuration, store) = try openStore(data)
            bootstrapLogging(level: configuration.logLevel)
            let synchronizer = MuralsSynchronizer(
                store: store,
                fetcher: LiveHTTPFetcher(),
                endpoint: endpoint,
                timeout: .seconds(max(1, timeout)),
                logger: Logger(label: "pocket.murals")
            )
            let summary = try await muralsFailure { () async throws(MuralsError) in try await synchronizer.sync() }
            let state = try await muralsFailure { try await store.syncState() }
            say(Self.line(summary, shown: state.muralCount))
        }

        /// "Synced 24 murals (full fetch): 24 new, 0 updated, 0 hidden, 1 skipped. 24 shown."
        static func line(_ summary: MuralsSyncSummary, shown: Int) -> String {
            let kind = summary.wasIncremental ? "changes since the last sync" : "full fetch"
            let noun = summary.received == 1 ? "mural" : "murals"
            return "Synced \(summary.received) \(noun) (\(kind)): \(summary.inserted) new, \(summary.updated) updated, "
                + "\(summary.hidden) hidden, \(summary.skipped) skipped. \(shown) shown."
        }
    }

    /// `pocket murals list`
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the saved murals, nearest first (★ marks the owner's favourites).")

        @OptionGroup var data: DataOptions

        @Option(help: ArgumentHelp("Measure from LAT,LON (default: New Brighton, 103–107 Victoria Road).", valueName: "lat,lon"))
        var near: String?

        @Flag(help: "Only the owner's favourites.")
        var favourites = false

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func run() async throws {
            let origin = try Self.origin(near)
            let imageBase = try PocketConfiguration.muralsImageBase(environment: ProcessInfo.processInfo.environment) ?? MuralsSynchronizer.defaultImageBase
            let (_, store) = try openStore(data)
            let (murals, favouriteIDs, visitedIDs) = try await muralsFailure {
                (try await store.murals(), try await store.favouriteIDs(of: cliPerson), try await store.visitedIDs(of: cliPerson))
            }
            let chosen = favourites ? murals.filter { favouriteIDs.contains($0.id) } : murals
            let ordered = MuralOrdering.byDistance(chosen, from: origin)
            if json {
                let rows = ordered.map { ListedMural($0, favourite: favouriteIDs.contains($0.mural.id), visited: visitedIDs.contains($0.mural.id), imageBase: imageBase) }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                let data = try encoder.encode(rows)
                print(String(decoding: data, as: UTF8.self))
                return
            }
            if ordered.isEmpty {
                let state = try await muralsFailure { try await store.syncState() }
                if favourites && !murals.isEmpty {
                    say("No favourites yet: add one with `pocket murals favourite ID`.")
                } else if state.lastSuccess == nil {
                    say("No murals saved yet: fetch them with `pocket murals sync`.")
                } else {
                    say("No murals to show.")
                }
                return
            }
            for line in Self.table(ordered, favourites: favouriteIDs) { say(line) }
        }

        /// The origin from `--near`, or New Brighton.
        static func origin(_ text: String?) throws -> GeoCoordinate {
            guard let text else { return NewBrighton.centre }
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let latitude = DecimalText.number(parts[0]), let longitude = DecimalText.number(parts[1]),
                  let coordinate = GeoCoordinate.validated(latitude: latitude, longitude: longitude) else {
                throw CommandFailure(description: "invalid --near '\(text)': give LAT,LON in decimal degrees, e.g. 53.4388,-3.0416")
            }
            return coordinate
        }

        /// Aligned columns: id, distance, ★, title, artist.
        static func table(_ rows: [MuralDistance], favourites: Set<Int>) -> [String] {
            let distances = rows.map { DistanceText.string(metres: $0.metres) }
            let titles = rows.map(\.mural.title)
            let idWidth = rows.map { String($0.mural.id).count }.max() ?? 1
            let distanceWidth = distances.map(\.count).max() ?? 1
            let titleWidth = min(40, titles.map(\.count).max() ?? 1)
            return rows.indices.map { index in
                let mural = rows[index].mural
                let id = String(repeating: " ", count: idWidth - String(mural.id).count) + String(mural.id)
                let distance = String(repeating: " ", count: distanceWidth - distances[index].count) + distances[index]
                let star = favourites.contains(mural.id) ? "★" : " "
                let title = titles[index].count > titleWidth ? String(titles[index].prefix(titleWidth - 1)) + "…" : titles[index]
                let padded = title + String(repeating: " ", count: max(0, titleWidth - title.count))
                return "\(id)  \(distance)  \(star) \(padded)  \(mural.artist ?? "Unknown artist")"
            }
        }
    }

    /// `pocket murals favourite ID`
    struct Favourite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "favourite", abstract: "Mark a mural as one of the owner's favourites.")

        @OptionGroup var data: DataOptions

        @Argument(help: ArgumentHelp("The mural's id (the first column of `pocket murals list`).", valueName: "id"))
        var id: Int

        func run() async throws {
            let (_, store) = try openStore(data)
            let mural = try await muralsFailure { () async throws in
                try await store.setFavourite(true, muralID: id, for: cliPerson)
                return try await store.mural(id: id)
            }
            say("★ \(mural?.title ?? "Mural \(id)") is a favourite.")
        }
    }

    /// `pocket murals unfavourite ID`
    struct Unfavourite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unfavourite", abstract: "Remove a mural from the owner's favourites.")

        @OptionGroup var data: DataOptions

        @Argument(help: ArgumentHelp("The mural's id.", valueName: "id"))
        var id: Int

        func run() async throws {
            let (_, store) = try openStore(data)
            let (wasFavourite, mural) = try await muralsFailure { () async throws in
                let was = try await store.favouriteIDs(of: cliPerson).contains(id)
                try await store.setFavourite(false, muralID: id, for: cliPerson)
                return (was, try await store.mural(id: id))
            }
            let name = mural?.title ?? "Mural \(id)"
            say(wasFavourite ? "\(name) is no longer a favourite." : "\(name) was not a favourite.")
        }
    }
}

// MARK: - Helpers

/// Whose favourites and visits the command line reads and changes: the owner's. The command line
/// has no sign-in (whoever can run it can read the data folder anyway), and the owner is the
/// person an upgraded single-user Pocket's favourites belong to.
private let cliPerson = PersonID.firstOwner

/// One row of `pocket murals list --json`.
private struct ListedMural: Encodable {
    let id: Int
    let title: String
    let artist: String?
    let info: String?
    let latitude: Double
    let longitude: Double
    let metres: Double
    let distance: String
    let favourite: Bool
    let visited: Bool
    let thumbnail: String?
    let images: [String]
    let lastModified: String

    init(_ row: MuralDistance, favourite: Bool, visited: Bool, imageBase: URL) {
        let mural = row.mural
        id = mural.id
        title = mural.title
        artist = mural.artist
        info = mural.info
        latitude = mural.coordinate.latitude
        longitude = mural.coordinate.longitude
        metres = (row.metres * 10).rounded() / 10
        distance = DistanceText.string(metres: row.metres)
        self.favourite = favourite
        self.visited = visited
        thumbnail = mural.thumbnail?.absoluteString
        images = mural.imageURLs(base: imageBase).map(\.absoluteString)
        lastModified = mural.lastModified
    }

    /// Writes every key, with explicit nulls, so scripts can rely on the shape.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(artist, forKey: .artist)
        try container.encode(info, forKey: .info)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encode(metres, forKey: .metres)
        try container.encode(distance, forKey: .distance)
        try container.encode(favourite, forKey: .favourite)
        try container.encode(visited, forKey: .visited)
        try container.encode(thumbnail, forKey: .thumbnail)
        try container.encode(images, forKey: .images)
        try container.encode(lastModified, forKey: .lastModified)
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, artist, info, latitude, longitude, metres, distance, favourite, visited, thumbnail, images, lastModified
    }
}

/// Opens murals.sqlite in the data directory chosen by --data-dir / POCKET_DATA_DIR.
private func openStore(_ data: DataOptions) throws -> (PocketConfiguration, MuralsDatabase) {
    let configuration = try PocketConfiguration.resolve(options: .init(data), environment: ProcessInfo.processInfo.environment)
    let directory = try openDataDirectory(configuration.dataDirectory)
    do {
        return (configuration, try MuralsDatabase.onDisk(at: directory.file("murals.sqlite")))
    } catch {
        throw CommandFailure(description: "the murals database could not be opened: \(error)")
    }
}

/// Runs `body`, turning its failure into one `pocket: …` line.
private func muralsFailure<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as MuralsError {
        throw CommandFailure(description: error.description)
    } catch {
        throw CommandFailure(description: "the saved murals could not be used: \(error)")
    }
}

/// The synchronous form, for resolving addresses.
private func muralsFailure<T>(_ body: () throws(MuralsError) -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw CommandFailure(description: error.description)
    }
}
