import Foundation
import PocketCore

/// The part of Settings about data: everyone's *Export My Data*, and for owners importing an
/// export as a person and the latest backup.
enum SettingsData {
    struct Model: Sendable {
        /// The latest backup, for owners: when, how large, and its download link.
        struct Backup: Sendable {
            let detail: String
            let href: String
        }

        struct Target: Sendable {
            let id: Int64
            let name: String
        }

        let exportHref: String
        let isOwner: Bool
        let importAction: String
        let importTargets: [Target]
        let backup: Backup?
        /// Whether this server makes daily backups at all.
        let backupsOn: Bool
        /// For owners, when the daily backup has failed since it last succeeded: when, and why.
        let backupFailure: String?

        init(person: Person, people: [Person], csrfToken: String, latestBackup: BackupShelf.Archive?, backupsOn: Bool, backupFailure: BackupHealth.Failure? = nil) {
            exportHref = PeopleRoute.exportData.href()
            isOwner = person.isOwner
            // A multipart body is read after the CSRF check, so its token travels in the address.
            importAction = PeopleRoute.importData.href() + "?\(CSRFMiddleware.fieldName)=\(ConferenceRoute.queryValue(csrfToken))"
            importTargets = person.isOwner ? people.map { Target(id: $0.id.rawValue, name: $0.name) } : []
            backup = person.isOwner ? latestBackup.map {
                Backup(detail: "\(SettingsPage.Model.format($0.date)) · \(ConferenceFormat.bytes($0.size))", href: PeopleRoute.latestBackup.href())
            } : nil
            self.backupsOn = backupsOn
            self.backupFailure = person.isOwner ? backupFailure.map { "\(SettingsPage.Model.format(ChangeTime.date($0.at))): \($0.problem)" } : nil
        }
    }
}
