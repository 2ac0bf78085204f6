import Foundation
import GRDB

// The digests of sci-core files (`CoreDigest`): finding, building and reading them.

extension ConferenceStateDatabase {
    /// The id of the digest of the file named `fileName`, if it has one.
    func digestID(for fileName: String) async throws -> Int64? {
        try await writer.read { db in try CoreDigest.id(db, fileName: fileName) }
    }

    /// Builds the digest of `generation`'s file (one installed before digests existed, or the
    /// sample), replacing any it had, and returns its id.
    func buildDigest(from generation: CoreGeneration) async throws -> Int64 {
        let fileName = generation.file.lastPathComponent
        return try await writer.writeWithoutTransaction { db in
            try SearchIndexBuilder.attaching(generation.file, schema: generation.schema, to: db) { core in
                // The attached file's tables are the only ones with their names, so the screens' queries find them.
                let lists = try CoreDigest.Lists.read(db, schema: core.schema)
                var id: Int64 = 0
                try db.inTransaction {
                    try CoreDigest.delete(db, where: "fileName = ?", arguments: [fileName])
                    id = try CoreDigest.begin(db, from: core, fileName: fileName)
                    try CoreDigest.complete(db, digest: id, lists: lists)
                    return .commit
                }
                return id
            }
        }
    }

    /// Deletes the digests of every file but `fileName`, staged ones included. Only under the
    /// install lock: an install stages its file's digest before it records the file. Looks before
    /// it writes, so a start-up with nothing to delete never waits for the writer.
    func deleteDigests(except fileName: String) async throws {
        let condition = "fileName IS NULL OR fileName != ?"
        let stale = try await writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM digest WHERE \(condition))", arguments: [fileName]) ?? false
        }
        guard stale else { return }
        try await writer.write { db in try CoreDigest.delete(db, where: condition, arguments: [fileName]) }
    }

    /// The table sizes; nil when the digest is gone.
    func digestCounts(_ digest: Int64) async throws -> DatabaseCounts? {
        try await writer.read { db in try CoreDigest.counts(db, digest: digest) }
    }

    /// The conference list; nil when the digest is gone.
    func digestConferences(_ digest: Int64) async throws -> [ConferenceSummary]? {
        try await writer.read { db in try CoreDigest.conferences(db, digest: digest) }
    }

    /// A conference's row and talk order (`.some(nil)`: no such conference); nil when the digest is gone.
    func digestConference(_ digest: Int64, id: Int) async throws -> CoreDigest.ConferenceOrder?? {
        try await writer.read { db in try CoreDigest.conference(db, digest: digest, id: id) }
    }

    /// The talks before and after a talk in its conference; nil when the digest is gone.
    func digestNeighbours(_ digest: Int64, conferenceID: Int,
                          talkID: Int) async throws -> (previous: CoreDigest.TalkPlace?, next: CoreDigest.TalkPlace?)? {
        try await writer.read { db in try CoreDigest.neighbours(db, digest: digest, conferenceID: conferenceID, talkID: talkID) }
    }

    /// Speakers A–Z; nil when the digest is gone.
    func digestSpeakers(_ digest: Int64) async throws -> [SpeakerSection]? {
        try await writer.read { db in try CoreDigest.speakers(db, digest: digest) }
    }

    /// The citation index's volumes; nil when the digest is gone.
    func digestVolumes(_ digest: Int64) async throws -> [VolumeCitations]? {
        try await writer.read { db in try CoreDigest.volumes(db, digest: digest) }
    }

    /// A book's chapters with their counts; nil when the digest is gone.
    func digestChapters(_ digest: Int64, bookID: Int) async throws -> [ChapterCount]? {
        try await writer.read { db in try CoreDigest.chapters(db, digest: digest, bookID: bookID) }
    }
}
