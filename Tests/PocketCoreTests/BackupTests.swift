import Foundation
import GRDB
import Testing
@testable import PocketCore

/// Backups of real data folders (real SQLite files in WAL mode, real zip archives), verified and
/// restored by `BackupRestorer`; what the CLI suite does with processes, here at the library's level.
@Suite("Backups")
struct BackupTests {
    /// A data folder with a live people database, a second database, a CA key, a Conference
    /// database, plate pictures and locks (which must be left out).
    private func makeFolder() throws -> (root: URL, data: URL, people: PeopleDatabase) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pocket-backup-\(UUID().uuidString)")
        let data = root.appendingPathComponent("data")
        for folder in ["tls", "conference/databases", "plates-images"] {
            try FileManager.default.createDirectory(at: data.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try Data("key".utf8).write(to: data.appendingPathComponent("tls/ca.key"))
        chmod(data.appendingPathComponent("tls/ca.key").path, 0o600)
        try Data("sci-core".utf8).write(to: data.appendingPathComponent("conference/databases/core.53.1.db"))
        try Data("png".utf8).write(to: data.appendingPathComponent("plates-images/AL.png"))
        try Data().write(to: data.appendingPathComponent("conference/installer.lock"))
        try Data().write(to: data.appendingPathComponent(DataFolderLock.fileName))
        let people = try PeopleDatabase.onDisk(at: data.appendingPathComponent("people.sqlite"))
        return (root, data, people)
    }

    /// The files of `makeFolder`'s folder that Pocket writes: `writes.sqlite` stands for an app's store.
    static let layout = DataFolderLayout(databases: ["people.sqlite": PeopleDatabase.migrationIdentifiers, "writes.sqlite": []], files: ["tls/ca.key"])

    private var restorer: BackupRestorer {
        BackupRestorer(layout: Self.layout)
    }

    @Test func anArchiveHoldsEveryDatabaseAndTheKeyWithItsModeAndLeavesOutWhatCanBeFetchedAgain() async throws {
        let (root, data, people) = try makeFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try await people.addPerson(name: "Ann", password: "correct horse battery", isOwner: true)

        let made = try BackupMaker(dataDirectory: data, layout: Self.layout).make(into: root.appendingPathComponent("backups"))

        #expect(made.manifest.files.map(\.path) == ["people.sqlite", "tls/ca.key"])
        #expect(made.manifest.files[0].migrations == PeopleDatabase.migrationIdentifiers)
        #expect(made.manifest.files[1].mode == 0o600 && made.manifest.files[1].migrations == nil)
        #expect(Set(made.manifest.leftOut.map(\.path)) == ["conference/databases", "plates-images"])
        #expect(try FileManager.default.attributesOfItem(atPath: made.url.path)[.posixPermissions] as? Int == 0o600)

        // Given the archive, when it is unpacked, then every file is there with its mode and the person too.
        let unpacked = root.appendingPathComponent("unpacked")
        let manifest = try restorer.unpack(made.url, into: unpacked)
        #expect(manifest == made.manifest)
        #expect(try FileManager.default.attributesOfItem(atPath: unpacked.appendingPathComponent("tls/ca.key").path)[.posixPermissions] as? Int == 0o600)
        let copy = try PeopleDatabase.onDisk(at: unpacked.appendingPathComponent("people.sqlite"))
        #expect(try await copy.people().map(\.name) == ["Ann"])
    }

    @Test func aBackupTakenWhile20WritersWriteHoldsEveryCommitAcknowledgedBeforeItBegan() async throws {
        let (root, data, _) = try makeFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let pool = try DatabaseFactory.onDisk(at: data.appendingPathComponent("writes.sqlite"), label: "writes")
        try await pool.write { db in try db.execute(sql: "CREATE TABLE note(id TEXT PRIMARY KEY)") }
        let acknowledged = Acknowledged()

        // When 20 writers commit while a backup is made,
        let made = try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<20 {
                group.addTask {
                    for index in 0..<150 {
                        let id = "\(writer)-\(index)"
                        try await pool.write { db in try db.execute(sql: "INSERT INTO note(id) VALUES (?)", arguments: [id]) }
                        await acknowledged.add(id)
                    }
                }
            }
            while await acknowledged.count < 200 { await Task.yield() }
            let before = await acknowledged.ids
            let made = try await BackupMaker(dataDirectory: data, layout: Self.layout).makeOffThread(into: root.appendingPathComponent("backups"))
            try await group.waitForAll()
            return (made, before)
        }

        // then the copy holds every one acknowledged before it began, and the archive verifies.
        let unpacked = root.appendingPathComponent("unpacked")
        _ = try restorer.unpack(made.0.url, into: unpacked)
        let copy = try DatabaseQueue(path: unpacked.appendingPathComponent("writes.sqlite").path)
        let kept = Set(try await copy.read { db in try String.fetchAll(db, sql: "SELECT id FROM note") })
        #expect(made.1.isSubset(of: kept))
        #expect(kept.count >= made.1.count)
    }

