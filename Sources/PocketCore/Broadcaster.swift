import Foundation

/// Fans values out to every current subscriber, e.g. "the DVR changed" to each open Screen page.
///
/// Each subscriber keeps only the newest few values, so one slow browser can neither block the
/// publisher nor make the server hold an unbounded backlog for it.
public actor Broadcaster<Value: Sendable> {
    private var subscribers: [UUID: AsyncStream<Value>.Continuation] = [:]
    private let buffer: Int

    /// Creates a broadcaster whose subscribers each buffer at most `buffer` values.
    public init(buffer: Int = 16) {
        self.buffer = buffer
    }

    /// A stream of every value published from now on; it ends when the consumer stops listening.
    public func subscribe() -> AsyncStream<Value> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(buffer))
        continuation.onTermination = { [weak self] _ in
            Task { await self?.remove(id) }
        }
        subscribers[id] = continuation
        return stream
    }

    /// Sends a value to every subscriber.
    public func publish(_ value: Value) {
        for continuation in subscribers.values { continuation.yield(value) }
    }

    /// Ends every subscription (at shutdown).
    public func finishAll() {
        for continuation in subscribers.values { continuation.finish() }
        subscribers.removeAll()
    }

    /// How many subscribers are listening.
    public var count: Int { subscribers.count }

    private func remove(_ id: UUID) {
        subscribers[id] = nil
    }
}
