import Foundation
import GRDB

extension PeopleDatabase {
    /// How many signed-in devices a person keeps: signing in on one more signs out the one used
    /// longest ago, so repeated sign-ins cannot grow the list (and the Settings page) without end.
    public static let devicesPerPerson = 20

    /// Registers a newly signed-in device of `person` and gives it its own CSRF token. Devices of
    /// the person beyond `devicesPerPerson`, least recently used first, are signed out.
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
            try db.execute(
                sql: """
                    DELETE FROM device WHERE personID = ? AND id NOT IN (
                        SELECT id FROM device WHERE personID = ? ORDER BY lastSeen DESC, firstSeen DESC LIMIT ?)
                    """,
                arguments: [person.rawValue, person.rawValue, Self.devicesPerPerson])
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
            return try row.map { row in
                let device = try Self.device(row)
                return (device, Person(id: device.person, name: try row.decode(forColumn: "personName"), isOwner: try row.decode(forColumn: "isOwner"),
                                       createdAt: try row.decode(forColumn: "createdAt")))
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

    /// The person's signed-in devices, most recently used first: at most `limit` of them, and
    /// how many there are in all.
    public func devices(of person: PersonID, limit: Int = devicesPerPerson) async throws -> (devices: [Device], total: Int) {
        try await writer.read { db in
            let devices = try Row.fetchAll(
                db, sql: "SELECT * FROM device WHERE personID = ? ORDER BY lastSeen DESC, firstSeen DESC LIMIT ?",
                arguments: [person.rawValue, max(0, limit)]
            ).map(Self.device)
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM device WHERE personID = ?", arguments: [person.rawValue]) ?? 0
            return (devices, total)
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

    static func device(_ row: Row) throws -> Device {
        Device(
            id: try row.decode(forColumn: "id"), person: PersonID(rawValue: try row.decode(forColumn: "personID")),
            name: try row.decode(forColumn: "name"), csrfToken: try row.decode(forColumn: "csrfToken"),
            firstSeen: try row.decode(forColumn: "firstSeen"), lastSeen: try row.decode(forColumn: "lastSeen")
        )
    }
}
