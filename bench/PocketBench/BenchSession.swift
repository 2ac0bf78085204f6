import Foundation
import PocketCore
import PocketWeb

/// A signed-in owner for benchmarks that request pages: an in-memory people store with one
/// device and its stored session, and the cookie that presents it, so the measured requests go
/// through the same sign-in checks as a phone's.
struct BenchSession {
    let people: WebPeople
    let cookie: String

    static func make() async throws -> BenchSession {
        let store = try PeopleDatabase.inMemory()
        let owner = try await store.addPerson(name: "Bench", password: "bench password", isOwner: true)
        let device = try await store.addDevice(for: owner.id, userAgent: "PocketBench")
        let key = RandomToken.make()
        try await store.storeSession(key: WebPeople.sessionKeyPrefix + key, value: JSONEncoder().encode(DeviceSession(deviceID: device.id)), expires: nil, deviceID: device.id)
        return BenchSession(people: WebPeople(store: store), cookie: "\(WebPeople.cookieName)=\(key)")
    }
}
