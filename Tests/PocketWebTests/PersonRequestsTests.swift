import PocketCore
import Testing
@testable import PocketWeb

/// A removal deletes a person's data only after the requests of theirs already running have
/// written, and none of theirs starts in between.
@Suite("A person's requests around their removal")
struct PersonRequestsTests {
    private let bea = PersonID(rawValue: 2)
    private let ann = PersonID(rawValue: 1)

    /// Whether the removal's deletion has run.
    private actor Flag {
        var isSet = false
        func set() { isSet = true }
    }

    @Test func aRemovalWaitsForTheRequestsAlreadyRunningAndRefusesNewOnesUntilItIsDone() async throws {
        let requests = PersonRequests()
        let (started, didStart) = AsyncStream<Void>.makeStream()
        let (release, letGo) = AsyncStream<Void>.makeStream()
        let forgotten = Flag()
        let bea = self.bea
        let running = Task {
            await requests.run(for: bea) { () async -> String in
                didStart.yield()
                for await _ in release { break }
                return await forgotten.isSet ? "written after the removal" : "written"
            }
        }
        for await _ in started { break }
        let removal = Task { await requests.shuttingOut(bea) { await forgotten.set() } }
        // Once she is shut out, a new request of hers is refused, and Ann's still run.
        var refused = false
        for _ in 0..<10_000 where !refused {
            refused = await requests.run(for: bea, { true }) == nil
            await Task.yield()
        }
        #expect(refused, "her new requests were never refused")
        #expect(await requests.run(for: ann) { "ann's" } == "ann's")
        for _ in 0..<100 { await Task.yield() }
        #expect(await !forgotten.isSet, "the removal went ahead with her request still running")
        #expect(requests.inFlight(for: bea) == 1)

        letGo.yield()
        #expect(await running.value == "written")
        await removal.value
        #expect(await forgotten.isSet)
        // Done: the id is admitted again (SQLite may give it to someone new).
        #expect(await requests.run(for: bea) { 1 } == 1)
        #expect(requests.inFlight(for: bea) == 0)
    }

    @Test func anOwnerRemovingThemselvesIsNotKeptWaitingByTheirOwnRequest() async throws {
        let requests = PersonRequests()
        let answer = await requests.run(for: ann) { await requests.shuttingOut(ann, keeping: 1) { "removed" } }
        #expect(answer == "removed")
        #expect(requests.inFlight(for: ann) == 0)
    }

    @Test func twoRemovalsAtOnceKeepHerShutOutUntilBothAreDone() async throws {
        let requests = PersonRequests()
        let (inside, entered) = AsyncStream<Void>.makeStream()
        let (release, letGo) = AsyncStream<Void>.makeStream()
        let bea = self.bea
        let first = Task { await requests.shuttingOut(bea) { entered.yield(); for await _ in release { break } } }
        for await _ in inside { break }
        await requests.shuttingOut(bea) {}
        #expect(await requests.run(for: bea) { 1 } == nil, "the first removal is still deleting")
        letGo.yield()
        await first.value
        #expect(await requests.run(for: bea) { 1 } == 1)
    }
}
