import Crypto
import Foundation
import GRDB
import Testing
import ZIPFoundation
@testable import PocketCore

/// Issue #32: the restorer, not the manifest, decides what each file in an archive is. Each archive
/// here is written by hand with ZIPFoundation, as someone crafting one would, with a manifest whose
/// sizes and checksums are right: only the restorer's own knowledge can refuse it.
@Suite("Restores that know Pocket's files by name")
struct BackupLayoutTests {
    private let manager = FileManager.default
    /// `plates.sqlite` stands for every app's store; `tls/ca.key` for the CA's files.
    private static let layout = DataFolderLayout(databases: ["people.sqlite": PeopleDatabase.migrationIdentifiers, "plates.sqlite": ["v1: plates"]],
                                                 files: ["tls/ca.key", "tls/ca.pem"])

    /// One file of a hand-made archive; `migrations` nil leaves them out of its manifest entry.
    private struct Part {
        var path: String
        var bytes: Data
        var mode = 0o600
        var migrations: [String]?
        var listedSize: Int64?
    }

    private func scratch() throws -> URL {
        let root = manager.temporaryDirectory.appendingPathComponent("pocket-layout-\(UUID().uuidString)")
        try manager.createDirectory(at: root, withIntermediateDirectories: true)
        return root
    }

    /// The bytes of a people database with one person, as a backup copies it.
    private func peopleDatabase(in root: URL) async throws -> Part {
        let url = root.appendingPathComponent("people-\(UUID().uuidString).sqlite")
        let people = try PeopleDatabase.onDisk(at: url)
        _ = try await people.addPerson(name: "Ann", password: "correct horse battery", isOwner: true)
        // Copied into one self-contained file, as a backup copies it.
        let copy = root.appendingPathComponent("people-copy-\(UUID().uuidString).sqlite")
        let source = try DatabaseQueue(path: url.path), target = try DatabaseQueue(path: copy.path)
        try source.backup(to: target)
        try await target.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
        try target.close()
        try source.close()
        return Part(path: "people.sqlite", bytes: try Data(contentsOf: copy), migrations: PeopleDatabase.migrationIdentifiers)
    }

