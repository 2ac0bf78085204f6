import Foundation
import PocketCore

/// The sign-in page.
enum SignInPage {
    struct Model: Sendable {
        /// Where to go after signing in (a local path).
        let next: String
        /// The name typed last time, kept after a wrong password.
        let name: String
        /// One line saying what went wrong, if anything.
        let problem: String?
        let action = PeopleRoute.signIn.href
        let joinHref = PeopleRoute.join.href
    }

    /// Only a local path may follow sign-in, so the form cannot send anyone to another site.
    static func safeNext(_ raw: String?) -> String {
        let next = ReturnAddress.within("/", raw, otherwise: "/")
        // Signing in again or out straight after signing in would undo it.
        return next.hasPrefix(PeopleRoute.signIn.href) || next.hasPrefix(PeopleRoute.signOut.href) ? "/" : next
    }
}

/// The one-time setup page of a new Pocket.
enum SetupPage {
    struct Model: Sendable {
        let action: String
        let name: String
        let problem: String?
    }
}

/// What a new Pocket shows at every address but its setup link.
enum NotSetUp {
    struct Model: Sendable {
        let message = "This Pocket has no owner yet. Open the setup link that “pocket serve” printed when it started, or add the owner with “pocket users add NAME --owner”."
    }
}

/// Pairing, on the phone: type the short code, or confirm the link's person.
enum JoinPage {
    struct Model: Sendable {
        let action: String
        /// Whose phone this becomes (a valid link), or nil on the type-a-code form.
        let personName: String?
        let problem: String?
        let isCodeForm: Bool
    }
}

/// The pairing code just made, on the signed-in screen.
enum PairPage {
    struct Model: Sendable {
        let personName: String
        let link: String
        let otherLinks: [String]
        let shortCode: String
        /// The QR code as an SVG data URL (an image, so no markup is inserted into the page).
        let qrImage: String
        let expiresAt: String
        let joinHref: String
    }
}

/// Settings: the person's devices, pairing, password, and (owners) the household.
enum SettingsPage {
    struct Model: Sendable {
        struct DeviceRow: Sendable {
            let name: String
            let detail: String
            let isThisDevice: Bool
            let signOutAction: String
        }

        struct PersonRow: Sendable {
            let name: String
            let role: String
            let isSelf: Bool
            let removeAction: String
            let pairAction: String
            let id: Int64
        }

        let personName: String
        let isOwner: Bool
        /// The devices shown: the most recently used first, `devicesShown` of them unless all were asked for.
        let devices: [DeviceRow]
        /// "Show all 14 devices", when some are not shown.
        let moreDevices: (label: String, href: String)?
        let people: [PersonRow]
        let pairAction: String
        let addPersonAction: String
        let passwordAction: String
        let signOutAction: String
        let notice: String?
        let problem: String?
        /// Pocket's own HTTPS certificate, for owners when Pocket has its own CA.
        let certificate: CertificateSummary.Model?
        /// Export, import and backups.
        let data: SettingsData.Model?

        /// How many devices Settings lists before "Show all".
        static let devicesShown = 5

        init(person: Person, thisDevice: String, devices: [Device], totalDevices: Int, people: [Person], notice: String?, problem: String?,
             certificate: CertificateSummary.Model? = nil, data: SettingsData.Model? = nil) {
            personName = person.name
            isOwner = person.isOwner
            moreDevices = totalDevices > devices.count
                ? ("Show all \(totalDevices) devices", PeopleRoute.settings.href + "?devices=all#settings-devices") : nil
            self.devices = devices.map { device in
                DeviceRow(
                    name: device.name,
                    detail: "Signed in \(Self.format(device.firstSeen)) · last used \(Self.format(device.lastSeen))",
                    isThisDevice: device.id == thisDevice,
                    signOutAction: PeopleRoute.signOutDevice(device.id).href
                )
            }
            self.people = person.isOwner ? people.map { other in
                PersonRow(name: other.name, role: other.isOwner ? "Owner" : "Member", isSelf: other.id == person.id,
                          removeAction: PeopleRoute.removePerson(other.id.rawValue).href, pairAction: PeopleRoute.pair.href, id: other.id.rawValue)
            } : []
            pairAction = PeopleRoute.pair.href
            addPersonAction = PeopleRoute.addPerson.href
            passwordAction = PeopleRoute.changePassword.href
            signOutAction = PeopleRoute.signOut.href
            self.notice = notice
            self.problem = problem
            self.certificate = certificate
            self.data = data
        }

        static func format(_ date: Date) -> String {
            date.formatted(Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: .current).locale(Locale(identifier: "en_GB")))
        }
    }
}
