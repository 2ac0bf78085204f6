import Foundation

/// The daily backup's last failure, kept in the data folder (`.pocket-backup-failed`, never in a
/// backup) until a backup succeeds: Settings and `/healthz` read it, so a failing backup shows
/// where the owner looks, in this server and after a restart, not only in the log.
public struct BackupHealth: Sendable, Equatable {
    /// A daily backup that failed: when, and the one-line reason.
    public struct Failure: Codable, Sendable, Equatable {
        /// When it failed, in whole milliseconds since 1970.
        public var at: Int64
        /// Why, in one line.
        public var problem: String
    }

    /// The record's name inside the data folder.
    public static let fileName = ".pocket-backup-failed"
    /// Where the record is.
    public let file: URL

    /// The record of the data folder `dataDirectory`.
    public init(dataDirectory: URL) {
        file = dataDirectory.standardizedFileURL.appendingPathComponent(Self.fileName)
    }

    /// Records a failure (readable by its owner only). Best effort: a disk too full for these
    /// few bytes still has the log line.
    public func recordFailure(_ problem: String, at date: Date = Date()) {
        guard let data = try? JSONEncoder().encode(Failure(at: ChangeTime.milliseconds(date), problem: problem)) else { return }
        let scratch = file.appendingPathExtension("partial")
        guard FileManager.default.createFile(atPath: scratch.path, contents: data, attributes: [.posixPermissions: 0o600]) else { return }
        if rename(scratch.path, file.path) != 0 { unlink(scratch.path) }
    }

    /// Forgets the failure: a backup has just succeeded.
    public func recordSuccess() {
        unlink(file.path)
    }

    /// The last failure since the last success, if any.
    public func failure() -> Failure? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return try? JSONDecoder().decode(Failure.self, from: data)
    }

    /// "the daily backup failed at 2026-11-27 03:30: …", for `/healthz` and the log.
    public func summary() -> String? {
        failure().map { "the daily backup failed at \(ChangeTime.date($0.at).formatted(.iso8601)): \($0.problem)" }
    }
}
