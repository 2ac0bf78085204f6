import PocketCore
import Synchronization
import Testing

/// `BoundedMemo`: each value worked out once, and never more than the capacity kept.
@Suite("Bounded memo")
struct BoundedMemoTests {
    @Test func computesEachKeyOnceAndKeepsAtMostItsCapacity() {
        let memo = BoundedMemo<Int, String>(capacity: 4)
        let computed = Mutex(0)
        func value(_ key: Int) -> String {
            memo.value(for: key) {
                computed.withLock { $0 += 1 }
                return "#\(key)"
            }
        }
        #expect(value(1) == "#1")
        #expect(value(1) == "#1")
        #expect(computed.withLock { $0 } == 1)
        for key in 2...20 {
            #expect(value(key) == "#\(key)")
            #expect(memo.count <= 4)
        }
        #expect(computed.withLock { $0 } == 20)
    }

    @Test func aFailureIsNotKept() {
        struct Failure: Error {}
        let memo = BoundedMemo<Int, Int>(capacity: 4)
        #expect(throws: Failure.self) { try memo.value(for: 1) { throw Failure() } }
        #expect(memo.count == 0)
        #expect(memo.value(for: 1) { 7 } == 7)
    }

    @Test func aMemoMadeNotKeepingComputesEveryTime() {
        let memo = BoundedMemo<Int, Int>(capacity: 4, keeping: false)
        let computed = Mutex(0)
        for time in 1...3 {
            #expect(memo.value(for: 1) { computed.withLock { $0 += 1; return $0 } } == time)
        }
        #expect(computed.withLock { $0 } == 3)
        #expect(memo.count == 0)
    }
}
