import Foundation
import Hummingbird
import HummingbirdTesting
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
        await DailyBackups(schedule: .init(directory: shelf), dataDirectory: data, layout: DataFolderLayout(databases: ["people.sqlite": PeopleDatabase.migrationIdentifiers]), logger: Logger(label: "test")).backUp()

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

    /// Issue #33: a failing daily backup is said where the owner looks, not only in the log.
    @Test func aFailingDailyBackupShowsInSettingsAndHealthzUntilOneSucceeds() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("daily-backups-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        _ = try await PeopleDatabase.onDisk(at: data.appendingPathComponent("people.sqlite")).addPerson(name: "Ann", password: "correct horse battery", isOwner: true)
        // A backup folder that cannot be made: its parent is a file.
        try Data("x".utf8).write(to: root.appendingPathComponent("usb"))
        let shelf = root.appendingPathComponent("usb/backups")

        await DailyBackups(schedule: .init(directory: shelf), dataDirectory: data, layout: DataFolderLayout(databases: ["people.sqlite": PeopleDatabase.migrationIdentifiers]), logger: Logger(label: "test")).backUp()

        let health = BackupHealth(dataDirectory: data)
        let failure = try #require(health.failure())
        #expect(failure.problem.contains(shelf.path))
        let household = try await TestHousehold.make()
        let router = Router(context: PocketRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: SignInAs(member: household.owner))
        let app = Application(router: buildRouter(renderer: try PageRenderer(resources: WebResources.bundled()), apps: [], people: WebPeople(store: household.people),
                                                  household: HouseholdData(backups: BackupShelf(folder: shelf), backupHealth: health), router: router))
        try await app.test(.router) { client in
            let page = try await client.execute(uri: PeopleRoute.settings.href(), method: .get) { $0.text }
            #expect(page.contains("id=\"settings-backup-failed\"") && page.contains(shelf.path))
            let memberPage = try await client.execute(uri: PeopleRoute.settings.href(), method: .get, headers: [.cookie: household.member.cookie]) { $0.text }
            #expect(!memberPage.contains("settings-backup-failed"))
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                let answer = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                let unwell = answer?["unwell"] as? [String: String]
                #expect(unwell?["backup"]?.hasPrefix("the daily backup failed at ") == true)
            }
        }

        await DailyBackups(schedule: .init(directory: root.appendingPathComponent("good")), dataDirectory: data, layout: DataFolderLayout(databases: ["people.sqlite": PeopleDatabase.migrationIdentifiers]), logger: Logger(label: "test")).backUp()
        #expect(health.failure() == nil)
    }
}
