import Foundation
import GRDB
import Testing
@testable import PocketCore

/// What a backup and a restore must never do when things go wrong (issue #33): replace a folder
/// that is not Pocket's, lose the data to a restore cut short, restore an archive without its
/// people, carry earlier backups inside a new one, or leave a killed backup's copies behind.
@Suite("Backups that can't hurt")
struct BackupSafetyTests {
    private let manager = FileManager.default

    static let layout = DataFolderLayout(databases: ["people.sqlite": PeopleDatabase.migrationIdentifiers])

    private var restorer: BackupRestorer {
        BackupRestorer(layout: Self.layout)
    }

    /// A Pocket data folder (opened as every command opens it) with one person, and its archive.
    private func makeFolder(people names: [String] = ["Ann"]) async throws -> (root: URL, data: URL, archive: URL) {
        let root = manager.temporaryDirectory.appendingPathComponent("pocket-safety-\(UUID().uuidString)")
        let data = try DataDirectory(url: root.appendingPathComponent("data")).url
        let people = try PeopleDatabase.onDisk(at: data.appendingPathComponent("people.sqlite"))
        for name in names { _ = try await people.addPerson(name: name, password: "correct horse battery", isOwner: name == names.first) }
        try people.writer.close()
        let made = try BackupMaker(dataDirectory: data, layout: Self.layout).make(into: root.appendingPathComponent("shelf"))
        return (root, data, made.url)
    }

    private func names(in folder: URL) throws -> [String] {
        try manager.contentsOfDirectory(atPath: folder.path).sorted()
    }

    private func people(in folder: URL) async throws -> [String] {
        try await PeopleDatabase.onDisk(at: folder.appendingPathComponent("people.sqlite")).people().map(\.name)
    }

    @Test func openingAFolderMarksItAsPockets() throws {
        let root = manager.temporaryDirectory.appendingPathComponent("pocket-safety-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: root) }
        #expect(!DataFolderMarker.isMarked(root))
        let directory = try DataDirectory(url: root)
        #expect(DataFolderMarker.isMarked(directory.url))
        #expect(try manager.attributesOfItem(atPath: directory.file(DataFolderMarker.fileName).path)[.posixPermissions] as? Int == 0o600)
    }

    @Test func aRestoreRefusesAFolderOfSomeoneElsesFilesThoughItHoldsAnSQLiteFile() async throws {
        let (root, _, archive) = try await makeFolder()
        defer { try? manager.removeItem(at: root) }
        let documents = root.appendingPathComponent("documents")
        try manager.createDirectory(at: documents, withIntermediateDirectories: true)
        try Data("chapter one".utf8).write(to: documents.appendingPathComponent("thesis.txt"))
        let history = try DatabaseQueue(path: documents.appendingPathComponent("firefox-history.sqlite").path)
        try await history.write { db in try db.execute(sql: "CREATE TABLE visit(url TEXT)") }
        try history.close()

        await #expect(throws: BackupError.notPocketsFolder(documents.path)) {
            _ = try await restorer.restore(archive, into: documents) { _ in }
        }
        #expect(try names(in: documents) == ["firefox-history.sqlite", "thesis.txt"])
        #expect(try names(in: root) == ["data", "documents", "shelf"])
    }

    @Test func aRestoreIntoPocketsFolderKeepsEveryFilePocketDidNotWrite() async throws {
        let (root, data, archive) = try await makeFolder()
        defer { try? manager.removeItem(at: root) }
        try Data("chapter one".utf8).write(to: data.appendingPathComponent("thesis.txt"))
        try manager.createDirectory(at: data.appendingPathComponent("notes"), withIntermediateDirectories: true)
        try Data("n".utf8).write(to: data.appendingPathComponent("notes/a.txt"))
        _ = try await PeopleDatabase.onDisk(at: data.appendingPathComponent("people.sqlite")).addPerson(name: "Bea", password: "correct horse battery", isOwner: false)

        let report = try await restorer.restore(archive, into: data) { _ in }

        #expect(report.carriedOver == ["notes", "thesis.txt"])
        #expect(try String(contentsOf: data.appendingPathComponent("thesis.txt"), encoding: .utf8) == "chapter one")
        #expect(manager.fileExists(atPath: data.appendingPathComponent("notes/a.txt").path))
        #expect(try await people(in: data) == ["Ann"])
        #expect(DataFolderMarker.isMarked(data))
    }

