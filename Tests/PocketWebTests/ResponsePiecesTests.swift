import Foundation
import PocketCore
import Testing
@testable import PocketWeb

/// What every response is made with: its content policy, error page and asset names.
@Suite("Response pieces")
struct ResponsePiecesTests {
    @Test func policiesMergeWithoutDuplicates() {
        let a = ExternalSources(imageSources: ["https://a"], frameSources: ["https://f"])
        let b = ExternalSources(imageSources: ["https://a", "https://b"], mediaSources: ["https://m"])
        let merged = a.merged(with: b)
        #expect(merged.imageSources == ["https://a", "https://b"])
        #expect(merged.headerValue.contains("media-src 'self' https://m"))
        #expect(ExternalSources().headerValue.contains("frame-src 'none'"))
    }

    @Test func errorModelsHideServerDetailsButKeepClientMessages() {
        let server = ErrorPage.Model(status: .internalServerError, message: "secret detail", requestID: "r1", path: "/x")
        #expect(!server.message.contains("secret"))
        #expect(server.showRequestID)
        let client = ErrorPage.Model(status: .forbidden, message: "Reload it.", requestID: "r2", path: "/x")
        #expect(client.message == "Reload it.")
        #expect(!client.showRequestID)
        #expect(ErrorPage.Model(status: .notFound, message: nil, requestID: "", path: "/").title == "Not Found")
    }

    @Test func assetHashesAreStableFNV1a() {
        // Known FNV-1a 64 vectors.
        #expect(AssetCatalog.hash(Data()) == "cbf29ce484222325")
        #expect(AssetCatalog.hash(Data("a".utf8)) == "af63dc4c8601ec8c")
        #expect(AssetCatalog.contentType(for: "x/y.SVG") == "image/svg+xml")
        #expect(AssetCatalog.contentType(for: "pocket.js") == "text/javascript; charset=utf-8")
    }
}

@Suite("Server-Sent Events")
struct ServerSentEventTests {
    @Test func eventsAreEncodedLineByLineAndCannotBeForged() {
        #expect(ServerSentEvent(name: "patch", data: "<p>a</p>").encoded == "event: patch\ndata: <p>a</p>\n\n")
        #expect(ServerSentEvent(name: nil, data: "one\ntwo").encoded == "data: one\ndata: two\n\n")
        // A carriage return in outside text must not start an `event:` field of its own.
        #expect(ServerSentEvent(name: "patch", data: "x\revent: reload").encoded == "event: patch\ndata: x\ndata: event: reload\n\n")
    }
}
