import Testing
@testable import PocketCore

@Suite("Broadcaster")
struct BroadcasterTests {
    @Test func everySubscriberGetsEveryValueInOrder() async {
        let broadcaster = Broadcaster<Int>()
        let first = await broadcaster.subscribe(), second = await broadcaster.subscribe()
        #expect(await broadcaster.count == 2)
        for value in 1...3 { await broadcaster.publish(value) }
        await broadcaster.finishAll()
        var a: [Int] = [], b: [Int] = []
        for await value in first { a.append(value) }
        for await value in second { b.append(value) }
        #expect(a == [1, 2, 3] && b == [1, 2, 3])
    }

    @Test func slowSubscribersKeepOnlyTheNewest() async {
        let broadcaster = Broadcaster<Int>(buffer: 2)
        let stream = await broadcaster.subscribe()
        for value in 1...10 { await broadcaster.publish(value) }
        await broadcaster.finishAll()
        var seen: [Int] = []
        for await value in stream { seen.append(value) }
        #expect(seen == [9, 10])
    }

    @Test func aFinishedConsumerIsForgotten() async throws {
        let broadcaster = Broadcaster<Int>()
        do {
            let stream = await broadcaster.subscribe()
            let task = Task { for await _ in stream {} }
            task.cancel()
            await task.value
        }
        for _ in 0..<50 where await broadcaster.count > 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await broadcaster.count == 0)
    }
}
