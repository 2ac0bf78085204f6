import ArgumentParser
import Conference
import Foundation
import PocketCore

/// `pocket-bench conference-queries`: every Conference screen's query, through the real
/// `ConferenceLibrary`, as p50/p99 milliseconds, on one database or side by side on several
/// (the synthetic one at 1× and at 8×, say), asking each the same questions.
struct ConferenceQueries: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conference-queries",
        abstract: "Time each Conference screen's query (p50/p99) on databases installed into temporary data folders.",
        discussion: """
            With several --database options the first is the reference: the ids asked for come from it, each \
            query runs on every database in turn, and the table shows each database's times and whether the \
            answer is the one the first database gives.
            """
    )

    @Option(name: .customLong("database"),
            help: ArgumentHelp("A sci-core database, e.g. from `pocket conference generate-synthetic`; repeat to compare.", valueName: "file"))
    var databases: [String]

    @Option(help: ArgumentHelp("Timed calls per query and database, over varied ids (default 500).", valueName: "n"))
    var iterations = 500

    @Option(help: ArgumentHelp("Untimed calls per query and database first, to warm SQLite's cache (default 20).", valueName: "n"))
    var warmup = 20

    /// Calls whose answers are compared (untimed), at most.
    static let comparedCalls = 200

    func run() async throws {
        guard iterations > 0, warmup >= 0 else { throw ValidationError("--iterations must be positive and --warmup not negative") }
        guard !databases.isEmpty else { throw ValidationError("give at least one --database") }
        var subjects: [Subject] = []
        defer { for subject in subjects { try? FileManager.default.removeItem(at: subject.folder) } }
        for path in databases {
            subjects.append(try await Subject.install(URL(fileURLWithPath: path)))
        }
        let ids = try await QueryIDs.collect(from: subjects[0].library)
        for subject in subjects { try await ids.prepareReadingState(in: subject.library) }

        let reference = subjects[0]
        var headers = ["query"]
        for subject in subjects {
            let label = subject.label(relativeTo: reference)
            headers += ["\(label) p50", "\(label) p99"]
        }
        if subjects.count > 1 {
            for subject in subjects.dropFirst() { headers += ["\(subject.label(relativeTo: reference)) answer"] }
        }
        var table = TextTable(headers: headers)

        for query in Query.all(ids) {
            var cells = [query.name]
            var answers: [String] = []
            // Each database in turn for every call, so a change in the machine's load falls on all of them.
            var samples = Array(repeating: Samples(), count: subjects.count)
            for index in 0..<warmup {
                for subject in subjects { _ = try await query.call(subject.library, index) }
            }
            for index in 0..<iterations {
                for (number, subject) in subjects.enumerated() {
                    try await samples[number].time { _ = try await query.call(subject.library, index) }
                }
            }
            for sample in samples {
                cells += [formatMilliseconds(sample.percentile(0.5)), formatMilliseconds(sample.percentile(0.99))]
            }
            for subject in subjects.dropFirst() {
                answers.append(try await query.compare(reference.library, subject.library, min(iterations, Self.comparedCalls)))
            }
            table.add(row: cells + answers)
        }

        print("Conference screen queries through ConferenceLibrary (\(buildKind))")
        print("date: \(ISO8601DateFormatter().string(from: Date()))")
        print("machine: \(machineDescription())")
        for subject in subjects {
            print("database \(subject.label(relativeTo: reference)): \(subject.description); "
                  + "import (verify, copy, indexes) \(String(format: "%.0f", subject.installMilliseconds)) ms")
        }
        print("calls: \(warmup) untimed, then \(iterations) timed per query and database, cycling through \(ids.summary) of the first database")
        if subjects.count > 1 {
            print("answer: how each database's answers to the first \(min(iterations, Self.comparedCalls)) calls compare with the first's: "
                  + "same; same+more (its rows, then more); counts (the same rows, other counts); counts+more; "
                  + "among more (its rows, others between them); other rows")
        }
        print("")
        print(table.text)
    }
}

/// One database installed into a temporary data folder.
private struct Subject {
    let file: URL
    let folder: URL
    let library: ConferenceLibrary
    let status: DatabaseStatus
    let installMilliseconds: Double

    static func install(_ file: URL) async throws -> Subject {
        guard FileManager.default.fileExists(atPath: file.path) else { throw BenchFailure(description: "\(file.path) does not exist") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pocket-bench-conference-\(UUID().uuidString)")
        let library = try await ConferenceLibrary.open(folder: folder)
        let start = ContinuousClock.now
        _ = try await DatabaseInstaller(library: library).importDatabase(at: file)
        let milliseconds = Samples.milliseconds(ContinuousClock.now - start)
        return Subject(file: file, folder: folder, library: library, status: try await library.status(), installMilliseconds: milliseconds)
    }

    /// "1×", "8×": the talk count against the reference's.
    func label(relativeTo reference: Subject) -> String {
        let ratio = Double(status.counts.talks) / Double(max(reference.status.counts.talks, 1))
        return ratio.rounded() == ratio ? "\(Int(ratio))×" : String(format: "%.1f×", ratio)
    }

    var description: String {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
        return "\(file.lastPathComponent), \(String(format: "%.1f", Double(size) / 1e6)) MB, \(status.counts.conferences) conferences, "
            + "\(status.counts.talks) talks, \(status.counts.speakers) speakers, \(status.counts.citations) citations"
    }
}

/// One screen's query: how to call it for the n-th id, and how two databases' answers compare.
private struct Query {
    let name: String
    let call: @Sendable (ConferenceLibrary, Int) async throws -> Void
    /// "same", or how the second database's answers to the first `calls` calls differ from the first's.
    let compare: @Sendable (ConferenceLibrary, ConferenceLibrary, Int) async throws -> String

