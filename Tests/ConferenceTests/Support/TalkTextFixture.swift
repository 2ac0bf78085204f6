import Foundation
import Hummingbird
import TestSupport

/// A loopback stand-in for the talk-text site: `/content/talks_ajax/:id` answers the text set for
/// that talk (or a made-up one), a status, or nothing for a while; it counts every request.
final class TalkTextFixture: @unchecked Sendable {
    /// How one talk is answered.
    enum Answer: Sendable {
        case text(String)
        case status(Int)
        case stall(seconds: Double)
        /// A redirect to this address.
        case redirect(String)
    }

    private let lock = NSLock()
    private var answers: [Int: Answer] = [:]
    private var counts: [Int: Int] = [:]

    /// Sets how talk `id` is answered (the default is `<p>Text of talk id</p>`).
    func set(_ id: Int, _ answer: Answer) {
        lock.withLock { answers[id] = answer }
    }

    /// How many times talk `id` was asked for.
    func requests(for id: Int) -> Int {
        lock.withLock { counts[id] ?? 0 }
    }

    /// Runs `body` with the fixture's base address while it serves on a free loopback port.
    func serving(_ body: @Sendable (URL) async throws -> Void) async throws {
        try await LoopbackServer.serving(addRoutes, body)
    }

    private func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("content/talks_ajax/:id") { [self] _, context -> Response in
            let id = try context.parameters.require("id", as: Int.self)
            let answer = lock.withLock { () -> Answer in
                counts[id, default: 0] += 1
                return answers[id] ?? .text("<p>Text of talk \(id)</p>")
            }
            switch answer {
            case .text(let html):
                return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: html)))
            case .status(let code):
                return Response(status: .init(code: code), body: .init(byteBuffer: ByteBuffer(string: "no")))
            case .redirect(let location):
                return Response(status: .found, headers: [.location: location])
            case .stall(let seconds):
                try await Task.sleep(for: .seconds(seconds))
                return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "late")))
            }
        }
    }
}
