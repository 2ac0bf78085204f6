import HummingbirdCore
import HummingbirdHTTP2
import Logging
import NIOCore
import NIOHTTP2
import NIOSSL
import NIOTLS

/// HTTPS connections speaking HTTP/2 or HTTP/1.1, as the client's ALPN chooses, each closed once
/// idle for `connectionIdleLimit` whichever it speaks.
///
/// Why: phones multiplex a page's requests over one HTTP/2 connection instead of queueing them on
/// six HTTP/1.1 ones. Hummingbird's HTTP/2 connection only asks an idle client to leave (GOAWAY
/// and a PING) and closes once the client answers, and sets nothing up before the TLS handshake
/// ends; a client that never answers, or never finishes the handshake, would keep its connection
/// (a file handle) for ever. `HandshakeIdleLimit` and `HTTP2Limits` close both. One connection
/// also carries many requests at once, so `HTTP2Limits` bounds those per address with `gate`.
struct NegotiatedHTTPChannel: ServerChildChannel {
    typealias Value = HTTP2UpgradeChannel.Value

    private let base: HTTP2UpgradeChannel
    private let gate: ConnectionGate

    /// `http1` configures HTTP/1.1 connections and each HTTP/2 stream (its idle limit included);
    /// `gate` counts each address's open HTTP/2 streams.
    init(responder: @escaping HTTPChannelHandler.Responder, tls: TLSConfiguration, http1: HTTP1Channel.Configuration, gate: ConnectionGate) throws {
        self.gate = gate
        // Sets ALPN to "h2" then "http/1.1" on `tls`; its certificate callback (the renewed leaf) is kept.
        base = try HTTP2UpgradeChannel(
            tlsConfiguration: tls,
            configuration: HTTP2ChannelConfiguration(idleTimeout: connectionIdleLimit, streamConfiguration: http1),
            responder: responder
        )
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            // Right behind TLS, to see the handshake end before ALPN's handler acts on it.
            let tls = try channel.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self)
            let address = channel.remoteAddress?.ipAddress ?? "unknown"
            try channel.pipeline.syncOperations.addHandler(HandshakeIdleLimit(gate: gate, address: address), position: .after(tls))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Closes a connection whose TLS handshake has not ended within `connectionIdleLimit`; once it has,
/// puts `HTTP2Limits` on an HTTP/2 connection (HTTP/1.1's own handler keeps its limit).
private final class HandshakeIdleLimit: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let gate: ConnectionGate
    private let address: String
    private var deadline: Scheduled<Void>?

    init(gate: ConnectionGate, address: String) {
        self.gate = gate
        self.address = address
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: TimeAmount(connectionIdleLimit)) {
            bound.value.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case TLSUserEvent.handshakeCompleted(let negotiated) = event else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        deadline?.cancel()
        deadline = nil
        // ALPN's handler sets the connection up for the negotiated protocol as it sees this.
        context.fireUserInboundEventTriggered(event)
        let pipeline = context.pipeline.syncOperations
        do {
            if negotiated == "h2" {
                let http2 = try pipeline.context(handlerType: NIOHTTP2Handler.self)
                try pipeline.addHandler(HTTP2Limits(gate: gate, address: address), position: .after(http2.handler))
            }
            pipeline.removeHandler(context: context, promise: nil)
        } catch {
            // Unbounded idleness is worse than one refused connection.
            context.close(promise: nil)
        }
    }
}

/// An HTTP/2 connection's limits: at most `streamsPerConnection` requests at once (announced, so
/// a browser queues the rest), at most the gate's `streamsPerAddress` over all of one address's
/// connections (a stream beyond either is refused, REFUSED_STREAM, which a client may retry),
/// and closed once it has had no open stream for `connectionIdleLimit` and a moment more:
/// Hummingbird's GOAWAY goes first, so a client that answers it closes politely. When the server
/// stops, it is closed a moment after its last stream ends: Hummingbird's GOAWAY waits for an
/// answer that a silent client (a browser's spare connection) never gives.
///
/// Streams are counted by `HTTP2StreamCount` in each stream's own pipeline: swift-nio-http2 tells
/// stream openings and closings to its multiplexer, not to handlers on the connection.
final class HTTP2Limits: ChannelDuplexHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// Requests one connection may have open at once: a page's modules and pictures and the
    /// service worker's first download fit; Chromium queues the rest on the same connection.
    static let streamsPerConnection = 64
    /// Time for a client to answer the GOAWAY before the connection is closed regardless.
    private static let grace: Duration = .seconds(2)

    private let gate: ConnectionGate
    private let address: String
    /// Streams admitted and counted (here and by the gate) until they close.
    private var openStreams: Set<HTTP2StreamID> = []
    private var deadline: Scheduled<Void>?
    private var context: ChannelHandlerContext?
    /// Whether the server is stopping.
    private var quiescing = false

    fileprivate init(gate: ConnectionGate, address: String) {
        self.gate = gate
        self.address = address
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        // The preamble's settings (100 streams) are gone already; these replace them once acknowledged.
        let settings = HTTP2Frame(streamID: .rootStream, payload: .settings(.settings([
            HTTP2Setting(parameter: .maxConcurrentStreams, value: Self.streamsPerConnection)
        ])))
        context.writeAndFlush(wrapOutboundOut(settings), promise: nil)
        startClock()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            quiescing = true
            if openStreams.isEmpty { startClock() }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        for _ in openStreams { gate.releaseStream(from: address) }
        openStreams.removeAll()
        self.context = nil
    }

    /// Counts a newly opened stream, or refuses it beyond either bound. On the connection's event loop.
    fileprivate func opened(_ stream: HTTP2StreamID) -> Bool {
        // Counted here: swift-nio-http2 holds a client to the announced number only once it has
        // acknowledged it, and a client that never does would not be held at all.
        guard context != nil, openStreams.count < Self.streamsPerConnection, gate.admitStream(from: address) else {
            context?.writeAndFlush(wrapOutboundOut(HTTP2Frame(streamID: stream, payload: .rstStream(.refusedStream))), promise: nil)
            return false
        }
        openStreams.insert(stream)
        deadline?.cancel()
        deadline = nil
        return true
    }

    /// Counts a stream closed. On the connection's event loop.
    fileprivate func closed(_ stream: HTTP2StreamID) {
        guard openStreams.remove(stream) != nil else { return }
        gate.releaseStream(from: address)
        if openStreams.isEmpty { startClock() }
    }

    private func startClock() {
        deadline?.cancel()
        guard let context else { return }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: TimeAmount(quiescing ? Self.grace : connectionIdleLimit + Self.grace)) {
            bound.value.close(promise: nil)
        }
    }
}

/// In each HTTP/2 stream's pipeline (and each HTTP/1.1 connection's, where it does nothing):
/// tells the connection's `HTTP2Limits` the stream opened and closed.
final class HTTP2StreamCount: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private var limits: HTTP2Limits?
    private var stream: HTTP2StreamID?

    func handlerAdded(context: ChannelHandlerContext) {
        // Only an HTTP/2 stream's parent (its connection, on the same event loop) has the limits;
        // an HTTP/1.1 connection's is the listening socket, which would stop the process if asked
        // for a stream ID.
        guard let parent = context.channel.parent, parent.eventLoop.inEventLoop,
              let limits = try? parent.pipeline.syncOperations.handler(type: HTTP2Limits.self),
              let stream = try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID)
        else { return }
        if limits.opened(stream) {
            self.limits = limits
            self.stream = stream
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let limits, let stream { limits.closed(stream) }
        limits = nil
    }
}
