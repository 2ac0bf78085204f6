import ArgumentParser

/// `pocket-bench`: in-process benchmarks of Pocket's queries, syncs and page rendering, and Pocket served with caches passed through, run from bench/*.sh in a release build.
@main
struct PocketBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pocket-bench",
        abstract: "Measure Pocket's screen queries, syncs and page rendering (release build; see bench/README.md).",
        subcommands: [ConferenceQueries.self, MuralsBench.self, PlatesBench.self, BenchServe.self]
    )
}
