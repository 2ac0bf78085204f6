import Testing
@testable import PocketWeb

/// The one check every redirect chosen by a request's own field goes through (issue #27: it was
/// written four ways, one with a weaker control-character rule).
@Suite("Return addresses")
struct ReturnAddressTests {
    @Test func aPathInsideTheAppIsKept() {
        for kept in ["/plates", "/plates/", "/plates?return=1", "/plates/states/UT", "/plates/states/UT?x=%2F%2F"] {
            #expect(ReturnAddress.within("/plates", kept, otherwise: "/fallback") == kept)
        }
        #expect(ReturnAddress.within("/", "/conference/talks/5", otherwise: "/") == "/conference/talks/5")
    }

    @Test func anythingThatCouldLeaveThePocketOrSplitAHeaderIsRefused() {
        let hostile: [String?] = [nil, "", "plates", "https://evil.example/", "//evil.example", "/\\evil.example",
                                  "/plates//evil.example", "/plates\\evil", "/platesx", "/conference", "/plates\r\nSet-Cookie: a=b",
                                  "/plates\tx", "/plates\u{0}", "/plates\u{7F}", "/plates\u{85}", "/plates\u{200E}"]
        for value in hostile {
            #expect(ReturnAddress.within("/plates", value, otherwise: "/fallback") == "/fallback", "\(String(describing: value))")
        }
        for value in ["//evil.example", "/\\evil.example", "/a\u{0}b", "https://evil.example"] {
            #expect(ReturnAddress.within("/", value, otherwise: "/") == "/", "\(value)")
        }
    }

    @Test func signInNeverReturnsToSigningInOrOut() {
        #expect(SignInPage.safeNext("/signin?next=/") == "/")
        #expect(SignInPage.safeNext("/signout") == "/")
        #expect(SignInPage.safeNext("/murals/12") == "/murals/12")
    }
}
