import Foundation
import GRDB
import PocketCore
import Testing
@testable import Conference

/// Every way an install can fail: one clear message, temporary files removed, and the previous
/// database (version 2) still serving.
@Suite("Installer failures")
struct InstallerFailureTests {
    /// Installs version 2, then tries version 3 served as `broken` describes; the failure must be
    /// `expected`, and version 2 must still serve with no temporary file left.
    private func expectFailure(
        _ expected: @escaping @Sendable (ConferenceError, String) -> Bool,
        idleTimeout: Duration = .seconds(15),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ broken: @escaping @Sendable (InstallerHarness, Release) throws -> Void
    ) async throws {
        try await InstallerHarness.run(idleTimeout: idleTimeout) { harness in
            try await harness.install(Release.make("2", in: harness.folder))
            let next = try Release.make("3", in: harness.folder)
            try broken(harness, next)
            do {
                let outcome = try await harness.installer.update(manifestURL: harness.manifestURL)
                Issue.record("the update succeeded: \(outcome)", sourceLocation: sourceLocation)
            } catch let error as ConferenceError {
                #expect(expected(error, next.zipName), "unexpected failure: \(error)", sourceLocation: sourceLocation)
                #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
                #expect(await harness.installer.latest.phase == .failed(error.description), sourceLocation: sourceLocation)
            } catch {
                Issue.record("not a ConferenceError: \(error)", sourceLocation: sourceLocation)
            }
            try await harness.expectStillServing("2", sourceLocation: sourceLocation)
        }
    }

    /// Installs version 2, then tries version 3, whose download breaks off as `behavior` says;
    /// the failure must be `expected`, and version 2 must still serve. The partial download is
    /// kept, so the next run (the server behaving again) asks only for the rest, with `Range`.
    private func expectResumed(
        after behavior: FixtureServer.Behavior,
        idleTimeout: Duration = .seconds(15),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ expected: @escaping @Sendable (ConferenceError) -> Bool
    ) async throws {
        try await InstallerHarness.run(idleTimeout: idleTimeout) { harness in
            try await harness.install(Release.make("2", in: harness.folder))
            let next = try Release.make("3", in: harness.folder)
            next.publish(on: harness.server, zipBehavior: behavior)
            do {
                let outcome = try await harness.installer.update(manifestURL: harness.manifestURL)
                Issue.record("the update succeeded: \(outcome)", sourceLocation: sourceLocation)
            } catch let error as ConferenceError {
                #expect(expected(error), "unexpected failure: \(error)", sourceLocation: sourceLocation)
            }
            let part = next.zipName + ".part"
            try await harness.expectStillServing("2", keeping: [part, next.zipName + ".resume.json"], sourceLocation: sourceLocation)
            let kept = try Data(contentsOf: harness.library.incomingFolder.appendingPathComponent(part)).count
            #expect(kept > 0 && kept < next.zip.count, sourceLocation: sourceLocation)

            harness.server.setBehavior(next.zipName, .normal)
            let before = harness.server.requests(for: next.zipName).count
            #expect(try await harness.installer.update(manifestURL: harness.manifestURL).database.version == "3", sourceLocation: sourceLocation)
            #expect(harness.server.requests(for: next.zipName).dropFirst(before).map(\.range) == ["bytes=\(kept)-"], sourceLocation: sourceLocation)
            #expect(TestFiles.contents(of: harness.library.incomingFolder) == [], sourceLocation: sourceLocation)
        }
    }

    @Test func aMissingManifestIsOneClearMessage() async throws {
        try await expectFailure({ error, _ in error == .manifestUnavailable("the server answered 404") }) { harness, _ in
            harness.server.setBehavior("sci-core.json", .status(404))
        }
    }

    @Test func aServerErrorOnTheManifestIsOneClearMessage() async throws {
        try await expectFailure({ error, _ in error == .manifestUnavailable("the server answered 500") }) { harness, _ in
            harness.server.setBehavior("sci-core.json", .status(500))
        }
    }

