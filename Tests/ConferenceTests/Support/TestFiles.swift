import Crypto
import Foundation
import GRDB
import ZIPFoundation
@testable import Conference

/// Real files for tests: sci-core databases derived from the sample, zips, manifests.
enum TestFiles {
    /// A connection of the test's own to the library's state database in `folder`. It waits for
    /// the library's writer as Pocket's own connections do: a server builds the search index in
    /// the background once an install ends.
    static func stateDatabase(in folder: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        return try DatabaseQueue(path: folder.appendingPathComponent("state.sqlite").path, configuration: configuration)
    }

    /// A fresh folder under the system's temporary directory.
    static func folder(_ label: String = "conference") -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The sample database written to `folder/name`, then changed by `change` (e.g. to make a
    /// "version 2" that differs from the sample, or an old-era copy).
    static func coreDatabase(in folder: URL, name: String = "core.db", change: ((Database) throws -> Void)? = nil) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try SampleDatabase.build(at: url)
        if let change {
            let queue = try DatabaseQueue(path: url.path)
            try queue.inDatabase { db in try change(db) }
            try queue.close()
        }
        return url
    }

    /// The sample as an older-era database: `ListenURL`/`WatchURL` instead of the four stream
    /// columns, no `citation_verse`, with media links on the first April talk.
    static func oldEraDatabase(in folder: URL) throws -> URL {
        try coreDatabase(in: folder, name: "old-era.db") { db in
            try db.execute(sql: """
                ALTER TABLE talk RENAME COLUMN AudioUrl TO ListenURL;
                ALTER TABLE talk RENAME COLUMN VideoHighUrl TO WatchURL;
                ALTER TABLE talk DROP COLUMN VideoLowUrl;
                ALTER TABLE talk DROP COLUMN VideoMedUrl;
                DROP TABLE citation_verse;
                UPDATE talk SET ListenURL = 'https://media.example/8769.mp3', WatchURL = 'https://media.example/8769.mp4' WHERE ID = 8769;
                UPDATE updated SET last_updated = '2017-11-30 12:00:00';
                """)
        }
    }

    /// A database that is a distinct "release": the sample with another `last_updated`.
    static func release(_ label: String, in folder: URL) throws -> URL {
        try coreDatabase(in: folder, name: "core.\(label).db") { db in
            try db.execute(sql: "UPDATE updated SET last_updated = ?", arguments: ["release \(label)"])
        }
    }

    /// A zip holding `entries` (path in the archive, contents), deflated.
    static func zip(_ entries: [(path: String, data: Data)], compress: Bool = true) throws -> Data {
        let url = folder("zip").appendingPathComponent("archive.zip")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let archive = try Archive(url: url, accessMode: .create)
        for (path, data) in entries {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count),
                                 compressionMethod: compress ? .deflate : .none) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return try Data(contentsOf: url)
    }

    /// Lowercase hex MD5.
    static func md5(_ data: Data) -> String {
        Insecure.MD5.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// A manifest for a zip and the database in it (every value a string, as the real one writes them).
    static func manifest(version: String, zip: Data, zipName: String, content: Data, contentName: String) -> Data {
        manifestJSON([
            "version": version, "download-name": zipName, "download-size": String(zip.count), "download-md5": md5(zip),
            "content-name": contentName, "content-size": String(content.count), "content-md5": md5(content),
        ])
    }

    /// A manifest from any values.
    static func manifestJSON(_ values: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: values, options: [.sortedKeys])) ?? Data()
    }

    /// Names of the files in a folder (empty when it does not exist).
    static func contents(of folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }
}

/// One release served by a fixture: the database, its zip and its manifest.
struct Release {
    let version: String
    let database: Data
    let zip: Data
    let zipName: String
    let contentName: String

    var manifest: Data {
        TestFiles.manifest(version: version, zip: zip, zipName: zipName, content: database, contentName: contentName)
    }

    /// A release made from the sample with a distinguishing `last_updated`.
    static func make(_ version: String, in folder: URL) throws -> Release {
        let database = try Data(contentsOf: TestFiles.release(version, in: folder))
        let contentName = "core.\(version).db"
        return Release(version: version, database: database, zip: try TestFiles.zip([(contentName, database)]),
                       zipName: "sci-core.\(version).zip", contentName: contentName)
    }

    /// Serves the manifest and the zip (and the bare database) on `server`.
    func publish(on server: FixtureServer, zipBehavior: FixtureServer.Behavior = .normal) {
        server.put("sci-core.json", manifest)
        server.put(zipName, zip, behavior: zipBehavior)
        server.put(contentName, database)
    }
}
