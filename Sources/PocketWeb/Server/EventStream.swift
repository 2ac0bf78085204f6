import Hummingbird
import ServiceLifecycle

/// One Server-Sent Event, as pocket.js consumes it (`patch`, `reload`, `done`, or an app's own name).
public struct ServerSentEvent: Sendable, Equatable {
    /// The event name; nil means the default `message`.
    public let name: String?
    /// The payload; each line becomes its own `data:` line.
    public let data: String

    /// Creates an event.
    public init(name: String?, data: String) {
        self.name = name
        self.data = data
    }

    /// The event in wire format, ending with the blank line that dispatches it.
    public var encoded: String {
        var text = name.map { "event: \($0)\n" } ?? ""
        // Carriage returns would start new fields; normalise them so outside text cannot forge events.
        let normalised = data.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        for line in normalised.split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line)\n"
        }
        return text + "\n"
    }
}

/// Streams events to a browser until either side stops, with a comment every `keepAlive`
/// so a dead connection is noticed, and an end at graceful shutdown so Pocket can stop promptly.
public enum EventStream {
    /// Whose stream it is, and the registry that bounds each person's streams.
    struct Owner: Sendable {
        let identity: SignedIn
        let streams: OpenStreams
    }

    /// A `text/event-stream` response that writes `initial`, then every event of `events`. With an
    /// `owner`, the stream counts towards the person's cap (the oldest beyond it ends) and ends
    /// once their device is signed out.
    static func response<Events: AsyncSequence & Sendable>(
        initial: [ServerSentEvent] = [],
        events: Events,
        owner: Owner?,
        keepAlive: Duration = .seconds(15)
    ) -> Response where Events.Element == ServerSentEvent {
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        let body = ResponseBody { writer in
            let (lines, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
            for event in initial { continuation.yield(event.encoded) }
            let registration = owner.map { owner in (owner, owner.streams.open(owner.identity) { continuation.finish() }) }
            let producers = Task {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        do {
                            for try await event in events { continuation.yield(event.encoded) }
                        } catch {}
                        continuation.finish()
                    }
                    group.addTask {
                        while !Task.isCancelled {
                            try? await Task.sleep(for: keepAlive)
                            continuation.yield(": keep-alive\n\n")
                        }
                    }
                    if let owner {
                        group.addTask {
                            while !Task.isCancelled {
                                try? await Task.sleep(for: owner.streams.recheck)
                                let signedIn = await owner.streams.stillSignedIn(owner.identity)
                                if !Task.isCancelled && !signedIn {
                                    continuation.finish()
                                    return
                                }
                            }
                        }
                    }
                    await group.next()
                    group.cancelAll()
                }
            }
            do {
                // Graceful shutdown ends the stream, so open pages cannot keep the server running.
                try await withGracefulShutdownHandler {
                    for await line in lines {
                        try await writer.write(ByteBuffer(string: line))
                    }
                } onGracefulShutdown: {
                    continuation.finish()
                }
            } catch {
                // The browser went away: the stream is over.
            }
            producers.cancel()
            continuation.finish()
            if let registration { registration.0.streams.close(registration.1, of: registration.0.identity.person.id) }
            try? await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}