    /// A plates database with a few hundred rows over many pages, migrated as `layout` knows it.
    private func platesDatabase(in root: URL) async throws -> Data {
        let url = root.appendingPathComponent("plates-\(UUID().uuidString).sqlite")
        let queue = try DatabaseQueue(path: url.path)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: plates") { db in
            try db.execute(sql: "CREATE TABLE spot(id INTEGER PRIMARY KEY, state TEXT NOT NULL, note TEXT NOT NULL); CREATE INDEX spot_state ON spot(state)")
            for index in 0..<400 {
                try db.execute(sql: "INSERT INTO spot(state, note) VALUES (?, ?)", arguments: ["S\(index % 50)", String(repeating: "n", count: 200)])
            }
        }
        try migrator.migrate(queue)
        try queue.close()
        return try Data(contentsOf: url)
    }

    /// Writes a zip of `parts` with a manifest giving each its true size (unless `listedSize`) and SHA-256.
    private func archive(_ parts: [Part], at url: URL) throws {
        let files = parts.map { part in
            BackupManifest.File(path: part.path, size: part.listedSize ?? Int64(part.bytes.count), sha256: SHA256.hash(data: part.bytes).map { String(format: "%02x", $0) }.joined(),
                                mode: part.mode, migrations: part.migrations)
        }
        let manifest = try BackupManifest(pocketVersion: PocketVersion.current, createdAt: ChangeTime.milliseconds(Date()), files: files, leftOut: []).encoded()
        let zip = try Archive(url: url, accessMode: .create)
        for (name, bytes) in [(BackupManifest.entryName, manifest)] + parts.map({ ($0.path, $0.bytes) }) {
            try zip.addEntry(with: name, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .deflate) { position, size in
                bytes.subdata(in: Int(position)..<Int(position) + size)
            }
        }
    }

    @Test func aDamagedKnownDatabaseIsRefusedThoughTheManifestDoesNotSayItIsOne() async throws {
        let root = try scratch()
        defer { try? manager.removeItem(at: root) }
        let people = try await peopleDatabase(in: root)
        var plates = try await platesDatabase(in: root)
        // Given a plates.sqlite whose pages after the first two are overwritten,
        for offset in stride(from: 8192, to: plates.count - 64, by: 1024) { plates.replaceSubrange(offset..<offset + 64, with: Data(repeating: 0x5A, count: 64)) }
        let restorer = BackupRestorer(layout: Self.layout)
        let unpacked = root.appendingPathComponent("unpacked")

        // when its manifest entry leaves out "migrations" (so says it is no database), the restore still checks it and refuses.
        let damaged = root.appendingPathComponent("damaged.zip")
        try archive([people, Part(path: "plates.sqlite", bytes: plates)], at: damaged)
        #expect {
            try restorer.unpack(damaged, into: unpacked)
        } throws: { error in
            guard case BackupError.damagedDatabase(let path, _) = error else { return false }
            return path == "plates.sqlite" && !(error as? BackupError)!.description.contains("\n")
        }
        #expect(!manager.fileExists(atPath: unpacked.path))

        // A sound plates.sqlite the manifest does not call a database is refused too: the manifest is wrong about it.
        let unlisted = root.appendingPathComponent("unlisted.zip")
        try archive([people, Part(path: "plates.sqlite", bytes: try await platesDatabase(in: root))], at: unlisted)
        #expect(throws: BackupError.badManifest("it does not list plates.sqlite as the database it is")) { try restorer.unpack(unlisted, into: unpacked) }
        #expect(!manager.fileExists(atPath: unpacked.path))

        // Listed as the database it is, it restores.
        let good = root.appendingPathComponent("good.zip")
        try archive([people, Part(path: "plates.sqlite", bytes: try await platesDatabase(in: root), migrations: ["v1: plates"])], at: good)
        let manifest = try restorer.unpack(good, into: unpacked)
        #expect(manifest.files.map(\.path) == ["people.sqlite", "plates.sqlite"])
        #expect(try await PeopleDatabase.onDisk(at: unpacked.appendingPathComponent("people.sqlite")).people().map(\.name) == ["Ann"])
    }

    @Test func aFilePocketDoesNotWriteIsRefusedBeforeAnythingIsUnpacked() async throws {
        let root = try scratch()
        defer { try? manager.removeItem(at: root) }
        let people = try await peopleDatabase(in: root)
        let restorer = BackupRestorer(layout: Self.layout)
        let unpacked = root.appendingPathComponent("unpacked")
        // A junk file listed at 1 GiB (its entry small: it is refused by name, never read), a
        // database Pocket has no store for, a file beside the CA's, and one outside the caches.
        for (path, listed) in [("junk.bin", Int64(1) << 30), ("firefox-history.sqlite", nil), ("tls/ca.key.old", nil), ("plates-images", nil)] {
            let crafted = root.appendingPathComponent("crafted-\(UUID().uuidString).zip")
            try archive([people, Part(path: path, bytes: Data("junk".utf8), migrations: path.hasSuffix(".sqlite") ? [] : nil, listedSize: listed)], at: crafted)
            #expect(throws: BackupError.unknownFile(path)) { try restorer.unpack(crafted, into: unpacked) }
            #expect(!manager.fileExists(atPath: unpacked.path))
        }
        #expect(BackupError.unknownFile("junk.bin").description
            == "the backup holds junk.bin, which Pocket does not write in its data folder: it is not a backup Pocket made, or it was changed; nothing was changed")

        // What Pocket writes is taken: the CA's files and pictures inside a cache folder.
        let good = root.appendingPathComponent("good.zip")
        try archive([people, Part(path: "tls/ca.key", bytes: Data("key".utf8)), Part(path: "tls/ca.pem", bytes: Data("pem".utf8), mode: 0o644),
                     Part(path: "plates-images/AL.png", bytes: Data("png".utf8))], at: good)
        _ = try restorer.unpack(good, into: unpacked)
        #expect(try manager.contentsOfDirectory(atPath: unpacked.appendingPathComponent("tls").path).sorted() == ["ca.key", "ca.pem"])
    }

    @Test func filesTheCheckFindsFaultWithAreRefusedInOneLineLeavingNothing() async throws {
        let root = try scratch()
        defer { try? manager.removeItem(at: root) }
        let people = try await peopleDatabase(in: root)
        // The pocket executable's check is TLSFolder.restoreProblem (tested in PocketTLSTests); here, one that reads the mode.
        let restorer = BackupRestorer(layout: Self.layout) { folder in
            let mode = (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("tls/ca.key").path)[.posixPermissions] as? Int) ?? 0
            return mode & 0o077 == 0 ? nil : "tls/ca.key can be read or changed by other users (Pocket keeps it 0600)"
        }
        let open = root.appendingPathComponent("open.zip")
        try archive([people, Part(path: "tls/ca.key", bytes: Data("key".utf8), mode: 0o644), Part(path: "tls/ca.pem", bytes: Data("pem".utf8))], at: open)
        let unpacked = root.appendingPathComponent("unpacked")
        #expect(throws: BackupError.unusableFile("tls/ca.key can be read or changed by other users (Pocket keeps it 0600)")) { try restorer.unpack(open, into: unpacked) }
        #expect(!manager.fileExists(atPath: unpacked.path))
        #expect(BackupError.unusableFile("x").description == "the backup cannot be restored: x; nothing was changed")
    }

    @Test func aBackupLeavesOutFilesPocketDoesNotWriteSoItsArchiveAlwaysRestores() async throws {
        let root = try scratch()
        defer { try? manager.removeItem(at: root) }
        let data = try DataDirectory(url: root.appendingPathComponent("data")).url
        _ = try await PeopleDatabase.onDisk(at: data.appendingPathComponent("people.sqlite")).addPerson(name: "Ann", password: "correct horse battery", isOwner: true)
        try Data("chapter one".utf8).write(to: data.appendingPathComponent("thesis.txt"))
        let made = try BackupMaker(dataDirectory: data, layout: Self.layout).make(into: root.appendingPathComponent("shelf"))
        #expect(made.manifest.files.map(\.path) == ["people.sqlite"])
        #expect(made.manifest.leftOut.contains(BackupManifest.LeftOut(path: "thesis.txt", reason: "not written by Pocket: a restore keeps it in the folder")))
        let report = try await BackupRestorer(layout: Self.layout).restore(made.url, into: data) { _ in }
        #expect(report.carriedOver.contains("thesis.txt"))
        #expect(try String(contentsOf: data.appendingPathComponent("thesis.txt"), encoding: .utf8) == "chapter one")
    }
}
