/// What can go wrong with people, passwords and pairing, in words a person can act on.
public enum PeopleError: Error, Equatable, CustomStringConvertible {
    /// The name is empty, too long or has characters a name cannot have.
    case invalidName(String)
    /// Someone already has that name.
    case nameTaken(String)
    /// No one has that name.
    case unknownPerson(String)
    /// The password is too short, too long for bcrypt, or has a NUL.
    case invalidPassword(String)
    /// Removing or demoting this person would leave the Pocket without an owner.
    case lastOwner(String)
    /// The pairing code is unknown, used or expired.
    case pairingCodeInvalid
    /// The people database could not be read or written.
    case storage(String)
    /// The one-time setup link was used after someone was set up.
    case alreadySetUp

    public var description: String {
        switch self {
        case .invalidName(let why): "That name can’t be used: \(why)."
        case .nameTaken(let name): "Someone is already called “\(name)”: choose another name."
        case .unknownPerson(let name): "There is no one called “\(name)”."
        case .invalidPassword(let why): "That password can’t be used: \(why)."
        case .lastOwner(let name): "\(name) is the only owner: make someone else an owner first."
        case .pairingCodeInvalid: "That pairing code is not valid: it may have expired or been used. Make a new one."
        case .storage(let detail): "The people database could not be used: \(detail)"
        case .alreadySetUp: "This Pocket is already set up: sign in instead."
        }
    }
}
