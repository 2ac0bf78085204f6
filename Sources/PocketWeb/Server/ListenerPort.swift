import Synchronization

/// A listener's port: the configured one until the listener is bound, then the bound one
/// (`--port 0` picks any), which links and redirects name.
public final class ListenerPort: Sendable {
    private let storage: Mutex<Int>

    /// Starts with the configured port.
    public init(_ port: Int) {
        storage = Mutex(port)
    }

    /// The port.
    public var value: Int {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
