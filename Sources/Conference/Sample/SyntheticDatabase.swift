import Foundation
import PocketCore

/// A full-size database for benchmarks, with the real schema and the real books and speakers but
/// invented conferences, talks and citations: about 150 conferences, 10,000 talks and 130,000
/// citations. It is not data: every title is made up, and it says so in `updated`.
/// The same seed gives the same database.
///
/// A `scale` above 1 adds `scale − 1` times as much older history behind those rows, to see which
/// screens slow down as the database grows although what they show does not change. The 1× rows
/// are kept exactly (the generator draws them first, from the same seed), and the history is
/// placed so that each screen still opens on them:
/// - older conferences (ids from 151), so the conference list starts with the same 150;
/// - talks (ids from 10,001) by speakers of their own, “Zz Synthetic”, who sort after every real
///   speaker, so a 1× conference, talk or speaker shows exactly what it shows at 1×;
/// - citations of those talks, of the same books with the same spread, so the citation index
///   lists the same books and chapters with larger counts, and a verse's older citing talks
///   come after the 1× ones.
public enum SyntheticDatabase {
    /// Conferences generated, newest (October 2025) first, two a year.
    public static let conferenceCount = 150
    /// Talks generated in all.
    public static let talkCount = 10_000
    /// Citations generated in all.
    public static let citationCount = 130_000
    /// Speakers of the older history per 1× of it (they share its talks).
    static let historySpeakerCount = 10
    /// The largest `scale` accepted: 64× is 9,600 conferences and 8.3 million citations.
    public static let maximumScale = 64

    /// Builds the synthetic database at `url`: the 1× rows, with `scale − 1` times as much older history behind them.
    public static func build(at url: URL, seed: UInt64 = 1, scale: Int = 1) throws {
        try CoreDatabaseWriter.write(rows(from: SampleFacts.bundled(), seed: seed, scale: scale), to: url)
    }

