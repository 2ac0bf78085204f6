import Hummingbird

/// Every route of sign-in, setup, pairing and Settings, each declared once, at the root;
/// `PeoplePages` and `HouseholdDataPages` give each its handler, and links are built from the
/// same values.
public enum PeopleRoute {
    static let prefix = ""

    /// The sign-in page and its form.
    static let signInPage = Route(.get, "signin", under: prefix)
    static let signIn = Route(.post, "signin", under: prefix)
    /// Signs this device out.
    static let signOut = Route(.post, "signout", under: prefix)
    /// The one-time setup link of a new Pocket, and its form.
    static let setupPage = Route(.get, "setup/:token", String.self, under: prefix)
    static let setup = Route(.post, "setup/:token", String.self, under: prefix)
    /// Typing a short pairing code on the phone.
    static let joinPage = Route(.get, "join", under: prefix)
    static let join = Route(.post, "join", under: prefix)
    /// The pairing link a QR code carries, and its form.
    static let joinLinkPage = Route(.get, "join/:code", String.self, under: prefix)
    static let joinLink = Route(.post, "join/:code", String.self, under: prefix)
    /// The person's settings: devices, pairing, people (owners).
    static let settings = Route(.get, "settings", under: prefix)
    /// Makes a pairing code and shows its QR code.
    static let pair = Route(.post, "settings/pair", under: prefix)
    /// Signs one of the person's devices out.
    static let signOutDevice = Route(.post, "settings/devices/:id/signout", String.self, under: prefix)
    /// Adds a person (owners).
    static let addPerson = Route(.post, "settings/people", under: prefix)
    /// Asks whether to remove a person (owners): the no-JavaScript path of Settings' alert.
    static let confirmRemovePerson = Route(.get, "settings/people/:id/remove", Int64.self, under: prefix)
    /// Removes a person (owners).
    static let removePerson = Route(.post, "settings/people/:id/remove", Int64.self, under: prefix)
    /// Changes the signed-in person's own password.
    static let changePassword = Route(.post, "settings/password", under: prefix)
    /// Downloads the signed-in person's own data as JSON.
    static let exportData = Route(.get, "settings/export", under: prefix)
    /// Imports a person's exported data (owners).
    static let importData = Route(.post, "settings/import", under: prefix)
    /// Downloads the newest backup archive (owners).
    static let latestBackup = Route(.get, "settings/backups/latest", under: prefix)

    /// Where a phone pairs, for the command line's printout: the link a QR code carries for
    /// `code`, and the page a short code is typed into.
    public static func pairingPaths(code: String) -> (link: String, typing: String) {
        (joinLink.href(code), join.href())
    }
}
