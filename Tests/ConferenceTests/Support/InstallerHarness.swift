import Foundation
import PocketCore
import Testing
@testable import Conference

/// A library in a fresh folder, an installer with short timeouts, and a fixture server on loopback.
struct InstallerHarness: Sendable {
    let folder: URL
    let library: ConferenceLibrary
    let installer: DatabaseInstaller
    let server: FixtureServer
    let base: URL

    var manifestURL: URL { base.appendingPathComponent("sci-core.json") }

    /// Runs `body` with a live fixture server; the folder is removed afterwards.
    static func run(idleTimeout: Duration = .seconds(15), _ body: @Sendable (InstallerHarness) async throws -> Void) async throws {
        let folder = TestFiles.folder("install")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = FixtureServer()
        let library = try await ConferenceLibrary.open(folder: folder)
        let settings = DatabaseInstaller.Settings(
            manifestTimeout: .seconds(30),
            download: DownloadOptions(maxAttempts: 4, responseTimeout: .seconds(30), idleTimeout: idleTimeout),
            progressInterval: .milliseconds(10)
        )
        let installer = DatabaseInstaller(library: library, settings: settings)
        try await server.serving { address in
            let base = try #require(URL(string: address.absoluteString + "/"))
            try await body(InstallerHarness(folder: folder, library: library, installer: installer, server: server, base: base))
        }
    }

    /// Installs `release` as the database in use, so failures can show it keeps serving.
    func install(_ release: Release) async throws {
        release.publish(on: server)
        let outcome = try await installer.update(manifestURL: manifestURL)
        #expect(outcome.database.version == release.version)
    }

    /// The previous database is still the one answering, and no temporary file is left but `kept`.
    func expectStillServing(_ version: String?, keeping kept: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let status = try await library.status()
        if let version {
            #expect(status.footer.version == version, sourceLocation: sourceLocation)
            #expect(status.footer.lastUpdated == "release \(version)", sourceLocation: sourceLocation)
        } else {
            #expect(status.source == .sample, sourceLocation: sourceLocation)
        }
        #expect(try await library.conferences().conferences.count == 2, sourceLocation: sourceLocation)
        #expect(TestFiles.contents(of: library.incomingFolder) == kept.sorted(), sourceLocation: sourceLocation)
        if case .failed = await installer.latest.phase {} else {
            Issue.record("the installer's last progress is not a failure", sourceLocation: sourceLocation)
        }
    }

    /// The files in the library's `databases` folder.
    var databaseFiles: [String] {
        TestFiles.contents(of: folder.appendingPathComponent("databases"))
    }
}
