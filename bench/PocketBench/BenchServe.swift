import ArgumentParser
import Conference
import Foundation
import Logging
import PocketCore
import PocketWeb

/// `pocket-bench serve`: Pocket's web front end as `pocket serve --demo` serves it on loopback, made
/// with the cache layers `--without` names as pass-throughs. `bench/pages.sh` runs two of these side
/// by side, one keeping every layer and one without some, to measure what those layers buy; Pocket
/// itself has no way to turn a cache off.
struct BenchServe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve Pocket (loopback, demo murals) with some cache layers passed through, for bench/pages.sh."
    )

    @Option(help: ArgumentHelp("The loopback port to listen on.", valueName: "port"))
    var port: Int

    @Option(help: ArgumentHelp("The data folder, made by `pocket` (people and the Conference database in it).", valueName: "path"))
    var dataDir: String

    @Option(help: ArgumentHelp("Cache layers to pass through, separated by commas: \(CacheLayer.allCases.map(\.rawValue).joined(separator: ", ")).",
                               valueName: "layers"))
    var without = ""

    func run() async throws {
        guard let layers = CacheLayer.layers(named: without) else {
            throw ValidationError("unknown cache layer in '\(without)': use \(CacheLayer.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let caches = Caches(passThrough: layers)
        let environment = ProcessInfo.processInfo.environment
        let configuration = try PocketConfiguration.resolve(options: .init(port: String(port), dataDirectory: dataDir, backups: false),
                                                            environment: environment)
        let sources = try PocketConfiguration.resolveAppSources(environment: environment)
        bootstrapLogging(level: .error)
        let dataDirectory = try DataDirectory(url: configuration.dataDirectory)
        let people = try PeopleDatabase.onDisk(at: dataDirectory.file("people.sqlite"), caches: caches)
        let made = try await makeApps(dataDirectory: dataDirectory, sources: sources,
                                      conference: ConferenceOptions(manifestURL: ManifestLocation.url(configured: nil), autoUpdate: false),
                                      muralsDemo: true, caches: caches)
        let app = try await buildApplication(
            configuration: configuration,
            apps: made.apps,
            people: WebPeople(store: people, reachableBaseURLs: { [configuration.baseURL] }),
            household: HouseholdData(personal: made.personal),
            resources: try WebResources.bundled(),
            logger: Logger(label: "pocket-bench"),
            caches: caches
        )
        try await app.runService()
    }
}
