import PocketCore

extension SettingsPage {
    /// Settings: you, your devices, your password and (owners) the household.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var body: HTML {
            """
            \(unwrap: model.notice, { "<p class=\"people-notice\" id=\"settings-notice\" role=\"status\">\($0)</p>" })
            \(PeopleForm.problemLine(model.problem, id: "settings-problem"))
            <section class="list-section" aria-labelledby="settings-you-h">
            <h2 class="list-section__header" id="settings-you-h">Signed in as \(model.personName)\(if: model.isOwner, " (owner)")</h2>
            <div class="list">
            <form class="cell" method="post" action="\(model.pairAction)" id="settings-pair">\(csrf)<div class="cell__main"><span class="cell__text"><span class="cell__title">Pair a phone</span><span class="cell__subtitle">A QR code that signs a phone in as you</span></span><button class="button" type="submit" id="settings-pair-button">Pair a Phone</button></div></form>
            <form class="cell" method="post" action="\(model.signOutAction)" id="settings-signout" data-signout>\(csrf)<div class="cell__main"><button class="button button--destructive" type="submit" id="settings-signout-button">Sign Out of This Device</button></div></form>
            </div>
            </section>
            <section class="list-section" aria-labelledby="settings-devices-h">
            <h2 class="list-section__header" id="settings-devices-h">Your Devices</h2>
            <ul class="list" role="list" id="settings-devices">
            \(each: model.devices, device)
            \(unwrap: model.moreDevices, { "<li class=\"cell\"><a class=\"cell__main\" href=\"\($0.href)\" id=\"settings-devices-all\"><span class=\"cell__text\"><span class=\"cell__title\">\($0.label)</span></span><span class=\"cell__chevron\" aria-hidden=\"true\"></span></a></li>" })
            </ul>
            <p class="list-section__footer">Signing a device out takes effect on its next request. Signing in on a new device signs out the one used longest ago once you have \(PeopleDatabase.devicesPerPerson).</p>
            </section>
            \(signOutWarning)
            <section class="list-section" aria-labelledby="settings-password-h">
            <h2 class="list-section__header" id="settings-password-h">Password</h2>
            <form class="list" method="post" action="\(model.passwordAction)" id="settings-password">\(csrf)
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="password-current">Current password</label><input class="text-field" id="password-current" type="password" name="current" autocomplete="current-password" required maxlength="200"></div></div>
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="password-new">New password (8 characters or more)</label><input class="text-field" id="password-new" type="password" name="password" autocomplete="new-password" required minlength="8" maxlength="72"></div></div>
            <div class="cell"><div class="cell__main"><button class="button" type="submit">Change Password</button></div></div>
            </form>
            <p class="list-section__footer">Changing it signs out your other devices.</p>
            </section>
            \(unwrap: model.data, { SettingsData.Fragment(model: $0).html })
            \(if: model.isOwner, household)
            \(unwrap: model.certificate, { CertificateSummary.Fragment(model: $0).html })
            """
        }

        private var csrf: HTML { Components.csrf(pageContext) }

        /// Asked before signing this device out while changes made here have not reached Pocket
        /// (js/offline/signout.js opens it and fills in the count): signing out clears them.
        private var signOutWarning: HTML {
            """
            <dialog class="alert" id="signout-pending" aria-labelledby="signout-pending-title" aria-describedby="signout-pending-message">
            <h2 class="alert__title" id="signout-pending-title">Changes Not Sent</h2>
            <p class="alert__message" id="signout-pending-message"><span data-count>Some changes</span> made on this device have not reached Pocket yet. Signing out now loses them.</p>
            <p class="alert__message" id="signout-pending-status" role="status"></p>
            <div class="alert__actions">
            <button type="button" class="alert__button" data-signout-send>Send Them First</button>
            <button type="button" class="alert__button alert__button--destructive" data-signout-anyway>Sign Out and Lose Them</button>
            <button type="button" class="alert__button alert__button--cancel" commandfor="signout-pending" command="close">Cancel</button>
            </div>
            </dialog>
            """
        }

        private func device(_ row: Model.DeviceRow) -> HTML {
            """
            <li class="cell"><form class="cell__main" method="post" action="\(row.signOutAction)"\(flag: "data-signout", row.isThisDevice)>\(csrf)<span class="cell__text"><span class="cell__title">\(row.name)\(if: row.isThisDevice, " (this device)")</span><span class="cell__subtitle">\(row.detail)</span></span><button class="button button--destructive" type="submit">Sign Out</button></form></li>

            """
        }

        private func person(_ row: Model.PersonRow) -> HTML {
            """
            <li class="cell"><div class="cell__main"><span class="cell__text"><span class="cell__title">\(row.name)</span><span class="cell__subtitle">\(row.role)</span></span>
            \(if: !row.isSelf, """
            <form method="post" action="\(row.pairAction)">\(csrf)<input type="hidden" name="person" value="\(String(row.id))"><button class="button button--plain" type="submit">Pair</button></form>
            <a class="button button--destructive" href="\(row.confirmRemoveHref)" data-dialog="\(row.removal.id)" aria-label="Remove \(row.name)">Remove</a>
            """)</div></li>

            """
        }

        private var household: HTML {
            """
            <section class="list-section" aria-labelledby="settings-people-h">
            <h2 class="list-section__header" id="settings-people-h">People</h2>
            <ul class="list" role="list" id="settings-people">
            \(each: model.people, person)
            </ul>
            \(each: model.people.filter { !$0.isSelf }, { Components.alertDialog($0.removal, pageContext: pageContext) })
            <form class="list" method="post" action="\(model.addPersonAction)" id="settings-add-person">\(csrf)
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="person-name">Name</label><input class="text-field" id="person-name" type="text" name="name" required maxlength="40" autocomplete="off"></div></div>
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="person-password">Password (8 characters or more)</label><input class="text-field" id="person-password" type="password" name="password" required minlength="8" maxlength="72" autocomplete="new-password"></div></div>
            <div class="cell"><label class="cell__main"><span class="cell__text"><span class="cell__title">Owner</span></span><input class="switch" type="checkbox" role="switch" name="owner"></label></div>
            <div class="cell"><div class="cell__main"><button class="button" type="submit" id="person-add-button">Add Person</button></div></div>
            </form>
            <p class="list-section__footer">Each person has their own games, favourites, converter and reading. The TV and DVR are shared.</p>
            </section>
            """
        }
    }
}
