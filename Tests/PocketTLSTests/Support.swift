import Foundation
import PocketCore
import Synchronization
@testable import PocketTLS

/// A throw-away data folder.
func temporaryFolder() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("pocket-tls-tests-\(UUID().uuidString)", isDirectory: true)
}

/// The names a server bound to 0.0.0.0 with `--name pocket.test` on a LAN would serve, plus an
/// address and a name outside what the CA may vouch for.
let householdNames = ServedNames(
    names: ["pocket.test", "laptop.local", "localhost", "example.com"],
    addresses: ["192.168.1.20", "8.8.8.8", "127.0.0.1", "::1"]
)

/// The scope a CA made with `--name pocket.test` has.
let householdScope = NameScope.household(names: ["pocket.test"])

/// A date the tests move by hand.
final class TestDate: Sendable {
    private let value: Mutex<Date>

    init(_ date: Date) {
        value = Mutex(date)
    }

    var now: Date { value.withLock { $0 } }

    func advance(days: Double) {
        value.withLock { $0 = $0.addingTimeInterval(days * 86400) }
    }
}

/// What a server serves, changed by hand (a new DHCP lease).
final class TestNames: Sendable {
    private let value: Mutex<ServedNames>

    init(_ names: ServedNames) {
        value = Mutex(names)
    }

    var current: ServedNames { value.withLock { $0 } }

    func set(_ names: ServedNames) {
        value.withLock { $0 = names }
    }
}

/// A clock whose time moves only when a test advances it: sleepers wake when their deadline passes.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextID = 0
    }

    private let state = Mutex(State())

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping now.
    var sleeping: Int { state.withLock { $0.sleepers.count } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let due = state.withLock { state -> Bool in
                    if deadline <= state.now || Task.isCancelled { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if due { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Moves time on and wakes every sleeper whose deadline has come.
    func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let due = state.sleepers.filter { $0.deadline <= state.now }
            state.sleepers.removeAll { $0.deadline <= state.now }
            return due
        }
        for sleeper in due {
            sleeper.continuation.resume()
        }
    }

    /// Waits (yielding, never sleeping) until some task sleeps on this clock.
    func waitForSleeper() async {
        while sleeping == 0 {
            await Task.yield()
        }
    }
}
