import Conference
import Converter
import Foundation
import Murals
import Plates
import PocketCore
import PocketWeb
import Remote

/// Builds every registered app with its live stores, all kept in the data directory, and hands
/// the stores that hold each person's data to exports and imports too.
func makeApps(dataDirectory: DataDirectory, environment: [String: String], conference: ConferenceOptions,
              muralsDemo: Bool = false) async throws -> (apps: [any PocketApp], personal: PersonalDataStores) {
    let catalog = try StateCatalog.bundled()
    let platesDatabase = try PlatesDatabase.onDisk(at: dataDirectory.file("plates.sqlite"), catalog: catalog)
    let plates = PlatesApp(
        database: platesDatabase,
        catalog: catalog,
        images: PlateImageCache(
            folder: try dataDirectory.folder("plates-images"),
            fetcher: LiveHTTPFetcher(),
            base: environment["POCKET_PLATES_IMAGE_BASE"].flatMap { $0.isEmpty ? nil : URL(string: $0) }
        )
    )
    let remote = RemoteApp(store: try RemoteDatabase.onDisk(at: dataDirectory.file("remote.sqlite")))
    let converterDatabase = try ConverterDatabase.onDisk(at: dataDirectory.file("converter.sqlite"))
    let converter = ConverterApp(database: converterDatabase)
    let talkTexts: URL
    do {
        talkTexts = try TalkTextSource.resolve(environment: environment)
    } catch {
        throw CommandFailure(description: error.description)
    }
    let library = try await ConferenceLibrary.open(dataDirectory: dataDirectory)
    let conferenceApp = ConferenceApp(
        library: library,
        manifestURL: conference.manifestURL,
        talkTextBase: talkTexts,
        autoUpdate: conference.autoUpdate
    )
    let muralsDatabase = try MuralsDatabase.onDisk(at: dataDirectory.file(muralsDemo ? "murals-demo.sqlite" : "murals.sqlite"))
    let murals = try makeMuralsApp(dataDirectory: dataDirectory, environment: environment, demo: muralsDemo, store: muralsDatabase)
    let personal = PersonalDataStores(plates: platesDatabase, murals: muralsDatabase, converter: converterDatabase, conference: library)
    return ([conferenceApp, remote, murals, converter, plates], personal)
}

/// The Murals app: the real service (or `POCKET_MURALS_URL` / `POCKET_MURALS_IMAGES_URL`), or with
/// `--demo` Pocket's built-in demo service; Leaflet from `POCKET_LEAFLET_DIR` or Debian's folder;
/// map tiles from OpenStreetMap unless `POCKET_MURALS_TILES` names another tile server.
func makeMuralsApp(dataDirectory: DataDirectory, environment: [String: String], demo: Bool, store: MuralsDatabase) throws -> MuralsApp {
    let service = demo ? MuralsService.demo : try MuralsService.live(environment: environment)
    let leafletFolder = environment["POCKET_LEAFLET_DIR"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
    var tiles = MuralsTiles.openStreetMap
    if let template = environment["POCKET_MURALS_TILES"], !template.isEmpty {
        guard let custom = MuralsTiles(template: template) else {
            throw CommandFailure(description: "invalid POCKET_MURALS_TILES '\(template)': use an http or https tile address with {z}, {x} and {y}, such as \(MuralsTiles.openStreetMap.template)")
        }
        tiles = custom
    }
    // A demo keeps its own murals and pictures, so trying it never mixes with the real ones.
    let prefix = demo ? "murals-demo" : "murals"
    return MuralsApp(
        store: store,
        service: service,
        imageFolder: try dataDirectory.folder("\(prefix)-images"),
        leaflet: LeafletAssets.load(from: leafletFolder ?? LeafletAssets.defaultFolder),
        tiles: tiles
    )
}

/// How `pocket serve` keeps the Conference database current.
struct ConferenceOptions {
    /// Where the sci-core manifest is (`--manifest-url`, `POCKET_SCI_MANIFEST_URL`, or the default).
    var manifestURL: URL
    /// Install a new database at start-up without asking (`--auto-update`).
    var autoUpdate: Bool
}
