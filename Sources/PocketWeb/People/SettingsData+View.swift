import PocketCore

extension SettingsData {
    /// The section itself: Settings shows it on every person's page.
    struct Fragment: FragmentView {
        let model: Model

        var html: HTML {
            """
            <section class="list-section" aria-labelledby="settings-data-h">
            <h2 class="list-section__header" id="settings-data-h">Your Data</h2>
            <div class="list">
            <div class="cell"><a class="cell__main" href="\(model.exportHref)" download id="settings-export"><span class="cell__text"><span class="cell__title">Export My Data</span><span class="cell__subtitle">Your games, trips, murals, converter and talks as one JSON file</span></span><span class="cell__chevron" aria-hidden="true"></span></a></div>
            </div>
            <p class="list-section__footer">An owner of another Pocket can import the file as you (moving house, a second home).</p>
            </section>
            \(if: model.isOwner, owners)
            """
        }

        private var owners: HTML {
            """
            <section class="list-section" aria-labelledby="settings-backup-h">
            <h2 class="list-section__header" id="settings-backup-h">Backups</h2>
            <div class="list">
            \(unwrap: model.backupFailure, { failure in
                "<div class=\"cell\" role=\"alert\"><div class=\"cell__main\"><span class=\"cell__text\"><span class=\"cell__title\" id=\"settings-backup-failed\">The Daily Backup Failed</span><span class=\"cell__subtitle\">\(failure)</span></span></div></div>"
            })
            \(unwrap: model.backup, { backup in
                "<div class=\"cell\"><a class=\"cell__main\" href=\"\(backup.href)\" download id=\"settings-backup-latest\"><span class=\"cell__text\"><span class=\"cell__title\">Latest Backup</span><span class=\"cell__subtitle\">\(backup.detail)</span></span><span class=\"cell__chevron\" aria-hidden=\"true\"></span></a></div>"
            }, else: "<div class=\"cell\"><div class=\"cell__main\"><span class=\"cell__text\"><span class=\"cell__title\" id=\"settings-backup-none\">No backup yet</span></span></div></div>")
            </div>
            <p class="list-section__footer">\(model.backupsOn ? "Pocket makes a backup every day and keeps the last 7 daily and 4 weekly. Keep a copy on another disk." : "Daily backups are off (--no-backups); pocket backup makes one.")</p>
            </section>
            <section class="list-section" aria-labelledby="settings-import-h">
            <h2 class="list-section__header" id="settings-import-h">Import a Person’s Data</h2>
            <form class="list" method="post" action="\(model.importAction)" enctype="multipart/form-data" id="settings-import">
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="import-file">An export file (.json)</label><input class="people-file" id="import-file" type="file" name="file" accept=".json,application/json" required></div></div>
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="import-person">Import as</label><select class="text-field" id="import-person" name="person"><option value="new">A new person</option>\(each: model.importTargets, target)</select></div></div>
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="import-name">New person’s name</label><input class="text-field" id="import-name" type="text" name="name" maxlength="40" autocomplete="off"></div></div>
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="import-password">New person’s password (8 characters or more)</label><input class="text-field" id="import-password" type="password" name="password" maxlength="72" autocomplete="new-password"></div></div>
            <div class="cell"><div class="cell__main"><button class="button" type="submit" id="import-button">Import</button></div></div>
            </form>
            <p class="list-section__footer">An import adds to that person only; no one else’s data is touched.</p>
            </section>
            """
        }

        private func target(_ target: Model.Target) -> HTML {
            "<option value=\"\(String(target.id))\">\(target.name)</option>"
        }
    }
}