    static func rows(from facts: SampleFacts, seed: UInt64, scale: Int = 1, conferences: Int = conferenceCount,
                     talks: Int = talkCount, citations: Int = citationCount) throws -> CoreRows {
        guard (1...maximumScale).contains(scale) else { throw ConferenceError.unsupportedScale(scale) }
        var random = SplitMix64(seed: seed)
        var rows = CoreRows(lastUpdated: scale == 1 ? "synthetic data, seed \(seed)" : "synthetic data, seed \(seed), \(scale)× history")
        rows.books = try SampleDatabase.rows(from: facts).books
        let leaves = rows.books.filter { $0.parentBookID != nil }
        let speakers = facts.speakers.sorted { $0.id < $1.id }
        guard !leaves.isEmpty, let lastSpeaker = speakers.last else { throw ConferenceError.sampleDataInvalid("no books or speakers") }

        var usedSpeakers: Set<Int> = []
        let recent = Block(conferences: 0..<conferences, talks: talks, citations: citations, firstTalkID: 1, firstCitationID: 1)
        recent.addConferences(to: &rows, random: &random) { random in
            let speaker = speakers[random.next(below: speakers.count)]
            usedSpeakers.insert(speaker.id)
            return speaker.id
        }
        recent.addCitations(to: &rows, leaves: leaves, random: &random)
        rows.speakers = speakers.filter { usedSpeakers.contains($0.id) }.map { speaker in
            CoreRows.Speaker(id: speaker.id, givenNames: speaker.givenNames, lastNames: speaker.lastNames, abbr: speaker.abbr,
                             info: nil, nameSort: "\(HTMLEntities.decode(speaker.lastNames)), \(HTMLEntities.decode(speaker.givenNames))")
        }

        for index in 1..<scale {
            let history = Block(conferences: conferences * index..<conferences * (index + 1), talks: talks, citations: citations,
                                firstTalkID: talks * index + 1, firstCitationID: citations * index + 1)
            let speakerIDs = (0..<historySpeakerCount).map { lastSpeaker.id + (index - 1) * historySpeakerCount + $0 + 1 }
            for (number, id) in speakerIDs.enumerated() {
                let given = "History Speaker \(String(format: "%02d", index))-\(String(format: "%02d", number + 1))"
                rows.speakers.append(CoreRows.Speaker(id: id, givenNames: given, lastNames: "Zz Synthetic", abbr: "zz\(id)", info: nil,
                                                      nameSort: "Zz Synthetic, \(given)"))
            }
            history.addConferences(to: &rows, random: &random) { random in speakerIDs[random.next(below: speakerIDs.count)] }
            history.addCitations(to: &rows, leaves: leaves, random: &random)
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
}

// MARK: - Private

private extension SyntheticDatabase {
    /// One run of conferences with their talks, and citations of those talks.
    struct Block {
        /// Conference indexes: 0 is October 2025, each next one half a year older.
        let conferences: Range<Int>
        let talks: Int
        let citations: Int
        let firstTalkID: Int
        let firstCitationID: Int

        func addConferences(to rows: inout CoreRows, random: inout SplitMix64, speaker: (inout SplitMix64) -> Int) {
            var talkID = firstTalkID - 1
            for (offset, index) in conferences.enumerated() {
                let year = 2025 - index / 2
                let april = index % 2 == 1
                let id = index + 1
                let month = april ? "04" : "10"
                rows.conferences.append(.init(id: id, description: "\(april ? "April" : "October") \(year) General Conference (synthetic)",
                                              abbr: "\(april ? "Apr" : "Oct") \(year)", year: year,
                                              annual: april ? "Annual" : "Semiannual", issueDate: "\(year)-\(april ? "05" : "11")-01"))
                let sessionDays = ["Saturday Morning", "Saturday Afternoon", "Saturday Evening", "Sunday Morning", "Sunday Afternoon"]
                for (session, name) in sessionDays.enumerated() {
                    rows.sessions.append(.init(id: id * 10 + session + 1, description: "\(name) Session", abbr: "S\(session + 1)",
                                               date: "\(year)-\(month)-0\(session < 3 ? 5 : 6)", sequence: session + 1, conferenceID: id))
                }
                // Spread the talks evenly: conferences get talks/conferences, the first few one more.
                let share = talks / conferences.count + (offset < talks % conferences.count ? 1 : 0)
                var page = 2
                for position in 0..<share {
                    talkID += 1
                    let session = position * 5 / max(share, 1) + 1
                    let speakerID = speaker(&random)
                    rows.talks.append(.init(id: talkID, corpus: "G", url: "https://example.invalid/synthetic/\(talkID)",
                                            title: SyntheticDatabase.title(&random), date: "\(year)-\(month)-0\(session <= 3 ? 5 : 6)",
                                            speakerID: speakerID))
                    let length = 2 + random.next(below: 4)
                    rows.conferenceTalks.append(.init(talkID: talkID, sessionID: id * 10 + session, startPage: page,
                                                      endPage: page + length, sequence: position + 1))
                    page += length + 1
                }
            }
        }

        /// Citations of this block's talks only, so a talk of another block keeps its own.
        func addCitations(to rows: inout CoreRows, leaves: [CoreRows.Book], random: inout SplitMix64) {
            for index in 0..<citations {
                let id = firstCitationID + index
                let book = leaves[random.next(below: leaves.count)]
                let chapter = book.numChapters > 0 ? 1 + random.next(below: book.numChapters) : 0
                let first = 1 + random.next(below: 30)
                let verses = random.next(below: 4) == 0 ? "\(first)-\(first + 1 + random.next(below: 5))" : "\(first)"
                let (low, high) = CitationReference.verseBounds(verses)
                let talk = firstTalkID + random.next(below: max(talks, 1))
                rows.citations.append(.init(id: id, talkID: talk, bookID: book.id, chapter: chapter, verses: verses, flag: nil,
                                            minVerse: low, maxVerse: high, page: nil, volume: nil))
                rows.citationVerses += CitationFormatter.verses(in: verses).map { CoreRows.CitationVerse(citationID: id, verse: $0) }
            }
        }
    }

    /// An invented title such as "The Enduring Covenant of Light".
    static func title(_ random: inout SplitMix64) -> String {
        let adjectives = ["Enduring", "Quiet", "Living", "Steady", "Gentle", "Everlasting", "Joyful", "Humble", "Faithful", "Bright"]
        let nouns = ["Covenant", "Light", "Path", "Promise", "Witness", "Shepherd", "Harvest", "Anchor", "Gift", "Voice"]
        let objects = ["Hope", "Grace", "Home", "Service", "Mercy", "Peace", "Truth", "Prayer", "Family", "Discipleship"]
        return "The \(adjectives[random.next(below: adjectives.count)]) \(nouns[random.next(below: nouns.count)]) of \(objects[random.next(below: objects.count)])"
    }
}
