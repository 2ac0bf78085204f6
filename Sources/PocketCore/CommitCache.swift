import Synchronization

/// Values read from an SQLite file, kept in memory with the `CommitWatch` version they were read
/// at, and all forgotten as soon as that version moves (any commit, by this process or another).
/// So a kept value is never older than the file: at worst one is read again needlessly.
///
/// Without a watch (a database in memory, which has no second connection to watch it) nothing
/// is kept and every value is loaded, so a store can hold one cache whether or not it is on disk.
public final class CommitCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Kept {
        /// The version the values were read at; nil before the first lookup.
        var version: Int?
        var values: [Key: Value] = [:]
    }

    private let watch: CommitWatch?
    private let capacity: Int
    private let kept = Mutex(Kept())

    /// Keeps values of the file `watch` watches (none if nil); beyond `capacity` keys all are
    /// forgotten, so keys from outside (cookies) cannot make it grow without end. A store made
    /// with a layer passed through (`Caches.watch(_:for:)`) gives no watch, so nothing is kept.
    public init(watch: CommitWatch?, capacity: Int) {
        self.watch = watch
        self.capacity = capacity
    }

    /// The kept value for `key`, else `load`'s, kept. The version is read before loading: a
    /// commit racing the load makes it differ next time, so the value is read again.
    public func value(for key: Key, load: () async throws -> Value) async throws -> Value {
        guard let watch else { return try await load() }
        let version = try watch.version()
        let known: Value? = kept.withLock { kept in
            if kept.version != version {
                kept.version = version
                kept.values.removeAll(keepingCapacity: true)
            }
            return kept.values[key]
        }
        if let known { return known }
        let loaded = try await load()
        kept.withLock { kept in
            guard kept.version == version else { return }
            if kept.values.count >= capacity { kept.values.removeAll(keepingCapacity: true) }
            kept.values[key] = loaded
        }
        return loaded
    }
}
