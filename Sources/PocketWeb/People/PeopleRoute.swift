import Hummingbird

/// Every route of sign-in, setup, pairing and Settings: registers handlers and builds links.
public enum PeopleRoute: Sendable, Equatable {
    /// The sign-in page and its form.
    case signIn
    /// Signs this device out.
    case signOut
    /// The one-time setup link of a new Pocket.
    case setup(String)
    /// Typing a short pairing code on the phone.
    case join
    /// The pairing link a QR code carries.
    case joinLink(String)
    /// The person's settings: devices, pairing, people (owners).
    case settings
    /// Makes a pairing code and shows its QR code.
    case pair
    /// Signs one of the person's devices out.
    case signOutDevice(String)
    /// Adds a person (owners).
    case addPerson
    /// Removes a person (owners).
    case removePerson(Int64)
    /// Changes the signed-in person's own password.
    case changePassword
    /// Downloads the signed-in person's own data as JSON.
    case exportData
    /// Imports a person's exported data (owners).
    case importData
    /// Downloads the newest backup archive (owners).
    case latestBackup

    /// The pattern registered with the router.
    var pattern: RouterPath {
        switch self {
        case .signIn: "/signin"
        case .signOut: "/signout"
        case .setup: "/setup/:token"
        case .join: "/join"
        case .joinLink: "/join/:code"
        case .settings: "/settings"
        case .pair: "/settings/pair"
        case .signOutDevice: "/settings/devices/:id/signout"
        case .addPerson: "/settings/people"
        case .removePerson: "/settings/people/:id/remove"
        case .changePassword: "/settings/password"
        case .exportData: "/settings/export"
        case .importData: "/settings/import"
        case .latestBackup: "/settings/backups/latest"
        }
    }

    /// The link to this route.
    public var href: String {
        switch self {
        case .signIn: "/signin"
        case .signOut: "/signout"
        case .setup(let token): "/setup/\(token)"
        case .join: "/join"
        case .joinLink(let code): "/join/\(code)"
        case .settings: "/settings"
        case .pair: "/settings/pair"
        case .signOutDevice(let id): "/settings/devices/\(id)/signout"
        case .addPerson: "/settings/people"
        case .removePerson(let id): "/settings/people/\(id)/remove"
        case .changePassword: "/settings/password"
        case .exportData: "/settings/export"
        case .importData: "/settings/import"
        case .latestBackup: "/settings/backups/latest"
        }
    }
}
