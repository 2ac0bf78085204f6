import Hummingbird
import PocketCore

/// Who a request comes from: a signed-in device and its person (the request context's identity).
public struct SignedIn: Sendable {
    /// The person the device is signed in as.
    public let person: Person
    /// The device (its id keys per-phone state such as a half-typed channel).
    public let device: Device
}

extension PocketRequestContext {
    /// The signed-in person, or 401.
    public func requirePerson() throws -> PersonID {
        // INTERIM until sign-in lands: no identity means the single-user owner.
        identity?.person.id ?? .firstOwner
    }

    /// The signed-in device's id, which per-phone state is keyed by, or 401.
    public func requireDeviceID() throws -> String {
        // INTERIM until sign-in lands.
        identity?.device.id ?? "interim-device"
    }

    /// The signed-in person if they are an owner, else 403 naming what only owners may do.
    public func requireOwner(toDo action: String) throws -> Person {
        guard let person = identity?.person else { throw HTTPError(.unauthorized, message: "Sign in first.") }
        guard person.isOwner else { throw HTTPError(.forbidden, message: "Only an owner of this Pocket can \(action).") }
        return person
    }
}
