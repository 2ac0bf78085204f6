import Testing
@testable import PocketWeb

/// The access log never holds a secret that signs someone in (issue #33).
@Suite("Access log")
struct AccessLogRedactionTests {
    @Test func setupTokensAndPairingCodesAreRedactedAndOtherPathsKept() {
        #expect(AccessLogMiddleware.loggedPath("/setup/3f9c1a7e5b2d4c6e8a0b") == "/setup/[redacted]")
        #expect(AccessLogMiddleware.loggedPath("/join/K7Q2-M9XW") == "/join/[redacted]")
        #expect(AccessLogMiddleware.loggedPath("/join/K7Q2-M9XW/extra") == "/join/[redacted]")
        for kept in ["/join", "/setup", "/settings", "/plates/changes", "/joinery/x", "/"] {
            #expect(AccessLogMiddleware.loggedPath(kept) == kept)
        }
    }
}
