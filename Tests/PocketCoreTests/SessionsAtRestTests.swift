import Foundation
import GRDB
import Testing
@testable import PocketCore

/// Issue #33: a copy of `people.sqlite` (in a backup archive, say) holds no cookie a browser
/// could send, and a folder made before keeps everyone signed in.
@Suite("Sessions at rest")
struct SessionsAtRestTests {
    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pocket-sessions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func onlyAHashOfEachSessionKeyIsStored() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("people.sqlite")
        let people = try PeopleDatabase.onDisk(at: url)
        try await people.storeSession(key: "device.secret-cookie-value", value: Data("{}".utf8), expires: nil, deviceID: nil)
        #expect(try await people.loadSession(key: "device.secret-cookie-value") != nil)

        let raw = try DatabaseQueue(path: url.path)
        let keys = try await raw.read { db in try String.fetchAll(db, sql: "SELECT key FROM session") }
        #expect(keys == [PeopleDatabase.storedKey("device.secret-cookie-value")])
        #expect(keys.allSatisfy { !$0.contains("secret-cookie-value") })
        // The stored key itself, sent as a cookie, opens nothing.
        #expect(try await people.loadSession(key: keys[0]) == nil)
        try await people.removeSession(key: "device.secret-cookie-value")
        #expect(try await raw.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session") } == 0)
    }

    @Test func sessionsStoredBeforeStaySignedInOnceHashed() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("people.sqlite")
        // A people database as the first migration left it, with a cookie's value stored as it was.
        let before = try DatabaseQueue(path: url.path)
        try PeopleDatabase.migrator.migrate(before, upTo: PeopleDatabase.migrationIdentifiers[0])
        try await before.write { db in try db.execute(sql: "INSERT INTO session(key, value) VALUES ('device.old-cookie', x'7b7d')") }
        try before.close()

        let people = try PeopleDatabase.onDisk(at: url)

        #expect(try await people.loadSession(key: "device.old-cookie")?.value == Data("{}".utf8))
        let raw = try DatabaseQueue(path: url.path)
        #expect(try await raw.read { db in try String.fetchAll(db, sql: "SELECT key FROM session") } == [PeopleDatabase.storedKey("device.old-cookie")])
    }
}
