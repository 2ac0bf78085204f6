import Foundation
import GRDB
import Synchronization

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

    private struct Entries {
        /// The `data_version` the entries were read at; nil before the first lookup.
        var version: Int?
        var sessions: [String: StoredSession?] = [:]
        var devices: [String: SignedInEntry] = [:]
    }

    /// `signedIn(deviceID:)`'s answer, nil for a device that is not (or no longer) signed in.
    private struct SignedInEntry: Sendable {
        let device: Device?
        let person: Person?
    }

    /// Beyond this many remembered keys of one kind, all of that kind are forgotten: cookies of
    /// strangers cannot make the cache grow without end.
    static let capacity = 4096

    private let watch: CommitWatch
    private let entries = Mutex(Entries())

    /// Opens the watching connection on the database file at `path`, which must exist.
    init(path: String) throws {
        watch = try CommitWatch(path: path, label: "people.watch")
    }

    /// The stored session under `key` (expired or not), read through `load` when not remembered.
    func session(_ key: String, load: () async throws -> StoredSession?) async throws -> StoredSession? {
        let version = try currentVersion()
        let remembered: StoredSession?? = entries.withLock { entries in
            forgetIfStale(&entries, version: version)
            return entries.sessions[key]
        }
        if let remembered { return remembered }
        let loaded = try await load()
        entries.withLock { entries in
            guard entries.version == version else { return }
            if entries.sessions.count >= Self.capacity { entries.sessions.removeAll(keepingCapacity: true) }
            entries.sessions[key] = .some(loaded)
        }
        return loaded
    }

    /// The signed-in device `id` and its person, read through `load` when not remembered.
    func signedIn(_ id: String, load: () async throws -> DeviceAndPerson?) async throws -> DeviceAndPerson? {
        let version = try currentVersion()
        let remembered: SignedInEntry? = entries.withLock { entries in
            forgetIfStale(&entries, version: version)
            return entries.devices[id]
        }
        if let remembered {
            guard let device = remembered.device, let person = remembered.person else { return nil }
            return (device, person)
        }
        let loaded = try await load()
        entries.withLock { entries in
            guard entries.version == version else { return }
            if entries.devices.count >= Self.capacity { entries.devices.removeAll(keepingCapacity: true) }
            entries.devices[id] = SignedInEntry(device: loaded?.device, person: loaded?.person)
        }
        return loaded
    }

    /// An entry is used only if no commit came between the version read before its load and the
    /// one read now: a commit racing the load makes them differ, so at worst an entry is loaded
    /// again, never kept too long.
    private func currentVersion() throws -> Int {
        try watch.version()
    }

    private func forgetIfStale(_ entries: inout Entries, version: Int) {
        guard entries.version != version else { return }
        entries.version = version
        entries.sessions.removeAll(keepingCapacity: true)
        entries.devices.removeAll(keepingCapacity: true)
    }
}
