import Foundation
import PocketCore
import Synchronization

/// Every open event stream, by person: at most `perPerson` each (a new one ends that person's
/// oldest), and each ends once its device is no longer signed in.
///
/// Why: a stream holds a connection, a file handle and a task for as long as the browser keeps
/// it. A member holding 1,100 `/remote/events` streams blocked every new connection; a page
/// left open on a phone that has since been signed out kept hearing the household's changes.
public final class OpenStreams: Sendable {
    /// Streams one person may hold at once: a few phones and a tablet with two pages each.
    public let perPerson: Int
    /// How often a stream asks whether its device is still signed in.
    public let recheck: Duration
    private let isSignedIn: @Sendable (_ deviceID: String) async -> Bool
    private let state = Mutex(State())

    private struct State {
        var nextID = 0
        /// Each person's open streams, oldest first, with how to end each.
        var byPerson: [PersonID: [(id: Int, end: @Sendable () -> Void)]] = [:]
    }

    /// Creates the registry; `isSignedIn` says whether a device's session still stands.
    public init(perPerson: Int = 8, recheck: Duration = .seconds(5), isSignedIn: @escaping @Sendable (_ deviceID: String) async -> Bool) {
        self.perPerson = perPerson
        self.recheck = recheck
        self.isSignedIn = isSignedIn
    }

    /// The registry of a server whose sessions live in `people`.
    public convenience init(people: PeopleDatabase) {
        self.init { deviceID in
            do {
                return try await people.signedIn(deviceID: deviceID) != nil
            } catch {
                // A store that cannot answer keeps the stream: signed out is only what it says.
                return true
            }
        }
    }

    /// The number of streams `person` holds now.
    public func count(for person: PersonID) -> Int {
        state.withLock { $0.byPerson[person]?.count ?? 0 }
    }

    /// Registers a stream of `identity`'s; `end` finishes it. Ends the person's oldest beyond the
    /// cap; returns the id to pass to `close` when the stream ends by itself.
    func open(_ identity: SignedIn, end: @escaping @Sendable () -> Void) -> Int {
        let person = identity.person.id
        let (id, evicted): (Int, [@Sendable () -> Void]) = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            var streams = state.byPerson[person, default: []]
            streams.append((id, end))
            let excess = max(0, streams.count - perPerson)
            state.byPerson[person] = Array(streams.dropFirst(excess))
            return (id, streams.prefix(excess).map(\.end))
        }
        for end in evicted { end() }
        return id
    }

    /// Forgets a stream that has ended.
    func close(_ id: Int, of person: PersonID) {
        state.withLock { state in
            state.byPerson[person]?.removeAll { $0.id == id }
            if state.byPerson[person]?.isEmpty == true { state.byPerson[person] = nil }
        }
    }

    /// The owner of a stream opened by `context`'s request; nil for a stranger (whose streams,
    /// behind sign-in, do not exist).
    func owner(_ context: PocketRequestContext) -> EventStream.Owner? {
        context.identity.map { EventStream.Owner(identity: $0, streams: self) }
    }

    /// Whether `identity`'s device is still signed in.
    func stillSignedIn(_ identity: SignedIn) async -> Bool {
        await isSignedIn(identity.device.id)
    }
}
