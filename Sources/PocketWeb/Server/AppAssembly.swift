import Conference
import Converter
import Foundation
import Murals
import Plates
import PocketCore
import Remote

/// Builds every registered app with its live stores, all kept in the data directory, and hands
/// the stores that hold each person's data to exports and imports too. `sources` are the apps'
/// outside addresses and folders, already resolved and checked by `PocketConfiguration`.
/// `pocket serve` keeps every cache; the page benchmark (`pocket-bench serve`) passes `caches`.
public func makeApps(dataDirectory: DataDirectory, sources: PocketConfiguration.AppSources, conference: ConferenceOptions,
                     muralsDemo: Bool = false, caches: Caches = .all) async throws -> (apps: [any PocketApp], personal: PersonalDataStores) {
    let catalog = try StateCatalog.bundled()
    let platesDatabase = try PlatesDatabase.onDisk(at: dataDirectory.file(AppDatabaseFile.plates), catalog: catalog, caches: caches)
    let plates = PlatesApp(
        database: platesDatabase,
        catalog: catalog,
        images: PlateImageCache(
            folder: try dataDirectory.folder("plates-images"),
            fetcher: LiveHTTPFetcher(),
            base: sources.platesImageBase
        )
    )
    let remote = RemoteApp(store: try RemoteDatabase.onDisk(at: dataDirectory.file(AppDatabaseFile.remote)))
    let converterDatabase = try ConverterDatabase.onDisk(at: dataDirectory.file(AppDatabaseFile.converter), caches: caches)
    let converter = ConverterApp(database: converterDatabase)
    let library = try await ConferenceLibrary.open(dataDirectory: dataDirectory, caches: caches)
    let conferenceApp = ConferenceApp(
        library: library,
        manifestURL: conference.manifestURL,
        talkTextBase: sources.sciTalks ?? TalkTextSource.defaultURL,
        autoUpdate: conference.autoUpdate
    )
    let muralsDatabase = try MuralsDatabase.onDisk(at: dataDirectory.file(muralsDatabaseFile(demo: muralsDemo)), caches: caches)
    let murals = try makeMuralsApp(dataDirectory: dataDirectory, sources: sources, demo: muralsDemo, store: muralsDatabase)
    let personal = PersonalDataStores(plates: platesDatabase, murals: muralsDatabase, converter: converterDatabase, conference: library,
                                      unservedMurals: dataDirectory.file(muralsDatabaseFile(demo: !muralsDemo)))
    return ([conferenceApp, remote, murals, converter, plates], personal)
}

/// The apps' own database files in the data directory (Murals' are `muralsDatabaseFile(demo:)`,
/// Conference's in its folder), named once for opening them and for deleting a removed person's rows.
public enum AppDatabaseFile {
    /// Plates' games.
    public static let plates = "plates.sqlite"
    /// The converter's screens.
    public static let converter = "converter.sqlite"
    /// The remote's TV and DVR, shared by the household.
    public static let remote = "remote.sqlite"
}

/// The Murals database a run opens: the demo keeps its own, so trying it never mixes with the
/// real murals (and only the one opened is migrated by that run).
public func muralsDatabaseFile(demo: Bool) -> String {
    demo ? "murals-demo.sqlite" : "murals.sqlite"
}

/// The Murals app: the real service (or the mirrors in `sources`), or with `--demo` Pocket's
/// built-in demo service; Leaflet from `sources`' folder or Debian's; map tiles from OpenStreetMap
/// unless `sources` names another tile server.
private func makeMuralsApp(dataDirectory: DataDirectory, sources: PocketConfiguration.AppSources, demo: Bool, store: MuralsDatabase) throws -> MuralsApp {
    let service = demo ? MuralsService.demo : MuralsService.live(endpoint: sources.muralsEndpoint, imageBase: sources.muralsImageBase)
    // The configuration has checked the template by the same rule, so nil here means none was given.
    let tiles = sources.muralsTileTemplate.flatMap(MuralsTiles.init(template:)) ?? .openStreetMap
    // A demo keeps its own murals and pictures, so trying it never mixes with the real ones.
    let prefix = demo ? "murals-demo" : "murals"
    return MuralsApp(
        store: store,
        service: service,
        imageFolder: try dataDirectory.folder("\(prefix)-images"),
        leaflet: LeafletAssets.load(from: sources.leafletDirectory ?? LeafletAssets.defaultFolder),
        tiles: tiles
    )
}

/// How `pocket serve` keeps the Conference database current.
public struct ConferenceOptions: Sendable {
    /// Where the sci-core manifest is (the configuration's `sciManifest`, else the default).
    public var manifestURL: URL
    /// Install a new database at start-up without asking (`--auto-update`).
    public var autoUpdate: Bool

    /// Options as `pocket serve` resolved them.
    public init(manifestURL: URL, autoUpdate: Bool) {
        self.manifestURL = manifestURL
        self.autoUpdate = autoUpdate
    }
}
