import Foundation
import GRDB

/// A store that can say whether its database is usable, for `GET /healthz`: cheap enough to be
/// asked every few seconds by a monitor, and telling nothing about anyone's data.
public protocol HealthChecked: Sendable {
    /// Throws when the store's database cannot be opened and read as a database.
    func checkHealth() async throws
}

extension DatabaseReader {
    /// Opens the file afresh, read-only, and reads its schema: the file is there, is a database,
    /// and its header and first pages are sound. A fresh connection, because the store's own see
    /// the file as they cached it; and not `PRAGMA quick_check`, which reads every page.
    public func checkSchemaReadable() async throws {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file::memory:") else {
            _ = try await read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
            return
        }
        // SQLite hands a new connection a descriptor it kept from an earlier one of the same file
        // (it must not close those while others hold locks), so a file Pocket may no longer open
        // (`chmod 000`, a changed owner) still "opens": ask the file system, for what the store does
        // (reading, and writing unless it is read-only).
        guard access(path, self.configuration.readonly ? R_OK : R_OK | W_OK) == 0 else {
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "the database file cannot be opened as its store opens it")
        }
        var fresh = Configuration()
        fresh.readonly = true
        fresh.label = "health"
        let queue = try DatabaseQueue(path: path, configuration: fresh)
        defer { try? queue.close() }
        _ = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
    }
}

/// Runs health checks and says what is wrong in one line, with no personal data.
public enum HealthCheck {
    /// Whether `error` is SQLite failing to open a file (SQLITE_CANTOPEN): the process is out of
    /// file handles, or the folder went away. Passing, or for the owner to fix; not a bug.
    public static func isCannotOpen(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.resultCode == .SQLITE_CANTOPEN
    }

    /// nil when `store` is healthy, else a one-line reason.
    public static func problem(of store: any HealthChecked) async -> String? {
        do {
            try await store.checkHealth()
            return nil
        } catch let error as DatabaseError {
            return "the database cannot be read (\(error.resultCode))"
        } catch {
            return "the database cannot be read (\(String(describing: type(of: error))))"
        }
    }
}
