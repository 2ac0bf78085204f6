import Testing
@testable import PocketCore

/// The protocol details of resuming; the transfers themselves are tested against a fixture server
/// in ConferenceTests (this target has no HTTP server).
@Suite("Streaming download headers")
struct StreamingDownloadTests {
    private func parse(_ header: String) -> [Int64?]? {
        StreamingDownloader.parseContentRange(header).map { [$0.first, $0.last, $0.total] }
    }

    @Test func contentRangeIsParsed() {
        #expect(parse("bytes 100-199/200") == [100, 199, 200])
        #expect(parse("bytes 0-0/*") == [0, 0, nil])
        #expect(parse(" bytes 5-9/10 ") == [5, 9, 10])
        #expect(parse("bytes 100-99/200") == nil)
        #expect(parse("bytes 100-250/200") == nil)
        #expect(parse("bytes */200") == nil)
        #expect(parse("items 1-2/3") == nil)
        #expect(parse("bytes 1-2") == nil)
    }

    @Test func ifRangeUsesAStrongETagElseTheDate() {
        #expect(DownloadValidator(etag: "\"abc\"", lastModified: "Sat, 04 Oct 2025 10:00:00 GMT").ifRange == "\"abc\"")
        #expect(DownloadValidator(etag: "W/\"abc\"", lastModified: "Sat, 04 Oct 2025 10:00:00 GMT").ifRange == "Sat, 04 Oct 2025 10:00:00 GMT")
        #expect(DownloadValidator(etag: "W/\"abc\"").ifRange == nil)
        #expect(DownloadValidator().ifRange == nil)
    }

    @Test func optionsNeedAtLeastOneAttempt() {
        #expect(DownloadOptions(maxAttempts: 0).maxAttempts == 1)
    }

    @Test func errorsReadAsOneLine() {
        #expect(DownloadError.status(500).description == "the server answered 500")
        #expect(DownloadError.sizeMismatch(expected: 10, actual: 12).description == "the server's file is 12 bytes, but 10 were expected")
        #expect(DownloadError.interrupted(received: 5, expected: 10).description == "the connection dropped after 5 of 10 bytes, even after retrying")
    }
}
