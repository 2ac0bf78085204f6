import HummingbirdCore
import Logging
import NIOCore
import PocketCore
import Synchronization

/// Bounds open connections, per client address and in all, across every listener of one Pocket.
///
/// Why: each connection is a file handle. A stranger holding 1,100 idle sockets used to take the
/// handles the databases need (every signed-in request answered 500, "unable to open database
/// file"). A connection beyond a bound is closed as soon as it is accepted, before TLS or HTTP,
/// so it costs nothing further; other addresses are still served, and `FileLimit.reserve`
/// handles stay free for the databases whatever the connections do.
public final class ConnectionGate: Sendable {
    /// How many connections one address may hold: a phone opens six or so per origin; a few
    /// devices behind one address (a guest network's NAT) stay well within it.
    public let perAddress: Int
    /// How many connections all addresses together may hold.
    public let total: Int
    /// An address exempt from `perAddress` (the trusted reverse proxy, through which everyone comes).
    private let exempt: String?
    private let state = Mutex(State())
    private let logger: Logger
    private let refusalLog = OncePerMinute()

    private struct State {
        var byAddress: [String: Int] = [:]
        var total = 0
        var streamsByAddress: [String: Int] = [:]
    }

    /// Creates a gate. With no `total`, it is what the open-file limit allows after the reserve.
    public init(perAddress: Int = 128, total: Int? = nil, exempt: String? = nil, logger: Logger) {
        self.perAddress = perAddress
        self.total = total ?? Self.totalAllowed(fileLimit: FileLimit.current)
        self.exempt = exempt
        self.logger = logger
    }

    /// The connections a process with `fileLimit` open files may hold, keeping `FileLimit.reserve` back.
    public static func totalAllowed(fileLimit: Int) -> Int {
        // Beyond 16,384 idle connections memory, not handles, becomes the limit.
        min(16_384, max(64, fileLimit - FileLimit.reserve))
    }

    /// How many HTTP/2 streams (requests at once) one address may have open over all its
    /// connections. HTTP/1.1 asks one request at a time per connection, so `perAddress` bounds
    /// its requests too; HTTP/2 asks many over one, and without this one address could keep
    /// 128 connections × 100 streams busy where HTTP/1.1 allows 128.
    public var streamsPerAddress: Int { perAddress }

    /// The number of connections open now from `address` (for tests and the log).
    public func openConnections(from address: String) -> Int {
        state.withLock { $0.byAddress[address] ?? 0 }
    }

    /// Admits a newly accepted connection, or closes it when a bound is reached. An admitted
    /// connection is counted until it closes.
    func admit(_ channel: any Channel) -> Bool {
        let address = channel.remoteAddress?.ipAddress ?? "unknown"
        let limitedByAddress = !isExempt(address)
        let refusal: String? = state.withLock { state in
            if state.total >= total { return "Pocket holds \(total) connections, its limit" }
            if limitedByAddress, state.byAddress[address, default: 0] >= perAddress {
                return "\(address) holds \(perAddress) connections, the limit for one address"
            }
            state.total += 1
            state.byAddress[address, default: 0] += 1
            return nil
        }
        if let refusal {
            channel.close(promise: nil)
            logRefusal("connections", refusal)
            return false
        }
        channel.closeFuture.whenComplete { [self] _ in
            state.withLock { state in
                state.total -= 1
                let left = state.byAddress[address, default: 1] - 1
                state.byAddress[address] = left > 0 ? left : nil
            }
        }
        return true
    }

    /// Admits a new HTTP/2 stream from `address`, or says no when the address has
    /// `streamsPerAddress` open already; an admitted stream is counted until `releaseStream`.
    func admitStream(from address: String) -> Bool {
        if isExempt(address) { return true }
        let admitted = state.withLock { state in
            guard state.streamsByAddress[address, default: 0] < streamsPerAddress else { return false }
            state.streamsByAddress[address, default: 0] += 1
            return true
        }
        if !admitted { logRefusal("HTTP/2 streams", "\(address) has \(streamsPerAddress) open, the limit for one address") }
        return admitted
    }

    /// Counts an admitted stream from `address` closed.
    func releaseStream(from address: String) {
        if isExempt(address) { return }
        state.withLock { state in
            let left = state.streamsByAddress[address, default: 1] - 1
            state.streamsByAddress[address] = left > 0 ? left : nil
        }
    }

    /// Whether `address` is the trusted proxy, which carries every phone's requests and so is not
    /// bounded per address.
    private func isExempt(_ address: String) -> Bool {
        exempt.map { ClientMiddleware.sameAddress(address, $0) } ?? false
    }

    private func logRefusal(_ what: String, _ reason: String) {
        if refusalLog.isDue() { logger.warning("refusing new \(what): \(reason) (logged at most once a minute)") }
    }
}

/// A listener's connections, each admitted by the gate before `Base` sets it up for TLS and HTTP.
struct GatedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let gate: ConnectionGate

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard gate.admit(channel) else {
            // A failed setup is dropped by the server; the gate has closed the channel already.
            return channel.eventLoop.makeFailedFuture(ConnectionRefused())
        }
        return base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// A connection the gate closed.
private struct ConnectionRefused: Error {}