    @Test func anUnreachableServerIsOneClearMessage() async throws {
        try await InstallerHarness.run { harness in
            try await harness.install(Release.make("2", in: harness.folder))
            let closed = try #require(URL(string: "http://127.0.0.1:9/sci-core.json"))
            await #expect(throws: ConferenceError.manifestUnavailable("127.0.0.1 could not be reached")) {
                try await harness.installer.update(manifestURL: closed)
            }
            try await harness.expectStillServing("2")
        }
    }

    @Test func aBadManifestIsRefused() async throws {
        try await expectFailure({ error, _ in error == .invalidManifest("“download-name” (“../../etc/sci-core.3.zip”) is not a plain file name") }) { harness, next in
            var values = try JSONSerialization.jsonObject(with: next.manifest) as? [String: Any] ?? [:]
            values["download-name"] = "../../etc/sci-core.3.zip"
            harness.server.put("sci-core.json", TestFiles.manifestJSON(values))
        }
    }

    @Test func aMissingZipIsOneClearMessage() async throws {
        try await expectFailure({ error, _ in error == .downloadFailed("the server answered 404") }) { harness, next in
            next.publish(on: harness.server, zipBehavior: .status(404))
        }
    }

    @Test func aServerErrorOnTheZipIsOneClearMessage() async throws {
        try await expectFailure({ error, _ in error == .downloadFailed("the server answered 500") }) { harness, next in
            next.publish(on: harness.server, zipBehavior: .status(500))
        }
    }

    @Test func aStalledDownloadTimesOutAndTheNextRunResumesIt() async throws {
        try await expectResumed(after: .stalls(seconds: 3), idleTimeout: .milliseconds(500)) { error in
            error == .downloadFailed("the server did not answer in time")
        }
    }

    @Test func aConnectionThatKeepsDroppingGivesUpAndTheNextRunResumesIt() async throws {
        try await expectResumed(after: .dropsFirst(10)) { error in
            if case .downloadFailed(let text) = error { return text.contains("the connection dropped") }
            return false
        }
    }

    @Test func aZipWithTheWrongMD5IsRefused() async throws {
        try await expectFailure({ error, name in
            error == .checksumMismatch(file: name, expected: String(repeating: "a", count: 32), actual: error.actualMD5 ?? "")
        }) { harness, next in
            next.publish(on: harness.server)
            var values = try JSONSerialization.jsonObject(with: next.manifest) as? [String: Any] ?? [:]
            values["download-md5"] = String(repeating: "a", count: 32)
            harness.server.put("sci-core.json", TestFiles.manifestJSON(values))
        }
    }

    @Test func aZipOfTheWrongSizeIsRefused() async throws {
        try await expectFailure({ error, _ in
            if case .downloadFailed(let text) = error { return text.contains("but 99 were expected") }
            return false
        }) { harness, next in
            next.publish(on: harness.server)
            var values = try JSONSerialization.jsonObject(with: next.manifest) as? [String: Any] ?? [:]
            values["download-size"] = "99"
            harness.server.put("sci-core.json", TestFiles.manifestJSON(values))
        }
    }

    @Test func aDatabaseWithTheWrongMD5IsRefused() async throws {
        try await expectFailure({ error, _ in
            if case .checksumMismatch(file: "core.3.db", _, _) = error { return true }
            return false
        }) { harness, next in
            next.publish(on: harness.server)
            var values = try JSONSerialization.jsonObject(with: next.manifest) as? [String: Any] ?? [:]
            values["content-md5"] = String(repeating: "b", count: 32)
            harness.server.put("sci-core.json", TestFiles.manifestJSON(values))
        }
    }

    @Test func aDatabaseSmallerThanTheManifestSaysIsRefused() async throws {
        try await expectFailure({ error, _ in
            if case .sizeMismatch(file: "core.3.db", _, _) = error { return true }
            return false
        }) { harness, next in
            next.publish(on: harness.server)
            var values = try JSONSerialization.jsonObject(with: next.manifest) as? [String: Any] ?? [:]
            values["content-size"] = String(next.database.count + 10)
            harness.server.put("sci-core.json", TestFiles.manifestJSON(values))
        }
    }

    @Test func aCorruptZipIsRefused() async throws {
        try await expectFailure({ error, _ in error == .corruptArchive("it is not a readable zip file") }) { harness, next in
            let junk = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            Release(version: "3", database: next.database, zip: junk, zipName: next.zipName, contentName: next.contentName).publish(on: harness.server)
        }
    }

    @Test func aZipSlipEntryIsRefused() async throws {
        try await expectFailure({ error, _ in error == .unsafeArchiveEntry("../../core.3.db") }) { harness, next in
            let zip = try TestFiles.zip([("../../core.3.db", next.database), ("core.3.db", next.database)])
            Release(version: "3", database: next.database, zip: zip, zipName: next.zipName, contentName: next.contentName).publish(on: harness.server)
        }
        // Nothing was written outside the data folder's temporary folder.
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.temporaryDirectory.appendingPathComponent("core.3.db").path))
    }

    @Test func aZipBombIsStopped() async throws {
        try await expectFailure({ error, _ in error == .archiveEntryTooLarge(name: "core.3.db", limit: 4096) }) { harness, next in
            let bomb = Data(count: 20_000_000)
            var zip = try TestFiles.zip([("core.3.db", bomb)])
            ZipExtractorTests.patchUncompressedSize(of: &zip, to: 4096)
            let small = Data(repeating: 0, count: 4096)
            harness.server.put("sci-core.json", TestFiles.manifest(version: "3", zip: zip, zipName: next.zipName, content: small, contentName: "core.3.db"))
            harness.server.put(next.zipName, zip)
        }
    }

    @Test func aZipWithoutTheDatabaseIsRefused() async throws {
        try await expectFailure({ error, _ in error == .missingArchiveEntry("core.3.db") }) { harness, next in
            let zip = try TestFiles.zip([("readme.txt", Data("hello".utf8))])
            Release(version: "3", database: next.database, zip: zip, zipName: next.zipName, contentName: next.contentName).publish(on: harness.server)
        }
    }

    @Test func somethingThatIsNotADatabaseIsRefused() async throws {
        try await expectFailure({ error, _ in error == .notADatabase("the file is not an SQLite database") }) { harness, next in
            let text = Data(String(repeating: "not a database\n", count: 100).utf8)
            let zip = try TestFiles.zip([(next.contentName, text)])
            Release(version: "3", database: text, zip: zip, zipName: next.zipName, contentName: next.contentName).publish(on: harness.server)
        }
    }

    @Test func aDatabaseWithoutTheExpectedTablesIsRefused() async throws {
        try await expectFailure({ error, _ in error == .missingTables(["talk", "speaker.GivenNames"]) }) { harness, next in
            let file = try TestFiles.coreDatabase(in: TestFiles.folder("tables"), name: "core.3.db") { db in
                try db.execute(sql: "DROP TABLE talk; ALTER TABLE speaker RENAME COLUMN GivenNames TO FirstNames")
            }
            let data = try Data(contentsOf: file)
            let zip = try TestFiles.zip([(next.contentName, data)])
            Release(version: "3", database: data, zip: zip, zipName: next.zipName, contentName: next.contentName).publish(on: harness.server)
        }
    }

    @Test func aDamagedDatabaseFailsQuickCheck() async throws {
        try await expectFailure({ error, _ in
            // One line for the person, however long quick_check's report; the report is for the log.
            guard case .damagedDatabase = error, !error.description.contains("\n"), error.description.count < 300 else { return false }
            return error.logDetail?.isEmpty == false
        }) { harness, next in
            var data = next.database
            // Overwrite the b-tree page type of the last page (an index after VACUUM).
            let pageSize = 4096
            data[data.count - pageSize] = 0xFF
            data[data.count - pageSize + 1] = 0xFF
            let zip = try TestFiles.zip([(next.contentName, data)])
            Release(version: "3", database: data, zip: zip, zipName: next.zipName, contentName: next.contentName).publish(on: harness.server)
        }
    }
}

private extension ConferenceError {
    var actualMD5: String? {
        if case .checksumMismatch(_, _, let actual) = self { return actual }
        return nil
    }
}

@Suite("Damaged database report")
struct DamagedDatabaseReportTests {
    @Test func aHundredLineReportBecomesOneLineAndTheWholeReportIsKeptForTheLog() {
        let report = "*** in database main ***\n" + (1...100).map { "Page \($0): btreeInitPage() returns error code 11" }.joined(separator: "\n")
        let error = DatabaseVerifier.damage([report])
        #expect(error.description == "The database is damaged: SQLite’s quick_check found “Page 1: btreeInitPage() returns error code 11” and 100 more problems")
        #expect(error.logDetail?.split(separator: "\n").count == 101)
        #expect(DatabaseVerifier.damage(["row 1", "row 2"]).description.hasSuffix("“row 1” and 1 more problem"))
        #expect(DatabaseVerifier.damage([String(repeating: "x", count: 500)]).description.count < 220)
    }
}
