import Foundation

/// Slows down guessing: after `freeFailures` failed attempts under one key (a client address,
/// a name), each further attempt must wait, twice as long after every further failure.
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

    /// How many whole seconds the caller must still wait before trying any of `keys` at `date`
    /// (by default now), or nil if it may try.
    public func retryAfter(_ keys: [String], at date: Date? = nil) -> Int? {
        let date = date ?? now()
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

    /// Counts a failed attempt, at `date` (by default now), against every key.
    public func recordFailure(_ keys: [String], at date: Date? = nil) {
        let date = date ?? now()
        for key in keys {
            var record = records[key] ?? Record(failures: 0, lastFailure: date)
            if date.timeIntervalSince(record.lastFailure) >= window { record.failures = 0 }
            record.failures += 1
            record.lastFailure = date
            records[key] = record
        }
        if records.count > 10_000 { forgetOld(at: date) }
    }

    /// Clears the keys after a success.
    public func recordSuccess(_ keys: [String]) {
        for key in keys { records[key] = nil }
    }

    private func forgetOld(at date: Date) {
        records = records.filter { date.timeIntervalSince($0.value.lastFailure) < window }
    }
}
