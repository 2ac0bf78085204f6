import Foundation
import GRDB

// Row decoding and the JSON column live here, so the device models never import the database.

/// A device the store keeps as one JSON row.
protocol StoredDevice: Codable, Hashable, Sendable {
    /// Which row holds it.
    static var kind: RemoteDevice { get }
    /// What the display says when the stored JSON could not be read and the device was reset.
    static var unreadableNotice: String { get }
    /// The factory state.
    init()
    /// The device after the time between two changes; only the DVR has a clock.
    func running(from start: Date, to end: Date) -> Self
    /// The part every phone and the Screen share, which is all its row holds.
    var shared: Self { get }
}

extension Television: StoredDevice {
    static var kind: RemoteDevice { .tv }
    static var unreadableNotice: String { "The TV’s saved settings could not be read, so it was reset" }

    func running(from start: Date, to end: Date) -> Television { self }

    /// A half-typed channel belongs to the phone that typed it (see `pending_digit`), never the set.
    var shared: Television {
        var television = self
        television.pendingDigit = nil  // also drops its time stamp
        return television
    }
}

extension DVR: StoredDevice {
    static var kind: RemoteDevice { .dvr }
    static var unreadableNotice: String { "The DVR’s saved state could not be read, so it was reset" }

    func running(from start: Date, to end: Date) -> DVR { advanced(from: start, to: end) }

    var shared: DVR { self }
}

/// A device read from its row, and whether the row must be (re)written: it was missing, or it held
/// JSON of a shape this version cannot read, so the device starts again from its factory state.
struct StoredRow<Device: StoredDevice> {
    let snapshot: DeviceSnapshot<Device>
    let needsWrite: Bool
}

extension RemoteDatabase {
    /// Reads a device. Never throws for bad JSON: a remote that cannot be used is worse than one reset.
    static func fetch<Device: StoredDevice>(_ type: Device.Type, _ db: Database, at date: Date) throws -> StoredRow<Device> {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM device WHERE id = ?", arguments: [Device.kind.rawValue]) else {
            return StoredRow(snapshot: DeviceSnapshot(device: Device(), notice: nil, revision: 0, updatedAt: date), needsWrite: true)
        }
        // Throwing accessors: SQLite lets any column hold any type, and a hand-edited row must not crash Pocket.
        let revision = (try? row.decode(Int64.self, forColumn: "revision")) ?? 0
        let json = (try? row.decode(String.self, forColumn: "state")) ?? ""
        let updatedAt = try? row.decode(Date.self, forColumn: "updatedAt")
        let notice = (try? row.decode(String?.self, forColumn: "notice")) ?? nil
        guard let device = try? JSONDecoder().decode(Device.self, from: Data(json.utf8)), let updatedAt else {
            let reset = DeviceSnapshot(device: Device(), notice: Device.unreadableNotice, revision: revision + 1, updatedAt: date)
            return StoredRow(snapshot: reset, needsWrite: true)
        }
        // A row the previous release wrote may still hold its one shared pending digit: it is not anyone's.
        return StoredRow(snapshot: DeviceSnapshot(device: device.shared, notice: notice, revision: revision, updatedAt: updatedAt), needsWrite: false)
    }

    /// Writes a device's row, replacing what was there.
    static func save<Device: StoredDevice>(_ snapshot: DeviceSnapshot<Device>, _ db: Database) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(snapshot.device.shared), as: UTF8.self)
        try db.execute(
            sql: """
                INSERT INTO device(id, state, notice, revision, updatedAt) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET state = excluded.state, notice = excluded.notice,
                    revision = excluded.revision, updatedAt = excluded.updatedAt
                """,
            arguments: [Device.kind.rawValue, json, snapshot.notice, snapshot.revision, snapshot.updatedAt]
        )
    }
}
