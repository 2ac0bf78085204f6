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
/// (a file handle) for ever. `HandshakeIdleLimit` and `HTTP2IdleLimit` close both.
struct NegotiatedHTTPChannel: ServerChildChannel {
    typealias Value = HTTP2UpgradeChannel.Value

    private let base: HTTP2UpgradeChannel

    /// `http1` configures HTTP/1.1 connections and each HTTP/2 stream (its idle limit included).
    init(responder: @escaping HTTPChannelHandler.Responder, tls: TLSConfiguration, http1: HTTP1Channel.Configuration) throws {
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
            try channel.pipeline.syncOperations.addHandler(HandshakeIdleLimit(), position: .after(tls))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Closes a connection whose TLS handshake has not ended within `connectionIdleLimit`; once it has,
/// puts `HTTP2IdleLimit` on an HTTP/2 connection (HTTP/1.1's own handler keeps its limit).
private final class HandshakeIdleLimit: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private var deadline: Scheduled<Void>?

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
                try pipeline.addHandler(HTTP2IdleLimit(), position: .after(http2.handler))
            }
            pipeline.removeHandler(context: context, promise: nil)
        } catch {
            // Unbounded idleness is worse than one refused connection.
            context.close(promise: nil)
        }
    }
}

/// Closes an HTTP/2 connection that has had no open stream for `connectionIdleLimit` and a moment
/// more: Hummingbird's GOAWAY goes first, so a client that answers it closes politely.
private final class HTTP2IdleLimit: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame

    /// Time for a client to answer the GOAWAY before the connection is closed regardless.
    private static let grace: Duration = .seconds(2)

    private var openStreams: Set<HTTP2StreamID> = []
    private var deadline: Scheduled<Void>?

    func handlerAdded(context: ChannelHandlerContext) {
        startClock(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let created = event as? NIOHTTP2StreamCreatedEvent {
            openStreams.insert(created.streamID)
            deadline?.cancel()
            deadline = nil
        } else if let closed = event as? StreamClosedEvent {
            openStreams.remove(closed.streamID)
            if openStreams.isEmpty { startClock(context: context) }
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func startClock(context: ChannelHandlerContext) {
        deadline?.cancel()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: TimeAmount(connectionIdleLimit + Self.grace)) {
            bound.value.close(promise: nil)
        }
    }
}
