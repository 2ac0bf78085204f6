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
    /// Names that change while Pocket runs (its own certificate's), asked at each request.
    private let current: (@Sendable () -> [String])?

    /// Every name accepted: for route tests, which build requests without one.
    public static let any = ServedHosts(names: nil, current: nil)

    /// `localhost`, this machine's host name and `<host name>.local`, the address bound (when
    /// it is a name), `extra` (the `--name`s Pocket is reached by) and whatever `current` says at
    /// the time of a request (the names Pocket's own certificate covers now).
    public static func thisMachine(bind host: String, extra: [String] = [], current: (@Sendable () -> [String])? = nil) -> ServedHosts {
        var names: Set<String> = ["localhost", host.lowercased()]
        if let label = ServedNames.machineLabel() {
            names.insert(label)
            names.insert(label + ".local")
        }
        names.formUnion(extra.map { $0.lowercased() })
        return ServedHosts(names: names, current: current)
    }

    private init(names: Set<String>?, current: (@Sendable () -> [String])?) {
        self.names = names
        self.current = current
    }

    /// Whether a request with this `Host` (name or address, with or without a port) is answered.
    /// A request without one (HTTP/1.0, a test) has no name to check.
    public func allows(_ authority: String?) -> Bool {
        guard let names, let authority, !authority.isEmpty else { return true }
        guard let host = HostName.host(ofAuthority: authority) else { return false }
        return HostName.ipAddressBytes(host) != nil || names.contains(host) || (current?().contains(host) ?? false)
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
