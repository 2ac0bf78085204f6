import Foundation
import Hummingbird
import PocketCore

/// What a stored session holds: which signed-in device it is. Everything else (person, token,
/// names) is read from the device row on each request, so signing a device out or removing a
/// person takes effect on the very next request.
public struct DeviceSession: Codable, Sendable, Equatable {
    /// The device's id in `people.sqlite`.
    public let deviceID: String

    /// A session for the device with this id.
    public init(deviceID: String) {
        self.deviceID = deviceID
    }
}

/// hummingbird-auth's session storage, kept in `people.sqlite` so sessions survive restarts.
public struct PeoplePersistDriver: PersistDriver {
    let people: PeopleDatabase

    /// Wraps the people store.
    public init(people: PeopleDatabase) {
        self.people = people
    }

    public func create<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        let stored = try await people.storeSession(key: key, value: JSONEncoder().encode(value), expires: Self.date(expires), deviceID: Self.deviceID(value), onlyIfNew: true)
        if !stored { throw PersistError.duplicate }
    }

    public func set<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        try await people.storeSession(key: key, value: JSONEncoder().encode(value), expires: Self.date(expires), deviceID: Self.deviceID(value))
    }

    public func get<Object: Codable & Sendable>(key: String, as: Object.Type) async throws -> Object? {
        try await getWithTTL(key: key, as: Object.self)?.object
    }

    public func getWithTTL<Object: Codable & Sendable>(key: String, as: Object.Type) async throws -> (object: Object, ttl: Duration?)? {
        guard let stored = try await people.loadSession(key: key) else { return nil }
        guard let object = try? JSONDecoder().decode(Object.self, from: stored.value) else { throw PersistError.invalidConversion }
        return (object, stored.expires.map { .seconds(max(0, $0.timeIntervalSinceNow)) })
    }

    public func remove(key: String) async throws {
        try await people.removeSession(key: key)
    }

    private static func date(_ duration: Duration?) -> Date? {
        duration.map { Date().addingTimeInterval(TimeInterval($0.components.seconds)) }
    }

    private static func deviceID(_ value: some Codable) -> String? {
        (value as? DeviceSession)?.deviceID
    }
}
