import Foundation
import GRDB

/// Stored talk texts (`talk_text`), shared by everyone: a talk's text is public and the same for all.
extension ConferenceStateDatabase {
    /// The stored text of a talk, nil when it has not been fetched yet.
    func talkText(_ talkID: Int) async throws -> TalkText? {
        try await writer.read { db in
            try Row.fetchOne(cached: db, sql: "SELECT talkID, html, size, source, fetchedAt FROM talk_text WHERE talkID = ?", arguments: [talkID])
                .map { row in
                    let source: String = row["source"]
                    return TalkText(talkID: row["talkID"], html: row["html"], size: row["size"],
                                    source: URL(string: source) ?? URL(fileURLWithPath: "/"), fetchedAt: row["fetchedAt"])
                }
        }
    }

    /// Stores (or replaces) a talk's text.
    func storeTalkText(_ text: TalkText) async throws {
        try await writer.write { db in
            try db.execute(sql: """
                INSERT INTO talk_text(talkID, html, size, source, fetchedAt) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(talkID) DO UPDATE SET html = excluded.html, size = excluded.size, source = excluded.source, fetchedAt = excluded.fetchedAt
                """, arguments: [text.talkID, text.html, text.size, text.source.absoluteString, Self.storedDate(text.fetchedAt)])
        }
    }

    /// The sizes of the stored texts among `talkIDs`, by talk.
    func talkTextSizes(_ talkIDs: [Int]) async throws -> [Int: Int] {
        guard !talkIDs.isEmpty else { return [:] }
        return try await writer.read { db in
            var sizes: [Int: Int] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT talkID, size FROM talk_text WHERE talkID IN (SELECT value FROM json_each(?))",
                                           arguments: [String(describing: talkIDs)])
            while let row = try rows.next() { sizes[row["talkID"]] = row["size"] }
            return sizes
        }
    }
}
