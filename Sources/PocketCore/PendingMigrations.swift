import Foundation
import GRDB

/// Which databases of a data folder this Pocket is about to migrate: each one whose
/// `grdb_migrations` table lacks a migration this Pocket knows. Read before any store is opened
/// (opening migrates), so an upgrade can back the folder up while it is still as the older
/// release left it.
public enum PendingMigrations {
    /// The databases in `folder` that miss migrations, by path inside the folder, with the
    /// identifiers they miss. `known` maps a path (a `*` matches within a file name, as in
    /// `murals*.sqlite`) to every migration this Pocket knows for it. A database that is not
    /// there yet, or has never been migrated (a file with no tables), has nothing to lose.
    public static func find(in folder: URL, known: [String: [String]]) throws -> [String: [String]] {
        var pending: [String: [String]] = [:]
        for (pattern, identifiers) in known {
            for path in existing(pattern, in: folder) {
                guard let applied = try appliedMigrations(of: folder.appendingPathComponent(path)) else { continue }
                let missing = identifiers.filter { !applied.contains($0) }
                if !missing.isEmpty { pending[path] = missing }
            }
        }
        return pending
    }

    /// The paths inside `folder` that `pattern` names and that exist.
    static func existing(_ pattern: String, in folder: URL) -> [String] {
        let manager = FileManager.default
        guard let star = pattern.firstIndex(of: "*") else {
            return manager.fileExists(atPath: folder.appendingPathComponent(pattern).path) ? [pattern] : []
        }
        let slash = pattern[..<star].lastIndex(of: "/")
        let directory = slash.map { String(pattern[..<$0]) } ?? ""
        let start = slash.map { pattern.index(after: $0) } ?? pattern.startIndex
        let prefix = String(pattern[start..<star])
        let suffix = String(pattern[pattern.index(after: star)...])
        let names = (try? manager.contentsOfDirectory(atPath: folder.appendingPathComponent(directory).path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) && $0.count >= prefix.count + suffix.count }
            .sorted()
            .map { directory.isEmpty ? $0 : directory + "/" + $0 }
    }

    /// The migrations a database has run; nil when it has never been migrated.
    static func appliedMigrations(of url: URL) throws -> Set<String>? {
        do {
            return try readMigrations(of: url, readonly: true)
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_READONLY_ROLLBACK || error.extendedResultCode == .SQLITE_READONLY_RECOVERY {
            // A Pocket stopped part-way through a transaction (killed while it started, the power
            // cut) left a journal only a writer may roll back. Rolling it back is what opening the
            // store would do first, and it loses nothing that was committed; refusing would keep
            // Pocket from ever starting on this folder again.
            return try readMigrations(of: url, readonly: false)
        }
    }

    private static func readMigrations(of url: URL, readonly: Bool) throws -> Set<String>? {
        var configuration = Configuration()
        configuration.readonly = readonly
        configuration.label = "pending-migrations"
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db -> Set<String>? in
            // GRDB's own record of what ran (DatabaseMigrator keeps it in this table).
            guard try db.tableExists("grdb_migrations") else { return nil }
            return try Set(String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
        }
    }
}
