import Foundation
import PocketCore

/// A full-size database for benchmarks, with the real schema and the real books and speakers but
/// invented conferences, talks and citations: about 150 conferences, 10,000 talks and 130,000
/// citations. It is not data: every title is made up, and it says so in `updated`.
/// The same seed gives the same database.
public enum SyntheticDatabase {
    /// Conferences generated, newest (October 2025) first, two a year.
    public static let conferenceCount = 150
    /// Talks generated in all.
    public static let talkCount = 10_000
    /// Citations generated in all.
    public static let citationCount = 130_000

    /// Builds the synthetic database at `url`.
    public static func build(at url: URL, seed: UInt64 = 1) throws {
        try CoreDatabaseWriter.write(rows(from: SampleFacts.bundled(), seed: seed), to: url)
    }

    static func rows(from facts: SampleFacts, seed: UInt64, conferences: Int = conferenceCount,
                     talks: Int = talkCount, citations: Int = citationCount) throws -> CoreRows {
        var random = SplitMix64(seed: seed)
        var rows = CoreRows(lastUpdated: "synthetic data, seed \(seed)")
        rows.books = try SampleDatabase.rows(from: facts).books
        let leaves = rows.books.filter { $0.parentBookID != nil }
        let speakers = facts.speakers.sorted { $0.id < $1.id }
        guard !leaves.isEmpty, !speakers.isEmpty else { throw ConferenceError.sampleDataInvalid("no books or speakers") }

        var usedSpeakers: Set<Int> = []
        var talkID = 0
        for index in 0..<conferences {
            let year = 2025 - index / 2
            let april = index % 2 == 1
            let id = index + 1
            let month = april ? "04" : "10"
            rows.conferences.append(.init(id: id, description: "\(april ? "April" : "October") \(year) General Conference (synthetic)",
                                          abbr: "\(april ? "Apr" : "Oct") \(year)", year: year,
                                          annual: april ? "Annual" : "Semiannual", issueDate: "\(year)-\(april ? "05" : "11")-01"))
            let sessionDays = ["Saturday Morning", "Saturday Afternoon", "Saturday Evening", "Sunday Morning", "Sunday Afternoon"]
            for (offset, name) in sessionDays.enumerated() {
                rows.sessions.append(.init(id: id * 10 + offset + 1, description: "\(name) Session", abbr: "S\(offset + 1)",
                                           date: "\(year)-\(month)-0\(offset < 3 ? 5 : 6)", sequence: offset + 1, conferenceID: id))
            }
            // Spread the talks evenly: conferences get talks/conferences, the first few one more.
            let share = talks / conferences + (index < talks % conferences ? 1 : 0)
            var page = 2
            for position in 0..<share {
                talkID += 1
                let session = position * 5 / max(share, 1) + 1
                let speaker = speakers[random.next(below: speakers.count)]
                usedSpeakers.insert(speaker.id)
                rows.talks.append(.init(id: talkID, corpus: "G", url: "https://example.invalid/synthetic/\(talkID)",
                                        title: title(&random), date: "\(year)-\(month)-0\(session <= 3 ? 5 : 6)", speakerID: speaker.id))
                let length = 2 + random.next(below: 4)
                rows.conferenceTalks.append(.init(talkID: talkID, sessionID: id * 10 + session, startPage: page,
                                                  endPage: page + length, sequence: position + 1))
                page += length + 1
            }
        }
        for index in 0..<citations {
            let id = index + 1
            let book = leaves[random.next(below: leaves.count)]
            let chapter = book.numChapters > 0 ? 1 + random.next(below: book.numChapters) : 0
            let first = 1 + random.next(below: 30)
            let verses = random.next(below: 4) == 0 ? "\(first)-\(first + 1 + random.next(below: 5))" : "\(first)"
            let (low, high) = CitationReference.verseBounds(verses)
            let talk = 1 + random.next(below: max(talkID, 1))
            rows.citations.append(.init(id: id, talkID: talk, bookID: book.id, chapter: chapter, verses: verses, flag: nil,
                                        minVerse: low, maxVerse: high, page: nil, volume: nil))
            rows.citationVerses += CitationFormatter.verses(in: verses).map { CoreRows.CitationVerse(citationID: id, verse: $0) }
        }
        rows.speakers = speakers.filter { usedSpeakers.contains($0.id) }.map { speaker in
            CoreRows.Speaker(id: speaker.id, givenNames: speaker.givenNames, lastNames: speaker.lastNames, abbr: speaker.abbr,
                             info: nil, nameSort: "\(HTMLEntities.decode(speaker.lastNames)), \(HTMLEntities.decode(speaker.givenNames))")
        }
        let counts = Dictionary(grouping: rows.citations, by: \.bookID).mapValues(\.count)
        rows.books = rows.books.map { book in
            var book = book
            book.citationCount = book.parentBookID == nil
                ? rows.books.filter { $0.parentBookID == book.id }.reduce(0) { $0 + (counts[$1.id] ?? 0) }
                : counts[book.id] ?? 0
            return book
        }
        return rows
    }

    /// An invented title such as "The Enduring Covenant of Light".
    private static func title(_ random: inout SplitMix64) -> String {
        let adjectives = ["Enduring", "Quiet", "Living", "Steady", "Gentle", "Everlasting", "Joyful", "Humble", "Faithful", "Bright"]
        let nouns = ["Covenant", "Light", "Path", "Promise", "Witness", "Shepherd", "Harvest", "Anchor", "Gift", "Voice"]
        let objects = ["Hope", "Grace", "Home", "Service", "Mercy", "Peace", "Truth", "Prayer", "Family", "Discipleship"]
        return "The \(adjectives[random.next(below: adjectives.count)]) \(nouns[random.next(below: nouns.count)]) of \(objects[random.next(below: objects.count)])"
    }
}

