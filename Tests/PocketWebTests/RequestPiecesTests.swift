import Foundation
import PocketCore
import Testing
@testable import PocketWeb

/// What a request brings: its form fields and the tokens its forms carry.
@Suite("Request pieces")
struct RequestPiecesTests {
    @Test func formFieldsDecodePlusPercentAndRepeats() {
        let fields = FormFields(urlEncoded: "q=two+words&x=%3Cb%3E&tag=a&tag=b&empty=&bad=%zz&flag")
        #expect(fields["q"] == "two words")
        #expect(fields["x"] == "<b>")
        #expect(fields.all("tag") == ["a", "b"])
        #expect(fields["empty"] == "")
        #expect(fields["bad"] == "%zz")
        #expect(fields["flag"] == "")
        #expect(fields["missing"] == nil)
        #expect(fields.names == ["q", "x", "tag", "empty", "bad", "flag"])
    }

    @Test func csrfTokensAreWellFormedDistinctAndComparedExactly() {
        let a = RandomToken.make(), b = RandomToken.make()
        #expect(RandomToken.isWellFormed(a))
        #expect(a != b)
        #expect(RandomToken.matches(a, a))
        #expect(!RandomToken.matches(a, b))
        #expect(!RandomToken.matches("", ""))
        #expect(!RandomToken.matches(a, String(a.dropLast())))
        #expect(!RandomToken.isWellFormed("short"))
        #expect(!RandomToken.isWellFormed(String(repeating: "!", count: RandomToken.length)))
    }
}