    /// A query whose answer `rows` turns into comparable rows (with `key` naming each row without its counts).
    static func make<Answer: Sendable, Row: Equatable & Sendable, Key: Equatable & Sendable>(
        _ name: String, _ ask: @escaping @Sendable (ConferenceLibrary, Int) async throws -> Answer,
        rows: @escaping @Sendable (Answer) -> [Row], key: @escaping @Sendable (Row) -> Key
    ) -> Query {
        Query(name: name, call: { library, index in _ = try await ask(library, index) }, compare: { first, second, calls in
            var verdicts: [String: Int] = [:]
            for index in 0..<calls {
                let a = rows(try await ask(first, index)), b = rows(try await ask(second, index))
                verdicts[AnswerComparison.verdict(a, b, key: key), default: 0] += 1
            }
            return AnswerComparison.summary(verdicts)
        })
    }

    static func all(_ ids: QueryIDs) -> [Query] {
        var queries = [
            make("status()", { library, _ in try await library.status() }, rows: { [$0.counts] }, key: { _ in "counts" }),
            make("conferences()", { library, _ in try await library.conferences() }, rows: \.conferences, key: \.id),
            make("conference(id:)", { library, index in try await library.conference(id: ids.conferences[index % ids.conferences.count]) },
                 rows: { $0.sessions.flatMap(\.talks) }, key: \.id),
            make("talk(id:)", { library, index in try await library.talk(id: ids.talks[index % ids.talks.count]) },
                 rows: { [$0] }, key: \.id),
            make("citationVolumes()", { library, _ in try await library.citationVolumes() },
                 rows: { $0.flatMap { [CountRow(id: $0.volume.id, count: $0.citationCount)] + $0.books.map { CountRow(id: $0.book.id, count: $0.citationCount) } } },
                 key: \.id),
            make("citations(bookID:)", { library, index in try await library.citations(bookID: ids.books[index % ids.books.count]) },
                 rows: \.chapters, key: \.chapter),
            make("citations(bookID:chapter:)", { library, index in
                let (book, chapter) = ids.chapters[index % ids.chapters.count]
                return try await library.citations(bookID: book, chapter: chapter)
            }, rows: \.verses, key: \.verse),
            make("citations(bookID:chapter:verse:)", { library, index in
                let (book, chapter, verse) = ids.verses[index % ids.verses.count]
                return try await library.citations(bookID: book, chapter: chapter, verse: verse)
            }, rows: \.talks, key: \.citationID),
            make("speakers()", { library, _ in try await library.speakers() }, rows: { $0.flatMap(\.speakers) }, key: \.id),
            make("speaker(id:)", { library, index in try await library.speaker(id: ids.speakers[index % ids.speakers.count]) },
                 rows: \.talks, key: \.id),
        ]
        for prefix in QueryIDs.searches {
            queries.append(make("search(\"\(prefix)\")", { library, _ in try await library.search(prefix) }, rows: { $0 }, key: \.id))
        }
        queries.append(make("recentTalks(of:)", { library, _ in try await library.recentTalks(of: .firstOwner) }, rows: { $0 }, key: \.id))
        queries.append(make("bookmarkedTalks(of:)", { library, _ in try await library.bookmarkedTalks(of: .firstOwner) }, rows: { $0 }, key: \.id))
        return queries
    }
}

/// A volume's or a book's citation count.
private struct CountRow: Equatable, Sendable {
    let id: Int
    let count: Int
}

/// Words for how a second database's answer compares with the first's.
private enum AnswerComparison {
    /// "same"; "same+more" (the first's rows, then more); "counts" (the same rows, other counts);
    /// "counts+more"; "among more" (the first's rows, others between them); "other rows".
    static func verdict<Row: Equatable, Key: Equatable>(_ first: [Row], _ second: [Row], key: (Row) -> Key) -> String {
        if first == second { return "same" }
        if second.starts(with: first) { return "same+more" }
        let firstKeys = first.map(key), secondKeys = second.map(key)
        if firstKeys == secondKeys { return "counts" }
        if secondKeys.starts(with: firstKeys) { return "counts+more" }
        if firstKeys.allSatisfy({ key in secondKeys.contains(key) }) { return "among more" }
        return "other rows"
    }

    /// "same", or "counts 180, counts+more 20".
    static func summary(_ verdicts: [String: Int]) -> String {
        if verdicts.count == 1, let only = verdicts.keys.first { return only }
        return verdicts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}

/// Ids that exist in the first database, in a fixed shuffled order, so each call asks for another row.
private struct QueryIDs: Sendable {
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
        return ids
    }

    /// Ten opened and bookmarked talks, so those lists have rows to look up (bookmarked a second
    /// apart, so every database lists them in the same order).
    func prepareReadingState(in library: ConferenceLibrary) async throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for (index, id) in talks.prefix(10).enumerated() {
            try await library.recordView(talkID: id, by: .firstOwner)
            try await library.setBookmark(true, talkID: id, for: .firstOwner, at: start.addingTimeInterval(Double(index)))
        }
    }
}
