import Foundation
import GRDB
import PocketCore

/// The remotes' SQLite store: one row per device (its JSON, display notice, revision and time of the
/// last change), each phone's half-typed channel, and a settings table, migrated when opened.
///
/// A press is one write transaction that reads the device, runs it on to the press's time, applies
/// the press and writes it back; GRDB runs write transactions one at a time, so presses from two
/// phones at once are applied in turn and none is lost. Tests use the same type on an in-memory
/// database.
///
/// The TV and DVR are shared by the household, but a half-typed channel belongs to the phone that
/// typed it: TV reads and presses name the phone (its device id), so 4 on one phone and 7 on
/// another never tune 47.
public struct RemoteDatabase: HealthChecked {
    private let writer: any DatabaseWriter

    /// Opens (and migrates) the remotes' database at `url` in the data directory; `now` stamps rows it creates.
    public static func onDisk(at url: URL, now: Date = Date()) throws -> RemoteDatabase {
        try RemoteDatabase(writer: DatabaseFactory.onDisk(at: url, label: "remote"), now: now)
    }

    /// Fresh devices in memory, for tests; `now` is when they were unboxed.
    public static func inMemory(now: Date = Date()) throws -> RemoteDatabase {
        try RemoteDatabase(writer: DatabaseFactory.inMemory(label: "remote"), now: now)
    }

    /// Every migration this Pocket knows for `remote.sqlite`, oldest first: a restore refuses a backup
    /// whose database ran one that is not here (it comes from a newer Pocket).
    public static var migrationIdentifiers: [String] {
        migrator.migrations
    }

    /// Whether `remote.sqlite` can be read.
    public func checkHealth() async throws {
        try await writer.checkSchemaReadable()
    }

    /// Wraps a database, migrating it and making sure both devices have a readable row: a missing row
    /// gets the factory state, an unreadable one (an older or damaged shape) is reset with a notice.
    public init(writer: any DatabaseWriter, now: Date = Date()) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
        try writer.write { db in
            try Self.repair(Television.self, db, at: now)
            try Self.repair(DVR.self, db, at: now)
        }
    }

    // MARK: Devices

    /// The shared TV as the Screen shows it: no phone's half-typed channel.
    public func television() async throws -> TelevisionSnapshot {
        try await writer.read { db in try Self.fetch(Television.self, db, at: Date()).snapshot }
    }

    /// The TV as the phone `deviceID` sees it at `date`: the shared set with that phone's half-typed
    /// channel, if any and not older than `Television.pendingDigitLifetime`.
    public func television(deviceID: String, at date: Date) async throws -> TelevisionSnapshot {
        try await writer.read { db in
            try Self.typing(try Self.fetch(Television.self, db, at: date).snapshot, on: deviceID, at: date, db)
        }
    }

    /// The DVR as of its last change.
    public func dvr() async throws -> DVRSnapshot {
        try await writer.read { db in try Self.fetch(DVR.self, db, at: Date()).snapshot }
    }

    /// Applies TV commands pressed on the phone `deviceID` together: if one throws, none is stored. The
    /// outcome is the last command's (a list is for edits that must land together, such as the four
    /// favourites). The snapshot is that phone's view; `isStored` and the revision say whether the
    /// shared TV changed, so a first digit alone is news to nobody else.
    public func apply(_ commands: [TVCommand], deviceID: String, at date: Date) async throws -> TelevisionChange {
        try await writer.write { db in try Self.applyTV(commands, deviceID: deviceID, at: date, db) }
    }

    /// Switches the DVR on or off; the outcome is `.changed(to: .stopped)` or `.unchanged`.
    public func setDVRPower(_ on: Bool, at date: Date) async throws -> DVRChange {
        try await change(DVR.self, at: date) { dvr in
            let outcome: DVRPressOutcome = dvr.setPower(on) ? .changed(to: dvr.state) : .unchanged
            return (outcome, nil)
        }
    }

    /// Presses a transport button at `date` (the DVR first runs on to then).
    public func press(_ button: DVRButton, at date: Date) async throws -> DVRChange {
        try await change(DVR.self, at: date) { dvr in (dvr.press(button), nil) }
    }

    /// Forces a refused transport button: stops the current operation, then enters the requested state.
    public func force(_ button: DVRButton, at date: Date) async throws -> DVRChange {
        try await change(DVR.self, at: date) { dvr in (dvr.force(button), nil) }
    }

    /// The remote that was open last, so reopening the app lands there.
    public func lastRemote() async throws -> RemoteDevice {
        try await writer.read { db in
            let value = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [Self.lastRemoteKey])
            return value.flatMap(RemoteDevice.init(rawValue:)) ?? .tv
        }
    }

    /// Remembers the remote that is open now.
    public func setLastRemote(_ device: RemoteDevice) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [Self.lastRemoteKey, device.rawValue]
            )
        }
    }

    /// Puts both devices back to their factory state (and the TV remote in front).
    public func reset(at date: Date) async throws {
        try await writer.write { db in
            try Self.reset(Television.self, db, at: date)
            try Self.reset(DVR.self, db, at: date)
            try Self.forgetPendingDigits(db)
            try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [Self.lastRemoteKey])
        }
    }

    /// The TV as the phone `deviceID` sees it now.
    public func television(deviceID: String) async throws -> TelevisionSnapshot {
        try await television(deviceID: deviceID, at: Date())
    }

    /// Applies one TV command pressed on the phone `deviceID`.
    public func apply(_ command: TVCommand, deviceID: String, at date: Date) async throws -> TelevisionChange {
        try await apply([command], deviceID: deviceID, at: date)
    }
}

