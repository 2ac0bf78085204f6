import Foundation
import GRDB

/// Opens the SQLite databases that each app's store is built on, all with the same settings.
public enum DatabaseFactory {
    /// A pooled on-disk database (WAL) at `url`, for the running server.
    public static func onDisk(at url: URL, label: String) throws -> DatabasePool {
        try DatabasePool(path: url.path, configuration: configuration(label: label))
    }

    /// A private in-memory database, for tests and previews.
    public static func inMemory(label: String) throws -> DatabaseQueue {
        try DatabaseQueue(named: nil, configuration: configuration(label: label))
    }

    /// The shared settings: foreign keys on, a busy timeout so two writers wait rather than fail.
    public static func configuration(label: String) -> Configuration {
        var configuration = Configuration()
        configuration.label = label
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        return configuration
    }
}
