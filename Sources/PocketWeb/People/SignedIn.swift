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
        guard let identity else { throw HTTPError(.unauthorized, message: "Sign in first.") }
        return identity.person.id
    }

    /// The signed-in device's id, which per-phone state is keyed by, or 401.
    public func requireDeviceID() throws -> String {
        guard let identity else { throw HTTPError(.unauthorized, message: "Sign in first.") }
        return identity.device.id
    }

    /// The signed-in person if they are an owner, else 403 naming what only owners may do.
    public func requireOwner(toDo action: String) throws -> Person {
        guard let person = identity?.person else { throw HTTPError(.unauthorized, message: "Sign in first.") }
        guard person.isOwner else { throw HTTPError(.forbidden, message: "Only an owner of this Pocket can \(action).") }
        return person
    }
}
