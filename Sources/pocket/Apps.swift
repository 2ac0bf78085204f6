import Converter
import Foundation
import Plates
import PocketCore
import PocketWeb
import Remote

/// Builds every registered app with its live stores, all kept in the data directory.
func makeApps(dataDirectory: DataDirectory, environment: [String: String]) throws -> [any PocketApp] {
    let catalog = try StateCatalog.bundled()
    let plates = PlatesApp(
        store: try PlatesDatabase.onDisk(at: dataDirectory.file("plates.sqlite"), catalog: catalog),
        catalog: catalog,
        images: PlateImageCache(
            folder: try dataDirectory.folder("plates-images"),
            fetcher: LiveHTTPFetcher(),
            base: environment["POCKET_PLATES_IMAGE_BASE"].flatMap { $0.isEmpty ? nil : URL(string: $0) }
        )
    )
    let remote = RemoteApp(store: try RemoteDatabase.onDisk(at: dataDirectory.file("remote.sqlite")))
    let converter = ConverterApp(store: try ConverterDatabase.onDisk(at: dataDirectory.file("converter.sqlite")))
    return [remote, converter, plates]
}
