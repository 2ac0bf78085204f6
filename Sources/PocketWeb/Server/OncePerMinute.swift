import Synchronization

/// For a log line that would repeat on every request or connection while a condition lasts:
/// due the first time and then at most once a minute.
final class OncePerMinute: Sendable {
    private let last = Mutex<ContinuousClock.Instant?>(nil)

    /// Whether to log now; a true answer starts the next minute.
    func isDue() -> Bool {
        let now = ContinuousClock.now
        return last.withLock { last in
            if let previous = last, now - previous < .seconds(60) { return false }
            last = now
            return true
        }
    }
}
