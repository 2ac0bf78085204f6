import Foundation

/// Slows down guessing: after `freeFailures` failed attempts under one key (a client address,
/// a name at an address, a person), each further attempt must wait, twice as long after every
/// further failure.
///
/// Kept in memory: a restart forgets, which costs an attacker a restart per few guesses, and
/// a person who forgot their password is not locked out for good.
public actor AttemptThrottle {
    private struct Record {
        var failures: Int
        var lastFailure: Date
    }

    private var records: [String: Record] = [:]
    private let freeFailures: Int
    private let baseDelay: TimeInterval
    private let maximumDelay: TimeInterval
    /// Failures older than this are forgotten.
    private let window: TimeInterval
    /// The time, asked for whenever a call gives none: the clock, except in tests of the
    /// routes, which move their own time instead of sleeping through a wait.
    private let now: @Sendable () -> Date

    /// Creates a throttle: 5 free failures, then 10 s, 20 s, 40 s… up to 15 minutes.
    public init(freeFailures: Int = 5, baseDelay: TimeInterval = 10, maximumDelay: TimeInterval = 15 * 60, window: TimeInterval = 60 * 60,
                now: @escaping @Sendable () -> Date = Date.init) {
        self.freeFailures = freeFailures
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.window = window
        self.now = now
    }

    /// Takes one attempt under every key before it is checked, or says how many whole seconds
    /// the caller must wait first (then nothing is counted).
    ///
    /// The attempt counts as a failure from the moment it is taken, and only `recordSuccess`
    /// takes it back: so however many attempts arrive at once, no more than the free ones are
    /// ever checked before the wait starts (checking first and counting after let 40 concurrent
    /// wrong passwords all be checked).
    public func reserve(_ keys: [String], at date: Date? = nil) -> Int? {
        let date = date ?? now()
        if let wait = retryAfter(keys, at: date) { return wait }
        for key in keys {
            var record = records[key] ?? Record(failures: 0, lastFailure: date)
            if date.timeIntervalSince(record.lastFailure) >= window { record.failures = 0 }
            record.failures += 1
            record.lastFailure = date
            records[key] = record
        }
        if records.count > 10_000 { forgetOld(at: date) }
        return nil
    }

    /// Clears the keys after an attempt that succeeded.
    public func recordSuccess(_ keys: [String]) {
        for key in keys { records[key] = nil }
    }

    /// How many whole seconds an attempt under any of `keys` must still wait at `date`, or nil.
    private func retryAfter(_ keys: [String], at date: Date) -> Int? {
        let waits = keys.compactMap { key -> TimeInterval? in
            guard let record = records[key], date.timeIntervalSince(record.lastFailure) < window else { return nil }
            let excess = record.failures - freeFailures
            guard excess >= 0 else { return nil }
            let delay = min(baseDelay * pow(2, Double(excess)), maximumDelay)
            let remaining = record.lastFailure.addingTimeInterval(delay).timeIntervalSince(date)
            return remaining > 0 ? remaining : nil
        }
        return waits.max().map { Int($0.rounded(.up)) }
    }

    private func forgetOld(at date: Date) {
        records = records.filter { date.timeIntervalSince($0.value.lastFailure) < window }
    }
}
