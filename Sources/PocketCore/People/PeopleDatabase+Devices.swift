import Foundation
import GRDB

extension PeopleDatabase {
    /// Registers a newly signed-in device of `person` and gives it its own CSRF token.
    public func addDevice(for person: PersonID, userAgent: String?, at date: Date = Date()) async throws -> Device {
        let device = Device(
            id: RandomToken.make(), person: person, name: DeviceName.from(userAgent: userAgent),
            csrfToken: RandomToken.make(), firstSeen: date, lastSeen: date
        )
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO device(id, personID, name, csrfToken, firstSeen, lastSeen) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [device.id, person.rawValue, device.name, device.csrfToken, date, date]
            )
        }
        return device
    }

    /// The device and its person, or nil once it has been signed out or its person removed.
    public func signedIn(deviceID: String) async throws -> (device: Device, person: Person)? {
        guard let cache else { return try await readSignedIn(deviceID: deviceID) }
        return try await cache.signedIn(deviceID) { try await readSignedIn(deviceID: deviceID) }
    }

    private func readSignedIn(deviceID: String) async throws -> (device: Device, person: Person)? {
        try await writer.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT device.*, person.name AS personName, person.isOwner, person.createdAt
                FROM device JOIN person ON person.id = device.personID WHERE device.id = ?
                """, arguments: [deviceID])
            return row.map { row in
                let device = Self.device(row)
                return (device, Person(id: device.person, name: row["personName"], isOwner: row["isOwner"], createdAt: row["createdAt"]))
            }
        }
    }

    /// Notes that the device was used now; writes at most once a minute per device.
    public func touch(deviceID: String, at date: Date = Date()) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE device SET lastSeen = ? WHERE id = ? AND lastSeen < ?",
                arguments: [date, deviceID, date.addingTimeInterval(-60)]
            )
        }
    }

    /// The person's signed-in devices, most recently used first.
    public func devices(of person: PersonID) async throws -> [Device] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM device WHERE personID = ? ORDER BY lastSeen DESC, firstSeen DESC", arguments: [person.rawValue])
                .map(Self.device)
        }
    }

    /// Signs out one of `person`'s devices (its stored sessions go too), effective on its next
    /// request. Returns false if `person` has no such device, so no one can sign out another's.
    @discardableResult
    public func removeDevice(id: String, of person: PersonID) async throws -> Bool {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM device WHERE id = ? AND personID = ?", arguments: [id, person.rawValue])
            return db.changesCount > 0
        }
    }

    static func device(_ row: Row) -> Device {
        Device(
            id: row["id"], person: PersonID(rawValue: row["personID"]), name: row["name"], csrfToken: row["csrfToken"],
            firstSeen: row["firstSeen"], lastSeen: row["lastSeen"]
        )
    }
}