// MARK: - Private

private extension RemoteDatabase {
    static let lastRemoteKey = "lastRemote"

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: devices, settings") { db in
            try db.execute(sql: """
                CREATE TABLE device(
                    id TEXT PRIMARY KEY NOT NULL,   -- 'tv' or 'dvr'
                    state TEXT NOT NULL,            -- the device's JSON
                    notice TEXT,                    -- what its display says about the last press
                    revision INTEGER NOT NULL,
                    updatedAt DATETIME NOT NULL
                );
                CREATE TABLE setting(key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                """)
        }
        // The shared TV row carried the one pending digit every phone typed into; it is dropped (a
        // digit typed before an upgrade is not worth a second guess), and digits are kept per phone.
        migrator.registerMigration("v2: pending digits per phone") { db in
            try db.execute(sql: """
                CREATE TABLE pending_digit(
                    deviceID TEXT PRIMARY KEY NOT NULL,
                    digit INTEGER NOT NULL,
                    enteredAt DATETIME NOT NULL
                );
                UPDATE device SET state = json_remove(state, '$.pendingDigit') WHERE id = 'tv' AND json_valid(state);
                """)
        }
        return migrator
    }

    /// The DVR's write path (the TV's is `applyTV`): read, run on to `date`, apply, and store only when something changed.
    func change<Device: StoredDevice, Outcome: Hashable & Sendable>(
        _ type: Device.Type,
        at date: Date,
        _ press: @escaping @Sendable (inout Device) throws -> (Outcome, notice: String?)
    ) async throws -> DeviceChange<Device, Outcome> {
        try await writer.write { db in
            let stored = try Self.fetch(Device.self, db, at: date)
            let start = stored.snapshot
            var device = start.device.running(from: start.updatedAt, to: date)
            let before = device
            let (outcome, notice) = try press(&device)
            guard stored.needsWrite || device != before || notice != start.notice else {
                return DeviceChange(outcome: outcome, snapshot: start, isStored: false)
            }
            // The clock never runs backwards, so a late-arriving press cannot replay time already counted.
            let snapshot = DeviceSnapshot(device: device, notice: notice, revision: start.revision + 1, updatedAt: max(date, start.updatedAt))
            try Self.save(snapshot, db)
            return DeviceChange(outcome: outcome, snapshot: snapshot, isStored: true)
        }
    }

    static func repair<Device: StoredDevice>(_ type: Device.Type, _ db: Database, at date: Date) throws {
        let stored = try fetch(Device.self, db, at: date)
        if stored.needsWrite {
            try save(stored.snapshot, db)
        }
    }

    static func reset<Device: StoredDevice>(_ type: Device.Type, _ db: Database, at date: Date) throws {
        let stored = try fetch(Device.self, db, at: date)
        try save(DeviceSnapshot(device: Device(), notice: nil, revision: stored.snapshot.revision + 1, updatedAt: date), db)
    }
}
