import Hummingbird
import PocketCore

/// The names a request's `Host` may carry: what Pocket serves. Any IP address is accepted (a page
/// can only reach an address by naming it, which no other site can make a browser do with
/// Pocket's cookies); a name must be one of Pocket's own.
///
/// Why: a page on another site can point a name it owns at Pocket's address (DNS rebinding) and
/// then read Pocket's pages as its own origin. Such a request carries that site's name, so
/// refusing names Pocket does not serve stops it.
public struct ServedHosts: Sendable {
    /// Lowercased names without a port; nil accepts every name.
    private let names: Set<String>?

    /// Every name accepted: for route tests, which build requests without one.
    public static let any = ServedHosts(names: nil)

    /// `localhost`, this machine's host name and `<host name>.local`, the address bound (when
    /// it is a name) and `extra` (names Pocket is told it is reached by).
    public static func thisMachine(bind host: String, extra: [String] = []) -> ServedHosts {
        var names: Set<String> = ["localhost", host.lowercased()]
        if let name = ReachableAddresses.hostName() {
            names.insert(name)
            let short = name.split(separator: ".").first.map(String.init) ?? name
            names.insert(short)
            names.insert(short + ".local")
        }
        names.formUnion(extra.map { $0.lowercased() })
        return ServedHosts(names: names)
    }

    private init(names: Set<String>?) {
        self.names = names
    }

    /// Whether a request with this `Host` (name or address, with or without a port) is answered.
    /// A request without one (HTTP/1.0, a test) has no name to check.
    public func allows(_ authority: String?) -> Bool {
        guard let names, let authority, !authority.isEmpty else { return true }
        let host = Self.host(of: authority.lowercased())
        if host.hasPrefix("[") || Self.isIPv4(host) { return true }
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        return names.contains(name)
    }

    /// The host part of `authority`: `[::1]` keeps its brackets, a port is dropped.
    private static func host(of authority: String) -> String {
        if authority.hasPrefix("[") {
            return authority.firstIndex(of: "]").map { String(authority[...$0]) } ?? authority
        }
        return authority.split(separator: ":", maxSplits: 1).first.map(String.init) ?? authority
    }

    private static func isIPv4(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && UInt8(part) != nil }
    }
}

/// Answers 421 to a request whose `Host` names something Pocket does not serve (see
/// `ServedHosts`); a trusted reverse proxy's requests are left to the proxy, which chose the name.
struct HostCheckMiddleware: RouterMiddleware {
    typealias Context = PocketRequestContext

    let hosts: ServedHosts
    let trustedProxy: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let fromProxy = trustedProxy.map { proxy in context.remoteAddress?.ipAddress.map { ClientMiddleware.sameAddress($0, proxy) } ?? false } ?? false
        guard fromProxy || hosts.allows(request.head.authority) else {
            context.logger.warning("refused a request for host \(String(reflecting: request.head.authority ?? "")) from \(context.clientAddress)")
            return Response(
                status: .misdirectedRequest, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: "This Pocket does not answer to that name. Open it by its own address.\n")))
        }
        return try await next(request, context)
    }
}
