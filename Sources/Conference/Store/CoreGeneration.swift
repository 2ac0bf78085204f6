import Foundation
import GRDB

/// One open sci-core file: its read-only pool, its detected schema and where it came from.
///
/// Every query takes the generation that is current when it starts and keeps it until it ends,
/// so a database installed meanwhile never changes a query's answer halfway. A superseded
/// generation is retired: its file is deleted when the last query using it lets go.
final class CoreGeneration: Sendable {
    let pool: DatabasePool
    let file: URL
    let schema: CoreSchema
    let source: DatabaseSource
    /// The screens' answers from this file.
    let screens = ScreenMemo()
    private let retired = Flag()

    /// Opens `file` read-only (Pocket never writes into a sci-core database) and detects its schema.
    init(file: URL, source: DatabaseSource) throws {
        var configuration = Configuration()
        configuration.label = "conference-core"
        configuration.readonly = true
        configuration.maximumReaderCount = 4
        pool = try DatabasePool(path: file.path, configuration: configuration)
        schema = try pool.read { db in try CoreSchema.detect(db) }
        self.file = file
        self.source = source
    }

    /// Runs a read on this generation's file.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database, CoreSchema) throws -> T) async throws -> T {
        let schema = schema
        return try await pool.read { db in try body(db, schema) }
    }

    /// Marks the file for deletion once no query uses it any more.
    func retire() {
        retired.set()
    }

    deinit {
        guard retired.isSet else { return }
        // Unlinking a file SQLite still has open is safe on POSIX; the connections close right after.
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: file.path + suffix)
        }
    }
}

/// A thread-safe one-way switch.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() {
        lock.withLock { value = true }
    }

    var isSet: Bool {
        lock.withLock { value }
    }
}
