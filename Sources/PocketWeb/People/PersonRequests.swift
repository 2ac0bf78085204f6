import PocketCore
import Synchronization

/// The signed-in requests each person has in a handler, so removing a person can delete their
/// data after the last of them has written, and refuse any that would start after.
///
/// Why: a request that passed its session check just before an owner removed its person would
/// otherwise write its change after the removal deleted that person's rows, and leave it on
/// disk. Removal signs the devices out first, so no request of theirs starts after that; this
/// covers the ones already past the check.
public final class PersonRequests: Sendable {
    private let state = Mutex(State())

    private struct State {
        /// Requests in a handler, by person.
        var inFlight: [PersonID: Int] = [:]
        /// People being removed (by how many removals at once): their new requests are refused.
        var shutOut: [PersonID: Int] = [:]
        /// Removals waiting for a person's requests to end, each with how many it leaves running.
        var waiters: [PersonID: [(keeping: Int, continuation: CheckedContinuation<Void, Never>)]] = [:]
    }

    /// An empty registry.
    public init() {}

    /// Runs `body` as one of `person`'s requests; nil without running it while they are being removed.
    func run<T>(for person: PersonID, _ body: () async throws -> T) async rethrows -> T? {
        let admitted = state.withLock { state -> Bool in
            guard state.shutOut[person] == nil else { return false }
            state.inFlight[person, default: 0] += 1
            return true
        }
        guard admitted else { return nil }
        defer { end(person) }
        return try await body()
    }

    /// Refuses `person`'s new requests, waits until their requests in a handler have ended (all
    /// but `keeping`: the removal's own request, when a person removes themselves), runs `body`,
    /// then admits requests under that id again (SQLite may give a new person a removed one's id).
    func shuttingOut<T>(_ person: PersonID, keeping: Int = 0, _ body: () async throws -> T) async rethrows -> T {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                state.shutOut[person, default: 0] += 1
                guard state.inFlight[person, default: 0] > keeping else { return true }
                state.waiters[person, default: []].append((keeping, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
        defer {
            state.withLock { state in
                let left = state.shutOut[person, default: 1] - 1
                state.shutOut[person] = left == 0 ? nil : left
            }
        }
        return try await body()
    }

    /// How many of `person`'s requests are in a handler.
    func inFlight(for person: PersonID) -> Int {
        state.withLock { $0.inFlight[person, default: 0] }
    }

    private func end(_ person: PersonID) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            let left = state.inFlight[person, default: 1] - 1
            state.inFlight[person] = left == 0 ? nil : left
            guard let waiting = state.waiters[person] else { return [] }
            let still = waiting.filter { $0.keeping < left }
            state.waiters[person] = still.isEmpty ? nil : still
            return waiting.filter { $0.keeping >= left }.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }
}
