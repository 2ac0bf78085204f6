import Synchronization

/// Values worked out once and kept, at most `capacity` of them: beyond that all are forgotten and
/// the memo starts again, so keys from outside (tokens, coordinates, dates) cannot make it grow
/// without end. For values that depend on nothing but their key; `CommitCache` is for values read
/// from a database, which also go with its commits.
public final class BoundedMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let capacity: Int
    private let keeping: Bool
    private let kept = Mutex<[Key: Value]>([:])

    /// An empty memo that keeps at most `capacity` values, or none if not `keeping` (a layer the
    /// page benchmark passes through, `Caches.keeps(_:)`).
    public init(capacity: Int, keeping: Bool = true) {
        self.capacity = capacity
        self.keeping = keeping
    }

    /// The kept value for `key`, else `compute`'s, kept. `compute` runs outside the lock, so two
    /// callers may both compute a missing value; they get equal answers.
    public func value(for key: Key, compute: () throws -> Value) rethrows -> Value {
        guard keeping else { return try compute() }
        if let known = kept.withLock({ $0[key] }) { return known }
        let value = try compute()
        kept.withLock { kept in
            if kept.count >= capacity { kept.removeAll(keepingCapacity: true) }
            kept[key] = value
        }
        return value
    }

    /// How many values are kept.
    public var count: Int {
        kept.withLock { $0.count }
    }
}
