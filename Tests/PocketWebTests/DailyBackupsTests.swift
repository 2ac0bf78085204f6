import Foundation
import Logging
import PocketCore
import Testing
@testable import PocketWeb

/// What `pocket serve` does each day: one archive of the data folder, then the shelf pruned.
@Suite("Daily backups")
struct DailyBackupsTests {
    @Test func aDailyBackupMakesAnArchiveAndPrunesTheShelfToTheLastDaysAndWeeks() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("daily-backups-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data"), shelf = root.appendingPathComponent("backups")
        for folder in [data, shelf] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let people = try PeopleDatabase.onDisk(at: data.appendingPathComponent("people.sqlite"))
        _ = try await people.addPerson(name: "Ann", password: "correct horse battery", isOwner: true)
        // Given archives of 1 to 10 January 2020, and a file that is not Pocket's,
        for day in 1...10 {
            try Data("old".utf8).write(to: shelf.appendingPathComponent(String(format: "pocket-backup-2020-01-%02dT033000Z.zip", day)))
        }
        try Data("mine".utf8).write(to: shelf.appendingPathComponent("notes.txt"))

        // when the day's backup runs,
        await DailyBackups(schedule: .init(directory: shelf), dataDirectory: data, logger: Logger(label: "test")).backUp()

        // then today's archive is the newest, the oldest days are gone, and other files stay.
        let archives = BackupShelf(folder: shelf).archives()
        #expect(Calendar.current.isDateInToday(try #require(archives.first).date))
        let names = Set(archives.map(\.url.lastPathComponent))
        for day in 1...3 { #expect(!names.contains(String(format: "pocket-backup-2020-01-%02dT033000Z.zip", day))) }
        for day in 5...10 { #expect(names.contains(String(format: "pocket-backup-2020-01-%02dT033000Z.zip", day))) }
        #expect(FileManager.default.fileExists(atPath: shelf.appendingPathComponent("notes.txt").path))
    }

    @Test func theNextBackupIsDueAtTheConfiguredTimeOfDay() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let schedule = PocketConfiguration.BackupSchedule(directory: URL(fileURLWithPath: "/b"), hour: 3, minute: 30)
        let evening = try #require(calendar.date(from: DateComponents(year: 2026, month: 11, day: 26, hour: 22)))
        let early = try #require(calendar.date(from: DateComponents(year: 2026, month: 11, day: 26, hour: 1)))
        #expect(schedule.next(after: evening, calendar: calendar) == calendar.date(from: DateComponents(year: 2026, month: 11, day: 27, hour: 3, minute: 30)))
        #expect(schedule.next(after: early, calendar: calendar) == calendar.date(from: DateComponents(year: 2026, month: 11, day: 26, hour: 3, minute: 30)))
    }
}