    @Test func aFlippedByteATruncatedArchiveAndANewerMigrationAreRefusedLeavingNothingBehind() async throws {
        let (root, data, people) = try makeFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try await people.addPerson(name: "Ann", password: "correct horse battery", isOwner: true)
        let made = try BackupMaker(dataDirectory: data, layout: Self.layout).make(into: root.appendingPathComponent("backups"))
        let bytes = try Data(contentsOf: made.url)
        let target = root.appendingPathComponent("unpacked")

        let truncated = root.appendingPathComponent("truncated.zip")
        try bytes.prefix(bytes.count / 2).write(to: truncated)
        #expect(throws: BackupError.self) { try restorer.unpack(truncated, into: target) }
        #expect(!FileManager.default.fileExists(atPath: target.path))

        // Every byte of the people database's data, flipped in turn at a few places, is caught.
        let start = try #require(bytes.range(of: Data("people.sqlite".utf8))).upperBound
        for offset in stride(from: start + 20, to: min(start + 400, bytes.count - 200), by: 97) {
            var flipped = bytes
            flipped[offset] ^= 0x10
            let tampered = root.appendingPathComponent("tampered-\(offset).zip")
            try flipped.write(to: tampered)
            #expect(throws: BackupError.self) { try restorer.unpack(tampered, into: target) }
            #expect(!FileManager.default.fileExists(atPath: target.path))
        }

        try await people.writer.write { db in try db.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES ('v99: later')") }
        let newer = try BackupMaker(dataDirectory: data, layout: Self.layout).make(into: root.appendingPathComponent("newer"))
        #expect(throws: BackupError.newerPocket(path: "people.sqlite", migration: "v99: later", version: PocketVersion.current)) {
            try restorer.unpack(newer.url, into: target)
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test func entryNamesThatCouldLeaveTheFolderAreRefused() {
        for path in ["../evil", "/etc/passwd", "a/../../b", "a//b", "./a", "a\\b", "", "a/\u{1}b"] {
            #expect(!BackupRestorer.isSafe(path), "\(path)")
        }
        for path in ["people.sqlite", "tls/ca.key", "conference/state.sqlite", "murals-demo.sqlite"] {
            #expect(BackupRestorer.isSafe(path))
        }
    }

    @Test func aRestoreRefusesWhileAServerHoldsTheFolderAndKeepsWhatTheArchiveLeftOut() async throws {
        let (root, data, people) = try makeFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try await people.addPerson(name: "Ann", password: "correct horse battery", isOwner: true)
        let made = try BackupMaker(dataDirectory: data, layout: Self.layout).make(into: root.appendingPathComponent("backups"))
        _ = try await people.addPerson(name: "Bea", password: "correct horse battery", isOwner: false)

        var serving = try DataFolderLock.forServing(data)
        #expect(serving != nil)
        await #expect(throws: BackupError.serverRunning(data.path)) {
            _ = try await restorer.restore(made.url, into: data) { _ in }
        }
        serving = nil

        let report = try await restorer.restore(made.url, into: data) { _ in }
        #expect(report.carriedOver.contains("conference") && report.carriedOver.contains("plates-images"))
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("conference/databases/core.53.1.db").path))
        let restored = try PeopleDatabase.onDisk(at: data.appendingPathComponent("people.sqlite"))
        #expect(try await restored.people().map(\.name) == ["Ann"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["backups", "data"])
        withExtendedLifetime(serving) {}
    }

    @Test func aRestoreNeverReplacesAFolderThatIsNotPockets() async throws {
        let (root, data, people) = try makeFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try await people.addPerson(name: "Ann", password: "correct horse battery", isOwner: true)
        let made = try BackupMaker(dataDirectory: data, layout: Self.layout).make(into: root.appendingPathComponent("backups"))
        let documents = root.appendingPathComponent("documents")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        try Data("letter".utf8).write(to: documents.appendingPathComponent("letter.txt"))

        await #expect(throws: BackupError.self) {
            _ = try await restorer.restore(made.url, into: documents) { _ in }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: documents.path) == ["letter.txt"])
    }

    @Test func theScheduleKeepsTheNewestOfEachOfTheLast7DaysAnd4Weeks() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        calendar.firstWeekday = 1 // weeks from Sunday
        func at(_ month: Int, _ day: Int, _ hour: Int = 3) throws -> Date {
            try #require(calendar.date(from: DateComponents(year: 2026, month: month, day: day, hour: hour, minute: 30)))
        }
        // Given one archive a day from 1 October to Thursday 26 November, and an earlier one that last day,
        var dates = try (1...31).map { try at(10, $0) } + (1...26).map { try at(11, $0) }
        dates.append(try at(11, 26, 0))
        let archives = dates.enumerated().map { BackupShelf.Archive(url: URL(fileURLWithPath: "/b/\($0.offset).zip"), date: $0.element, size: 1) }

        let kept = BackupShelf.retained(archives, daily: 7, weekly: 4, calendar: calendar)

        // then the newest of 20–26 November are kept, and of the weeks before, 8–14 and 1–7 November's newest.
        let expected = try Set((20...26).map { try at(11, $0) } + [at(11, 14), at(11, 7)])
        #expect(Set(archives.filter { kept.contains($0.url) }.map(\.date)) == expected)
    }

    @Test func backupOptionsResolveLikeEveryOtherSetting() throws {
        let home = ["HOME": "/home/ada"]
        let plain = try PocketConfiguration.resolve(options: .init(), environment: home)
        #expect(plain.backups == .init(directory: URL(fileURLWithPath: "/home/ada/.local/share/pocket/backups", isDirectory: true), hour: 3, minute: 30))
        let fromEnvironment = try PocketConfiguration.resolve(options: .init(), environment: home.merging(["POCKET_BACKUP_TIME": "22:05", "POCKET_BACKUP_DIR": "/srv/b"]) { $1 })
        #expect(fromEnvironment.backups?.hour == 22 && fromEnvironment.backups?.minute == 5 && fromEnvironment.backups?.directory.path == "/srv/b")
        let optionWins = try PocketConfiguration.resolve(options: .init(backups: true, backupTime: "01:00"), environment: home.merging(["POCKET_BACKUPS": "0", "POCKET_BACKUP_TIME": "22:05"]) { $1 })
        #expect(optionWins.backups?.hour == 1)
        #expect(try PocketConfiguration.resolve(options: .init(), environment: home.merging(["POCKET_BACKUPS": "off"]) { $1 }).backups == nil)
        for bad in ["25:00", "3:30", "03:60", "noon", "03:3a"] {
            #expect(throws: ConfigurationError.invalidOption(option: "backup-time", value: bad, expected: "a time of day as HH:MM, such as 03:30")) {
                try PocketConfiguration.resolve(options: .init(backupTime: bad), environment: home)
            }
        }
        #expect(throws: ConfigurationError.self) { try PocketConfiguration.resolve(options: .init(), environment: home.merging(["POCKET_BACKUPS": "maybe"]) { $1 }) }
    }
}

/// Ids whose commits have returned, in order.
private actor Acknowledged {
    private(set) var ids = Set<String>()
    var count: Int { ids.count }
    func add(_ id: String) { ids.insert(id) }
}
