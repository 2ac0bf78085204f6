import Foundation

/// What every request of a signed-in phone asks the people store — the stored session behind its
/// cookie, then the device and person behind that session — kept in memory for as long as nothing
/// has been committed to `people.sqlite`.
///
/// Why: those two reads, each a hop to GRDB's reader queue and back, cost a request more than
/// serving it a static file did. Why it is safe: everything is forgotten as soon as the file's
/// `CommitWatch` version moves, which it does with every commit, this server's or another
/// process's (`pocket users remove` while the server runs). So a sign-out, a removed person or a new password takes
/// effect on the next request, as it did without the cache.
final class SignInCache: Sendable {
    /// A session row as stored; its expiry is checked by the caller at each use.
    struct StoredSession: Sendable {
        let value: Data
        let expires: Date?
    }

    /// A device with its person, as `signedIn(deviceID:)` answers.
    typealias DeviceAndPerson = (device: Device, person: Person)

    /// Beyond this many remembered keys of one kind, all of that kind are forgotten: cookies of
    /// strangers cannot make the cache grow without end.
    static let capacity = 4096

    private let sessions: CommitCache<String, StoredSession?>
    private let devices: CommitCache<String, DeviceAndPerson?>

    /// Watches the database file at `path`, which must exist; keeps nothing if `caches` passes
    /// this layer through.
    init(path: String, caches: Caches) throws {
        let watch = caches.watch(try CommitWatch(path: path, label: "people.watch"), for: .signInCache)
        sessions = CommitCache(watch: watch, capacity: Self.capacity)
        devices = CommitCache(watch: watch, capacity: Self.capacity)
    }

    /// The stored session under `key` (expired or not), read through `load` when not remembered.
    func session(_ key: String, load: () async throws -> StoredSession?) async throws -> StoredSession? {
        try await sessions.value(for: key, load: load)
    }

    /// The signed-in device `id` and its person, read through `load` when not remembered.
    func signedIn(_ id: String, load: () async throws -> DeviceAndPerson?) async throws -> DeviceAndPerson? {
        try await devices.value(for: id, load: load)
    }
}
