import Foundation
import PocketCore

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
            /// What Remove asks first: an alert in the page, or its own page without JavaScript.
            let removal: Confirmation
            let confirmRemoveHref: String
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
                ? ("Show all \(totalDevices) devices", PeopleRoute.settings.href() + "?devices=all#settings-devices") : nil
            self.devices = devices.map { device in
                DeviceRow(
                    name: device.name,
                    detail: "Signed in \(Self.format(device.firstSeen)) · last used \(Self.format(device.lastSeen))",
                    isThisDevice: device.id == thisDevice,
                    signOutAction: PeopleRoute.signOutDevice.href(device.id)
                )
            }
            self.people = person.isOwner ? people.map { other in
                PersonRow(name: other.name, role: other.isOwner ? "Owner" : "Member", isSelf: other.id == person.id,
                          removal: Self.removal(of: other), confirmRemoveHref: PeopleRoute.confirmRemovePerson.href(other.id.rawValue),
                          pairAction: PeopleRoute.pair.href(), id: other.id.rawValue)
            } : []
            pairAction = PeopleRoute.pair.href()
            addPersonAction = PeopleRoute.addPerson.href()
            passwordAction = PeopleRoute.changePassword.href()
            signOutAction = PeopleRoute.signOut.href()
            self.notice = notice
            self.problem = problem
            self.certificate = certificate
            self.data = data
        }

        /// Removing someone deletes what they kept in every app, which no one can export for them
        /// afterwards, so Settings asks first and says what goes.
        static func removal(of person: Person) -> Confirmation {
            Confirmation(
                id: "remove-person-\(person.id.rawValue)",
                title: "Remove \(person.name)?",
                message: "Their devices are signed out, and everything they keep in Pocket is deleted: Plates games, Murals stars and visits, "
                    + "Conference bookmarks and the converter’s screen. Only backups made before keep it.",
                action: PeopleRoute.removePerson.href(person.id.rawValue),
                confirmLabel: "Remove",
                destructive: true,
                cancelHref: PeopleRoute.settings.href()
            )
        }

        static func format(_ date: Date) -> String {
            date.formatted(Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: .current).locale(Locale(identifier: "en_GB")))
        }
    }
}
