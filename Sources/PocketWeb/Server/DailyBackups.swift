import Foundation
import Logging
import PocketCore
import ServiceLifecycle

/// `pocket serve`'s daily backup: at the configured time each day, one archive of the data folder
/// (made on a thread of its own while requests carry on), then the folder pruned to the last 7
/// daily and 4 weekly archives. Each backup and each removal is logged.
public struct DailyBackups: Service {
    private let schedule: PocketConfiguration.BackupSchedule
    private let dataDirectory: URL
    private let layout: DataFolderLayout
    private let logger: Logger
    private let health: BackupHealth

    /// Backs up what `layout` names in `dataDirectory` on `schedule`, keeping the last failure in its `BackupHealth`.
    public init(schedule: PocketConfiguration.BackupSchedule, dataDirectory: URL, layout: DataFolderLayout, logger: Logger) {
        self.schedule = schedule
        self.dataDirectory = dataDirectory
        self.layout = layout
        self.logger = logger
        health = BackupHealth(dataDirectory: dataDirectory)
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let due = schedule.next(after: Date())
                do {
                    try await Task.sleep(for: .milliseconds(max(0, Int64(due.timeIntervalSinceNow * 1000))))
                } catch {
                    return
                }
                await backUp()
            }
        }
    }

    /// Makes one archive and prunes the shelf. A failure is logged at warning and recorded
    /// (`BackupHealth`) for Settings and `/healthz` until a backup succeeds; it is tried again the next day.
    public func backUp() async {
        let started = ContinuousClock.now
        do {
            let made = try await BackupMaker(dataDirectory: dataDirectory, layout: layout).makeOffThread(into: schedule.directory)
            health.recordSuccess()
            let elapsed = ContinuousClock.now - started
            logger.notice("backup made: \(made.url.path) (\(made.size) bytes, \(made.manifest.files.count) files, \(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000) ms)")
            for removed in BackupShelf(folder: schedule.directory).prune() {
                logger.notice("backup removed (keeping the last 7 daily and 4 weekly): \(removed.url.lastPathComponent)")
            }
        } catch {
            health.recordFailure(error.description)
            logger.warning("backup failed: \(error.description)")
        }
    }
}
