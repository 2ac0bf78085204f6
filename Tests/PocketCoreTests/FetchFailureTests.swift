import AsyncHTTPClient
import Testing
@testable import PocketCore

/// What a failed fetch or download is called: a server reached that answered too late, or a host
/// never reached, whichever way AsyncHTTPClient reports it.
@Suite("Naming a failed fetch")
struct FetchFailureTests {
    @Test func aConnectionNeverMadeIsNotALateAnswer() {
        // Refused until the deadline before any attempt had failed (a busy machine): not reached.
        #expect(!HTTPClientError.connectTimeout.isLateAnswer)
        #expect(!HTTPClientError.getConnectionFromPoolTimeout.isLateAnswer)
        #expect(HTTPClientError.deadlineExceeded.isLateAnswer)
        #expect(HTTPClientError.readTimeout.isLateAnswer)
    }
}
