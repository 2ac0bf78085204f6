import Foundation
import Testing
@testable import Conference

/// A restore of a backup taken before a Conference update (issue #33): the backup's state names
/// no installed database (or an older one), the data folder it replaces has a newer one installed.
@Suite("A restore keeps the installed Conference database")
struct RestoreKeepsInstalledTests {
    @Test func aRestoredFolderKeepsTheDatabaseInstalledSinceItsBackup() async throws {
        let restored = TestFiles.folder("restored-conference")
        defer { try? FileManager.default.removeItem(at: restored) }
        // The backup's state: taken while the sample was in use.
        try ConferenceLibrary.migrateState(inFolder: restored)
        try await InstallerHarness.run { harness in
            try await harness.install(Release.make("2", in: TestFiles.folder("restore-2")))
            let installed = try #require(await harness.library.installedDatabase())

            #expect(try await ConferenceLibrary.keepInstalled(from: harness.folder, into: restored))
            #expect(try await !ConferenceLibrary.keepInstalled(from: harness.folder, into: restored))

            // The restore carries `databases/` over from the folder it replaced.
            try FileManager.default.copyItem(at: harness.folder.appendingPathComponent("databases"), to: restored.appendingPathComponent("databases"))
            let library = try await ConferenceLibrary.open(folder: restored)
            #expect(await library.installedDatabase()?.fileName == installed.fileName)
            #expect(await library.installedDatabase()?.version == "2")
            #expect(FileManager.default.fileExists(atPath: restored.appendingPathComponent("databases/\(installed.fileName)").path))
        }
    }

    @Test func anInstalledFileThatNoLongerOpensIsNotKept() async throws {
        let restored = TestFiles.folder("restored-conference-damaged")
        defer { try? FileManager.default.removeItem(at: restored) }
        try ConferenceLibrary.migrateState(inFolder: restored)
        try await InstallerHarness.run { harness in
            try await harness.install(Release.make("2", in: TestFiles.folder("restore-damaged-2")))
            let installed = try #require(await harness.library.installedDatabase())
            try Data("not a database".utf8).write(to: harness.folder.appendingPathComponent("databases/\(installed.fileName)"))

            #expect(try await !ConferenceLibrary.keepInstalled(from: harness.folder, into: restored))
        }
    }
}