    @Test func anArchiveWithoutThePeopleDatabaseIsRefused() async throws {
        let (root, data, _) = try await makeFolder()
        defer { try? manager.removeItem(at: root) }
        // A folder with a database but no people: nothing to back up, and so no archive without them.
        let other = root.appendingPathComponent("other")
        try manager.createDirectory(at: other, withIntermediateDirectories: true)
        try manager.copyItem(at: data.appendingPathComponent("people.sqlite"), to: other.appendingPathComponent("plates.sqlite"))
        #expect(throws: BackupError.nothingToBackUp(other.path)) { try BackupMaker(dataDirectory: other, layout: Self.layout).make(into: root.appendingPathComponent("other-shelf")) }
    }

    @Test func everyCommandFinishesARestoreCutShortBetweenItsTwoRenames() async throws {
        let (root, data, archive) = try await makeFolder()
        defer { try? manager.removeItem(at: root) }
        try Data("chapter one".utf8).write(to: data.appendingPathComponent("thesis.txt"))
        // Acted out: unpacked, migrated and marked ready, the data folder moved aside, then killed.
        let staging = root.appendingPathComponent(".data.restoring-1a2b3c4d"), aside = root.appendingPathComponent(".data.before-restore-1a2b3c4d")
        _ = try restorer.unpack(archive, into: staging)
        try DataFolderMarker.mark(staging)
        try manager.moveItem(at: data, to: aside)

        #expect(try restorer.recoverInterrupted(data) == .finished(folder: data.path))
        #expect(try names(in: root) == ["data", "shelf"])
        #expect(try await people(in: data) == ["Ann"])
        #expect(manager.fileExists(atPath: data.appendingPathComponent("thesis.txt").path))
        #expect(try restorer.recoverInterrupted(data) == nil)
    }

    @Test func aRestoreCutShortBeforeItsArchiveWasReadyIsRolledBack() async throws {
        let (root, data, archive) = try await makeFolder()
        defer { try? manager.removeItem(at: root) }
        let before = try names(in: data).filter { $0 != DataFolderLock.fileName }
        // Killed while unpacking (no mark yet), once with the data folder still there, once after it was moved aside.
        let staging = root.appendingPathComponent(".data.restoring-00000001")
        _ = try restorer.unpack(archive, into: staging)
        #expect(try restorer.recoverInterrupted(data) == .rolledBack(folder: data.path))
        #expect(try names(in: root) == ["data", "shelf"])

        _ = try restorer.unpack(archive, into: staging)
        try manager.moveItem(at: data, to: root.appendingPathComponent(".data.before-restore-00000001"))
        #expect(try restorer.recoverInterrupted(data) == .rolledBack(folder: data.path))
        #expect(try names(in: root) == ["data", "shelf"])
        #expect(try names(in: data).filter { $0 != DataFolderLock.fileName } == before)
        #expect(try await people(in: data) == ["Ann"])
    }

    @Test func aRestoreStillRunningIsNotTakenForOneCutShort() async throws {
        let (root, data, archive) = try await makeFolder()
        defer { try? manager.removeItem(at: root) }
        let staging = root.appendingPathComponent(".data.restoring-00000002")
        _ = try restorer.unpack(archive, into: staging)
        var running = try DataFolderLock.forRestoring(staging)
        #expect(running != nil)
        #expect(throws: BackupError.restoreUnderWay(data.path)) { try restorer.recoverInterrupted(data) }
        #expect(manager.fileExists(atPath: staging.path))
        running = nil
        #expect(try restorer.recoverInterrupted(data) == .rolledBack(folder: data.path))
        withExtendedLifetime(running) {}
    }

