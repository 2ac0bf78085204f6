import Foundation
import GRDB
import Synchronization
import Testing
@testable import PocketCore

/// The in-memory copy of sessions and signed-in devices: used while nothing is committed,
/// forgotten on any commit, by this store or by another process's (`pocket users remove`).
@Suite("Sign-in cache")
struct SignInCacheTests {
    private func withFolder(_ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pocket-signin-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder.appendingPathComponent("people.sqlite"))
    }

    @Test func aRememberedAnswerIsUsedUntilSomethingIsCommitted() async throws {
        try await withFolder { url in
            let people = try PeopleDatabase.onDisk(at: url)
            let cache = try #require(people.cache)
            let loads = Mutex(0)
            let load: () async throws -> SignInCache.StoredSession? = {
                loads.withLock { $0 += 1 }
                return SignInCache.StoredSession(value: Data("v".utf8), expires: nil)
            }
            _ = try await cache.session("k", load: load)
            _ = try await cache.session("k", load: load)
            #expect(loads.withLock { $0 } == 1)
            // A commit by another connection to the same file (as another process would make).
            let other = try PeopleDatabase.onDisk(at: url)
            _ = try await other.addPerson(name: "Ann", password: "long enough", isOwner: true)
            _ = try await cache.session("k", load: load)
            #expect(loads.withLock { $0 } == 2)
            // And a commit through this store's own pool.
            _ = try await people.addPerson(name: "Bea", password: "long enough", isOwner: false)
            _ = try await cache.session("k", load: load)
            _ = try await cache.session("k", load: load)
            #expect(loads.withLock { $0 } == 3)
        }
    }

    @Test func signingOutElsewhereTakesEffectOnTheNextLookup() async throws {
        try await withFolder { url in
            let server = try PeopleDatabase.onDisk(at: url)
            let ann = try await server.addPerson(name: "Ann", password: "long enough", isOwner: true)
            let bea = try await server.addPerson(name: "Bea", password: "long enough", isOwner: false)
            let phone = try await server.addDevice(for: bea.id, userAgent: nil)
            try await server.storeSession(key: "device.abc", value: Data("{}".utf8), expires: nil, deviceID: phone.id)
            #expect(try await server.signedIn(deviceID: phone.id)?.person.name == "Bea")
            #expect(try await server.loadSession(key: "device.abc") != nil)
            // The command line, in another process, removes Bea while the server runs.
            let commandLine = try PeopleDatabase.onDisk(at: url)
            try await commandLine.removePerson(named: "Bea")
            #expect(try await server.signedIn(deviceID: phone.id) == nil)
            #expect(try await server.loadSession(key: "device.abc") == nil)
            #expect(try await server.person(id: ann.id) != nil)
        }
    }

    @Test func aRememberedSessionStillExpires() async throws {
        try await withFolder { url in
            let people = try PeopleDatabase.onDisk(at: url)
            let expires = Date().addingTimeInterval(60)
            try await people.storeSession(key: "device.x", value: Data("{}".utf8), expires: expires, deviceID: nil)
            let stored = try #require(try await people.loadSession(key: "device.x")?.expires)
            #expect(abs(stored.timeIntervalSince(expires)) < 0.01)  // stored to the millisecond
            #expect(try await people.loadSession(key: "device.x", at: expires.addingTimeInterval(1)) == nil)
        }
    }
}
