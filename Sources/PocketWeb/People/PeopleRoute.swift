import Hummingbird

/// Every route of sign-in, setup, pairing and Settings: registers handlers and builds links.
public enum PeopleRoute: AppRoute, Sendable, Equatable {
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

    /// Each path of sign-in, setup, pairing and Settings, spelled once, at the root.
    enum Path: String, RoutePath {
        case signIn = "signin"
        case signOut = "signout"
        case setup = "setup/:token"
        case join
        case joinLink = "join/:code"
        case settings
        case pair = "settings/pair"
        case signOutDevice = "settings/devices/:id/signout"
        case addPerson = "settings/people"
        case removePerson = "settings/people/:id/remove"
        case changePassword = "settings/password"
        case exportData = "settings/export"
        case importData = "settings/import"
        case latestBackup = "settings/backups/latest"
    }

    static let prefix = ""

    var path: Path {
        switch self {
        case .signIn: .signIn
        case .signOut: .signOut
        case .setup: .setup
        case .join: .join
        case .joinLink: .joinLink
        case .settings: .settings
        case .pair: .pair
        case .signOutDevice: .signOutDevice
        case .addPerson: .addPerson
        case .removePerson: .removePerson
        case .changePassword: .changePassword
        case .exportData: .exportData
        case .importData: .importData
        case .latestBackup: .latestBackup
        }
    }

    var parameters: [String] {
        switch self {
        case .setup(let token): [token]
        case .joinLink(let code): [code]
        case .signOutDevice(let id): [id]
        case .removePerson(let id): [String(id)]
        default: []
        }
    }

    /// Where a phone pairs, for the command line's printout: the link a QR code carries for
    /// `code`, and the page a short code is typed into.
    public static func pairingPaths(code: String) -> (link: String, typing: String) {
        (joinLink(code).href, join.href)
    }
}
