import PocketCore
import Testing
@testable import Conference

@Suite("Conference errors")
struct ConferenceErrorTests {
    @Test func messagesNameTheProblem() {
        #expect(ConferenceError.notADatabase("no talk table").description.hasSuffix("no talk table"))
        #expect(ConferenceError.missingTables(["talk", "speaker.GivenNames"]).description.contains("talk, speaker.GivenNames"))
        #expect(ConferenceError.checksumMismatch(file: "core.53.db", expected: "a", actual: "b").description
            == "core.53.db is damaged: its MD5 is b, but the manifest says a")
    }

    @Test func downloadFailuresBecomeOneClearLine() {
        #expect(ConferenceError(DownloadError.status(404)) == .downloadFailed("the server answered 404"))
        #expect(ConferenceError(DownloadError.cancelled) == .cancelled)
        #expect(ConferenceError(manifest: FetchError.timedOut) == .manifestUnavailable("the server did not answer in time"))
    }
}
