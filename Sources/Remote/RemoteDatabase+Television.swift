import Foundation
import GRDB

// The TV's write path: the set is shared, but each phone's half-typed channel is its own row in
// `pending_digit`, loaded into the `Television` value for that phone's press and saved back after.

extension RemoteDatabase {
    /// Reads the set and the phone's pending digit, applies the commands, and stores the shared set
    /// (only when it changed, so the revision moves only then) and the phone's digit, in one transaction.
    static func applyTV(_ commands: [TVCommand], deviceID: String, at date: Date, _ db: Database) throws -> TelevisionChange {
        let stored = try fetch(Television.self, db, at: date)
        let start = stored.snapshot
        var television = try typing(start, on: deviceID, at: date, db).device
        let typedBefore = television.pendingDigit
        var outcome = TVOutcome.unchanged
        for command in commands {
            outcome = try television.apply(command)
        }
        let notice = outcome.hint

        if television.isOn != start.device.isOn || !television.isOn {
            // Switching the set off (or on) abandons every phone's half-typed channel, not only this one's.
            try forgetPendingDigits(db)
        } else if television.pendingDigit != typedBefore {
            try savePendingDigit(television.pendingDigit, deviceID: deviceID, at: date, db)
            television.pendingDigitEnteredAt = television.pendingDigit == nil ? nil : date
        }

        let shared = television.shared
        guard stored.needsWrite || shared != start.device || notice != start.notice else {
            let view = DeviceSnapshot(device: television, notice: start.notice, revision: start.revision, updatedAt: start.updatedAt)
            return TelevisionChange(outcome: outcome, snapshot: view, isStored: false)
        }
        // The clock never runs backwards, so a late-arriving press cannot replay time already counted.
        let snapshot = DeviceSnapshot(device: shared, notice: notice, revision: start.revision + 1, updatedAt: max(date, start.updatedAt))
        try save(snapshot, db)
        let view = DeviceSnapshot(device: television, notice: notice, revision: snapshot.revision, updatedAt: snapshot.updatedAt)
        return TelevisionChange(outcome: outcome, snapshot: view, isStored: true)
    }

    /// The shared set as `deviceID` sees it at `date`: with that phone's half-typed channel while the
    /// set is on and the digit is not older than `Television.pendingDigitLifetime`.
    static func typing(_ snapshot: TelevisionSnapshot, on deviceID: String, at date: Date, _ db: Database) throws -> TelevisionSnapshot {
        guard snapshot.device.isOn, let pending = try pendingDigit(deviceID: deviceID, at: date, db) else { return snapshot }
        var television = snapshot.device
        television.pendingDigit = pending.digit
        television.pendingDigitEnteredAt = pending.enteredAt
        return DeviceSnapshot(device: television, notice: snapshot.notice, revision: snapshot.revision, updatedAt: snapshot.updatedAt)
    }

    /// Drops every phone's half-typed channel.
    static func forgetPendingDigits(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM pending_digit")
    }
}

// MARK: - Private

private extension RemoteDatabase {
    /// The phone's pending digit at `date`; a hand-edited value that is not a digit counts as none rather
    /// than failing the press. One older than the lifetime is gone, as on a real remote: left as it is,
    /// a lone 4 would wait forever and turn tomorrow's 2 into channel 42. A digit stamped after `date`
    /// (a press that arrived late) still counts, because it was typed just now.
    static func pendingDigit(deviceID: String, at date: Date, _ db: Database) throws -> (digit: Int, enteredAt: Date)? {
        guard let row = try Row.fetchOne(db, sql: "SELECT digit, enteredAt FROM pending_digit WHERE deviceID = ?", arguments: [deviceID]) else {
            return nil
        }
        let value: DatabaseValue = row["digit"]
        let stamp: DatabaseValue = row["enteredAt"]
        guard let digit = Int.fromDatabaseValue(value), (0...9).contains(digit), let enteredAt = Date.fromDatabaseValue(stamp) else {
            return nil
        }
        guard date.timeIntervalSince(enteredAt) <= Television.pendingDigitLifetime else { return nil }
        return (digit, enteredAt)
    }

    static func savePendingDigit(_ digit: Int?, deviceID: String, at date: Date, _ db: Database) throws {
        guard let digit else {
            try db.execute(sql: "DELETE FROM pending_digit WHERE deviceID = ?", arguments: [deviceID])
            return
        }
        try db.execute(
            sql: """
                INSERT INTO pending_digit(deviceID, digit, enteredAt) VALUES (?, ?, ?)
                ON CONFLICT(deviceID) DO UPDATE SET digit = excluded.digit, enteredAt = excluded.enteredAt
                """,
            arguments: [deviceID, digit, date]
        )
    }
}
