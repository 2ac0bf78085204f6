import Foundation

/// The committed input facts the sample database is built from (`Resources/sample/`, provenance
/// in `Resources/SOURCES.md`), parsed but not yet interpreted.
struct SampleFacts: Sendable {
    struct Conference: Decodable, Sendable {
        let id: Int
        /// The prefix of the sci-crawler files, e.g. "2025apr".
        let files: String
        /// The URL key prefix of its talks, e.g. "2025/04".
        let urlPrefix: String
        let description: String
        let abbr: String
        let year: Int
        let annual: String
        let issueDate: String
        let sessions: [Session]
    }

    struct Session: Decodable, Sendable {
        let sequence: Int
        let description: String
        let abbr: String
        let date: String
    }

    /// One row of talks-2025.tsv.
    struct Talk: Sendable {
        let id: Int
        let corpus: String
        let date: String
        let speaker: String
        let title: String
        let urlKey: String
    }

    /// One row of a pages file: talk key, first and last page.
    struct Pages: Sendable {
        let key: String
        let start: Int
        let end: Int
    }

    /// One row of a citations file: reference, speaker abbreviation, page, talk key.
    struct Citation: Sendable {
        let reference: String
        let speakerAbbr: String
        let page: Int?
        let key: String
    }

    struct Volume: Decodable, Sendable {
        let id: Int
        let abbr: String
        let citeAbbr: String
        let fullName: String
        let numChapters: Int?
        let urlPath: String
        let books: [Book]
    }

    struct Book: Decodable, Sendable {
        let id: Int
        let abbr: String
        let citeAbbr: String
        let fullName: String
        let numChapters: Int
        let urlPath: String
        let parentBookId: Int
        let webTitle: String?
        let jstTitle: String?
        let tocName: String?
        let subdiv: String?
        let backName: String?
        let gridName: String?
        let citeFull: String?
    }

    struct Speaker: Decodable, Sendable {
        let id: Int
        let givenNames: String
        let lastNames: String
        let abbr: String
        let suffix: String?
    }

    private struct Index: Decodable {
        let lastUpdated: String
        let talkURL: String
        let conferences: [Conference]
    }

    let lastUpdated: String
    /// The talk address with `{key}` for the URL key.
    let talkURL: String
    let conferences: [Conference]
    let talks: [Talk]
    /// Pages by conference `files` prefix.
    let pages: [String: [Pages]]
    /// Citations by conference `files` prefix, in file order.
    let citations: [String: [Citation]]
    let volumes: [Volume]
    let speakers: [Speaker]

    /// The facts bundled with Pocket.
    static func bundled() throws -> SampleFacts {
        guard let folder = Bundle.module.url(forResource: "Resources", withExtension: nil)?.appendingPathComponent("sample", isDirectory: true) else {
            throw ConferenceError.sampleDataInvalid("the sample folder is missing from the bundle")
        }
        return try load(from: folder)
    }

    /// Reads every input file in `folder`.
    static func load(from folder: URL) throws -> SampleFacts {
        func data(_ name: String) throws -> Data {
            do {
                return try Data(contentsOf: folder.appendingPathComponent(name))
            } catch {
                throw ConferenceError.sampleDataInvalid("\(name) cannot be read")
            }
        }
        func json<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
            do {
                return try JSONDecoder().decode(type, from: try data(name))
            } catch let error as ConferenceError {
                throw error
            } catch {
                throw ConferenceError.sampleDataInvalid("\(name) is not valid: \(error)")
            }
        }
        func table(_ name: String) throws -> [[String]] {
            guard let text = String(data: try data(name), encoding: .utf8) else {
                throw ConferenceError.sampleDataInvalid("\(name) is not UTF-8")
            }
            return text.split(separator: "\n").map { line in
                line.trimmingCharacters(in: CharacterSet(charactersIn: "\r")).components(separatedBy: "\t")
            }.filter { $0 != [""] }
        }
        func integer(_ text: String, _ name: String) throws -> Int {
            guard let value = Int(text) else { throw ConferenceError.sampleDataInvalid("\(name) has “\(text)” where a number belongs") }
            return value
        }

        let index = try json(Index.self, "conferences.json")
        let talkRows = try table("talks-2025.tsv")
        guard talkRows.first == ["ID", "Corpus", "Date", "Speaker", "Title", "UrlKey"] else {
            throw ConferenceError.sampleDataInvalid("talks-2025.tsv does not start with its header line")
        }
        let talks = try talkRows.dropFirst().map { fields -> Talk in
            guard fields.count == 6 else { throw ConferenceError.sampleDataInvalid("talks-2025.tsv has a line with \(fields.count) fields") }
            return Talk(id: try integer(fields[0], "talks-2025.tsv"), corpus: fields[1], date: fields[2], speaker: fields[3], title: fields[4], urlKey: fields[5])
        }
        var pages: [String: [Pages]] = [:]
        var citations: [String: [Citation]] = [:]
        for conference in index.conferences {
            let pagesName = "\(conference.files)-pages.tsv"
            pages[conference.files] = try table(pagesName).map { fields in
                guard fields.count == 3 else { throw ConferenceError.sampleDataInvalid("\(pagesName) has a line with \(fields.count) fields") }
                return Pages(key: fields[0], start: try integer(fields[1], pagesName), end: try integer(fields[2], pagesName))
            }
            let citationsName = "\(conference.files)-citations.tsv"
            citations[conference.files] = try table(citationsName).map { fields in
                guard fields.count == 4 else { throw ConferenceError.sampleDataInvalid("\(citationsName) has a line with \(fields.count) fields") }
                return Citation(reference: fields[0], speakerAbbr: fields[1], page: Int(fields[2]), key: fields[3])
            }
        }
        return SampleFacts(
            lastUpdated: index.lastUpdated,
            talkURL: index.talkURL,
            conferences: index.conferences,
            talks: talks,
            pages: pages,
            citations: citations,
            volumes: try json([Volume].self, "books.json"),
            speakers: try json([Speaker].self, "speakers.json")
        )
    }
}
