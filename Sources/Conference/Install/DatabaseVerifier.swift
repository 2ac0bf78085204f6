import Foundation
import GRDB

/// Proves a file is a usable sci-core database before it replaces the current one.
enum DatabaseVerifier {
    /// The first 16 bytes of every SQLite 3 database.
    static let header = Data("SQLite format 3\0".utf8)

    /// Checks the SQLite header, runs `PRAGMA quick_check`, and looks for the expected tables.
    /// The file is opened read-only; nothing is written into it.
    static func verify(_ file: URL) async throws(ConferenceError) -> DatabaseCapabilities {
        let start: Data
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            start = try handle.read(upToCount: header.count) ?? Data()
        } catch {
            throw .fileSystem("cannot read \(file.lastPathComponent)")
        }
        guard !start.isEmpty else { throw .notADatabase("the file is empty") }
        guard start == header else { throw .notADatabase("the file is not an SQLite database") }

        var configuration = Configuration()
        configuration.label = "conference-verifier"
        configuration.readonly = true
        // quick_check visits each page about once: a big cache only holds memory during the install.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -512") }
        do {
            let queue = try DatabaseQueue(path: file.path, configuration: configuration)
            defer { try? queue.close() }
            return try await queue.read { db in
                let problems = try String.fetchAll(db, sql: "PRAGMA quick_check")
                guard problems == ["ok"] else { throw Self.damage(problems) }
                return try CoreSchema.detect(db).capabilities
            }
        } catch let error as ConferenceError {
            throw error
        } catch let error as DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB: throw .notADatabase("the file is not an SQLite database")
            case .SQLITE_CORRUPT: throw Self.damage([error.message ?? "database disk image is malformed"])
            default: throw .notADatabase(error.message ?? error.description)
            }
        } catch {
            throw .notADatabase(error.localizedDescription)
        }
    }

    /// quick_check can report a hundred lines, in one row or many: one line for the person (the
    /// first problem and how many more), and the whole report for the log.
    static func damage(_ rows: [String]) -> ConferenceError {
        let lines = rows.flatMap { $0.split(whereSeparator: \.isNewline) }.map(String.init).filter { !$0.isEmpty }
        guard let first = lines.first(where: { !$0.hasPrefix("***") }) ?? lines.first else {
            return .damagedDatabase(summary: "a problem it did not describe", detail: "")
        }
        let shown = first.count > 160 ? first.prefix(159) + "…" : Substring(first)
        let more = lines.count - 1
        let summary = more > 0 ? "“\(shown)” and \(more) more problem\(more == 1 ? "" : "s")" : "“\(shown)”"
        return .damagedDatabase(summary: summary, detail: lines.joined(separator: "\n"))
    }
}
