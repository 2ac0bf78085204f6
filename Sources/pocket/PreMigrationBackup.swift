import Foundation
import Logging
import PocketCore

/// The backup `pocket serve` makes before it opens stores that an upgrade is about to migrate: a
/// migration changes a database in place, so the folder is archived while it is still exactly as
/// the older release left it (Home Assistant does the same before an update).
enum PreMigrationBackup {
    /// The folder inside the backup folder that holds these archives; the daily backups' pruning
    /// keeps to the backup folder itself, so an archive made before an upgrade stays until removed.
    static let folderName = "before-upgrades"

    /// Archives `dataDirectory` into `backupDirectory/before-upgrades` when a database in it
    /// misses a migration this Pocket knows, and returns the archive; nil when nothing is pending.
    /// Throws when the backup cannot be made: serving would migrate an unsaved folder. Of the
    /// Murals databases only `muralsFile`, the one this run opens, counts: the other (the demo's,
    /// or the real one under `--demo`) waits for a run that opens it.
    static func makeIfNeeded(dataDirectory: URL, backupDirectory: URL, muralsFile: String, logger: Logger) async throws -> BackupMaker.Made? {
        let pending: [String: [String]]
        do {
            var known = try RestoreCommand.knownMigrations()
            if let murals = known.removeValue(forKey: "murals*.sqlite") { known[muralsFile] = murals }
            pending = try PendingMigrations.find(in: dataDirectory, known: known)
        } catch {
            throw CommandFailure(description: "cannot read the databases in \(dataDirectory.path) before migrating them: \(error)")
        }
        guard !pending.isEmpty else { return nil }
        let summary = pending.keys.sorted().map { "\($0) (\(pending[$0]?.joined(separator: ", ") ?? ""))" }.joined(separator: "; ")
        logger.notice("Migrations to run: \(summary); backing up \(dataDirectory.path) first")
        do {
            let made = try await BackupMaker(dataDirectory: dataDirectory, layout: try pocketDataLayout())
                .makeOffThread(into: backupDirectory.appendingPathComponent(folderName, isDirectory: true))
            logger.notice("Backed up the data folder before migrating: \(made.url.path)")
            return made
        } catch {
            throw CommandFailure(description: "cannot back up \(dataDirectory.path) before migrating it (\(error)); nothing was changed: free some space or fix the backup folder, then start Pocket again")
        }
    }
}
