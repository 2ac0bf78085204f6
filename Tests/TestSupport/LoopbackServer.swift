import Foundation
import Hummingbird
import HummingbirdTesting

/// A real HTTP server on a free loopback port, for a test's stand-in of an outside service (the
/// SCI manifest and downloads, the talk-text site, the murals service, plate picture hosts).
/// Each fixture adds its own routes, and with them what its real service enforces (statuses,
/// headers, limits, misbehaviour on purpose); this is only the plumbing, written once: the router,
/// the loopback address and running the server for as long as the test needs it.
public enum LoopbackServer {
    /// Why the server could not be reached, in one line a failing test prints.
    public struct Failure: Error, CustomStringConvertible {
        /// The line.
        public let description: String
    }

    /// Runs `body` with the server's base address (`http://127.0.0.1:<port>`, without a trailing
    /// slash) while the routes `routes` adds answer there; the server stops when `body` returns.
    public static func serving<Value>(
        _ routes: (Router<BasicRequestContext>) -> Void,
        _ body: @Sendable (URL) async throws -> Value
    ) async throws -> Value {
        let router = Router()
        routes(router)
        let server = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await server.test(.live) { client in
            guard let port = client.port, let base = URL(string: "http://127.0.0.1:\(port)") else {
                throw Failure(description: "the loopback fixture server has no port")
            }
            return try await body(base)
        }
    }
}
