import ArgumentParser
import Conference
import Foundation
import PocketCore

/// `pocket-bench conference-queries`: every Conference screen's query on a full-size database,
/// through the real `ConferenceLibrary`, as p50/p99 milliseconds.
struct ConferenceQueries: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conference-queries",
        abstract: "Time each Conference screen's query (p50/p99) on a database installed into a temporary data folder."
    )

    @Option(help: ArgumentHelp("A sci-core database, e.g. from `pocket conference generate-synthetic`.", valueName: "file"))
    var database: String

    @Option(help: ArgumentHelp("Timed calls per query, over varied ids (default 500).", valueName: "n"))
    var iterations = 500

    @Option(help: ArgumentHelp("Untimed calls per query first, to warm SQLite's cache (default 20).", valueName: "n"))
    var warmup = 20

    func run() async throws {
        guard iterations > 0, warmup >= 0 else { throw ValidationError("--iterations must be positive and --warmup not negative") }
        let file = URL(fileURLWithPath: database)
        guard FileManager.default.fileExists(atPath: file.path) else { throw BenchFailure(description: "\(file.path) does not exist") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pocket-bench-conference-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }

        let library = try await ConferenceLibrary.open(folder: folder)
        let installStart = ContinuousClock.now
        _ = try await DatabaseInstaller(library: library).importDatabase(at: file)
        let installTime = Samples.milliseconds(ContinuousClock.now - installStart)
        let status = try await library.status()
        let ids = try await QueryIDs.collect(from: library)

        var table = TextTable("query", "calls", "p50 ms", "p99 ms", "max ms")
        func measure(_ name: String, _ body: (Int) async throws -> Void) async throws {
            for index in 0..<warmup { try await body(index) }
            var samples = Samples()
            for index in 0..<iterations { try await samples.time { try await body(index) } }
            table.add(name, String(samples.count), formatMilliseconds(samples.percentile(0.5)),
                      formatMilliseconds(samples.percentile(0.99)), formatMilliseconds(samples.percentile(1)))
        }

        try await measure("conferences()") { _ in _ = try await library.conferences() }
        try await measure("conference(id:)") { index in _ = try await library.conference(id: ids.conferences[index % ids.conferences.count]) }
        try await measure("talk(id:)") { index in _ = try await library.talk(id: ids.talks[index % ids.talks.count]) }
        try await measure("citationVolumes()") { _ in _ = try await library.citationVolumes() }
        try await measure("citations(bookID:)") { index in _ = try await library.citations(bookID: ids.books[index % ids.books.count]) }
        try await measure("citations(bookID:chapter:)") { index in
            let (book, chapter) = ids.chapters[index % ids.chapters.count]
            _ = try await library.citations(bookID: book, chapter: chapter)
        }
        try await measure("citations(bookID:chapter:verse:)") { index in
            let (book, chapter, verse) = ids.verses[index % ids.verses.count]
            _ = try await library.citations(bookID: book, chapter: chapter, verse: verse)
        }
        try await measure("speakers()") { _ in _ = try await library.speakers() }
        try await measure("speaker(id:)") { index in _ = try await library.speaker(id: ids.speakers[index % ids.speakers.count]) }
        for prefix in QueryIDs.searches {
            try await measure("search(\"\(prefix)\")") { _ in _ = try await library.search(prefix) }
        }
        try await measure("recentTalks(of:)") { _ in _ = try await library.recentTalks(of: .firstOwner) }
        try await measure("bookmarkedTalks(of:)") { _ in _ = try await library.bookmarkedTalks(of: .firstOwner) }

        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
        print("Conference screen queries through ConferenceLibrary (\(buildKind))")
        print("date: \(ISO8601DateFormatter().string(from: Date()))")
        print("machine: \(machineDescription())")
        print("database: \(file.lastPathComponent), \(String(format: "%.1f", Double(size) / 1e6)) MB, "
              + "\(status.counts.conferences) conferences, \(status.counts.talks) talks, "
              + "\(status.counts.speakers) speakers, \(status.counts.citations) citations")
        print("import (verify, copy, search index): \(String(format: "%.0f", installTime)) ms")
        print("calls: \(warmup) untimed, then \(iterations) timed per query, cycling through \(ids.summary)")
        print("")
        print(table.text)
    }
}

/// Ids that exist in the database, in a fixed shuffled order, so each call asks for another row.
private struct QueryIDs {
    /// What the search box receives as someone types (word prefixes, two words, a miss).
    static let searches = ["f", "fai", "faith", "light of", "holland", "zzq"]

    var conferences: [Int] = []
    var talks: [Int] = []
    var books: [Int] = []
    var chapters: [(Int, Int)] = []
    var verses: [(Int, Int, Int?)] = []
    var speakers: [Int] = []

    var summary: String {
        "\(conferences.count) conferences, \(talks.count) talks, \(books.count) books, "
            + "\(chapters.count) chapters, \(verses.count) verses, \(speakers.count) speakers"
    }

    static func collect(from library: ConferenceLibrary) async throws -> QueryIDs {
        var ids = QueryIDs()
        var random = SplitMix64(seed: 42)
        ids.conferences = try await library.conferences().conferences.map(\.id)
        for id in ids.conferences {
            ids.talks += try await library.conference(id: id).sessions.flatMap(\.talks).map(\.id)
        }
        ids.books = try await library.citationVolumes().flatMap(\.books).filter { $0.citationCount > 0 }.map(\.book.id)
        for book in ids.books {
            ids.chapters += try await library.citations(bookID: book).chapters.filter { $0.citationCount > 0 }.map { (book, $0.chapter) }
        }
        ids.chapters.shuffle(using: &random)
        for (book, chapter) in ids.chapters.prefix(300) {
            ids.verses += try await library.citations(bookID: book, chapter: chapter).verses.map { (book, chapter, $0.verse) }
        }
        ids.speakers = try await library.speakers().flatMap(\.speakers).map(\.id)
        guard !ids.conferences.isEmpty, !ids.talks.isEmpty, !ids.books.isEmpty, !ids.chapters.isEmpty, !ids.verses.isEmpty,
              !ids.speakers.isEmpty else {
            throw BenchFailure(description: "the database lacks conferences, talks, citations or speakers: \(ids.summary)")
        }
        ids.talks.shuffle(using: &random)
        ids.conferences.shuffle(using: &random)
        ids.books.shuffle(using: &random)
        ids.verses.shuffle(using: &random)
        ids.speakers.shuffle(using: &random)
        // Ten opened and bookmarked talks, so those lists have rows to look up.
        for id in ids.talks.prefix(10) {
            try await library.recordView(talkID: id, by: .firstOwner)
            try await library.setBookmark(true, talkID: id, for: .firstOwner)
        }
        return ids
    }
}
