import Foundation

// Removing what interrupted installs left, always under the install lock (`InstallLock`): an
// install moves its file into `databases/` before it records it, and keeps its downloads in
// `incoming/`, so only whoever holds the lock can tell a leftover from a file about to be used.

extension ConferenceLibrary {
    /// Removes leftovers unless an install (or another tidy-up) holds the lock: the install cleans
    /// up after itself, and a start-up never waits for one.
    func removeLeftoversUnlessInstalling() async {
        guard let lock = InstallLock.tryAcquire(in: folder) else { return }
        defer { lock.release() }
        await removeLeftovers(holding: lock)
    }

    /// Removes every database file but the one the install record names and the sample, every
    /// temporary file but downloads a later run can resume, and every digest but that of the file
    /// in use (the recorded one, else the sample), staged ones included. Asks for the lock it must
    /// be called under.
    func removeLeftovers(holding _: InstallLock) async {
        let record: InstalledDatabase?
        do {
            // Read under the lock, so no install can record another file until it is let go.
            record = try await state.installed()
        } catch {
            return
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: databasesFolder.path)) ?? []
        let kept = Set([record?.fileName, SampleDatabase.fileName].compactMap { $0 })
        for name in names where !kept.contains(Self.databaseName(of: name)) {
            try? FileManager.default.removeItem(at: databasesFolder.appendingPathComponent(name))
        }
        cleanIncoming(keeping: resumableDownloads())
        try? await state.deleteDigests(except: record?.fileName ?? SampleDatabase.fileName)
    }

    /// Deletes every file in `incoming` but those named in `keeping`; only under the install lock.
    nonisolated func cleanIncoming(keeping: Set<String> = []) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: incomingFolder.path)) ?? [] where !keeping.contains(name) {
            try? FileManager.default.removeItem(at: incomingFolder.appendingPathComponent(name))
        }
    }

    /// The downloads in `incoming` that a later run can resume with `Range`: each partial file
    /// with the record beside it of which version of the file it holds (both names).
    nonisolated func resumableDownloads() -> Set<String> {
        let names = Set((try? FileManager.default.contentsOfDirectory(atPath: incomingFolder.path)) ?? [])
        var resumable = Set<String>()
        for name in names where name.hasSuffix(ResumeRecord.partSuffix) {
            let record = String(name.dropLast(ResumeRecord.partSuffix.count)) + ResumeRecord.recordSuffix
            if names.contains(record), ResumeRecord.load(incomingFolder.appendingPathComponent(record))?.validator != nil {
                resumable.formUnion([name, record])
            }
        }
        return resumable
    }
}

// MARK: - Private

private extension ConferenceLibrary {
    /// The database a file in `databases/` belongs to: itself, or the file whose SQLite journal it is.
    static func databaseName(of name: String) -> String {
        ["-wal", "-shm", "-journal"].reduce(name) { name, suffix in
            name.hasSuffix(suffix) ? String(name.dropLast(suffix.count)) : name
        }
    }
}