    @Test func aBackupNeverHoldsEarlierBackupsWhereverItIsWritten() async throws {
        let (root, data, _) = try await makeFolder()
        defer { try? manager.removeItem(at: root) }
        let inside = try BackupMaker(dataDirectory: data, layout: Self.layout).make(into: data.appendingPathComponent("backups"))
        _ = try BackupMaker(dataDirectory: data, layout: Self.layout).make(into: data.appendingPathComponent("backups"))
        try manager.createDirectory(at: data.appendingPathComponent("usb"), withIntermediateDirectories: true)
        try manager.copyItem(at: inside.url, to: data.appendingPathComponent("usb/\(inside.url.lastPathComponent)"))

        let elsewhere = try BackupMaker(dataDirectory: data, layout: Self.layout).make(into: root.appendingPathComponent("usb"))

        #expect(elsewhere.manifest.files.map(\.path) == ["people.sqlite"])
        #expect(elsewhere.manifest.leftOut.map(\.path) == ["backups", "usb/\(inside.url.lastPathComponent)"])
        #expect(elsewhere.size < inside.size * 3 / 2)
    }

    @Test func copiesAKilledBackupLeftAreRemovedByTheNextBackupButNotWhileOneRuns() async throws {
        let (root, data, _) = try await makeFolder()
        defer { try? manager.removeItem(at: root) }
        let shelf = BackupShelf(folder: root.appendingPathComponent("shelf"))
        // While a backup runs (it holds the shelf's lock), a copy beside it may be its own.
        var running: BackupShelf.Hold? = try shelf.holdForBackingUp()
        let left = shelf.folder.appendingPathComponent(".pocket-backup-\(UUID().uuidString)")
        try manager.createDirectory(at: left, withIntermediateDirectories: true)
        try manager.copyItem(at: data.appendingPathComponent("people.sqlite"), to: left.appendingPathComponent("people.sqlite"))
        #expect(shelf.removeStaleStaging().isEmpty)
        #expect(manager.fileExists(atPath: left.path))
        running = nil

        _ = try BackupMaker(dataDirectory: data, layout: Self.layout).make(into: shelf.folder)
        #expect(!manager.fileExists(atPath: left.path))
        #expect(try names(in: shelf.folder).filter { $0.hasPrefix(".pocket-backup-") && $0 != ".pocket-backup.lock" }.isEmpty)
        withExtendedLifetime(running) {}
    }

    @Test func aFullDiskIsSaidToBeFullAndWhereHoweverTheFailingLayerPutsIt() {
        let folder = URL(fileURLWithPath: "/mnt/usb")
        #expect(FileProblem.describe(POSIXError(.ENOSPC), at: folder) == "the disk holding /mnt/usb is full")
        #expect(FileProblem.describe(DatabaseError(resultCode: .SQLITE_FULL), at: folder) == "the disk holding /mnt/usb is full")
        #expect(FileProblem.describe(NSError(domain: NSCocoaErrorDomain, code: NSFileWriteOutOfSpaceError), at: folder) == "the disk holding /mnt/usb is full")
        let wrapped = NSError(domain: NSCocoaErrorDomain, code: 512, userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EDQUOT))])
        #expect(FileProblem.describe(wrapped, at: folder) == "the disk holding /mnt/usb is full")
        #expect(FileProblem.describe(POSIXError(.EACCES), at: folder) == "permission denied")
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give files to another user"))
    func aRestoreRunAsRootKeepsTheFoldersOwnerAndMode() async throws {
        let (root, data, archive) = try await makeFolder()
        defer { try? manager.removeItem(at: root) }
        let service: uid_t = 65534, group: gid_t = 65534
        for path in try [data.path] + names(in: data).map({ data.appendingPathComponent($0).path }) { #expect(lchown(path, service, group) == 0) }
        chmod(data.path, 0o750)

        _ = try await restorer.restore(archive, into: data) { _ in }

        var info = stat()
        for name in try [""] + names(in: data) {
            #expect(lstat(data.appendingPathComponent(name).path, &info) == 0)
            #expect(info.st_uid == service && info.st_gid == group, "\(name)")
        }
        #expect(lstat(data.path, &info) == 0 && info.st_mode & 0o777 == 0o750)
    }
}
