import PocketCore
// The people pages' views, beside their models in People+Models.swift.

/// A one-line problem (`role="alert"`) under a form's header, when there is one.
private func problemLine(_ problem: String?, id: String) -> HTML {
    "\(unwrap: problem, { "<p class=\"people-problem\" id=\"\(id)\" role=\"alert\">\($0)</p>" })"
}

extension SignInPage {
    /// The sign-in form.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var body: HTML {
            """
            <form class="list-section" method="post" action="\(model.action)" id="signin-form" data-no-swap aria-labelledby="signin-h">
            <h2 class="list-section__header" id="signin-h">Sign in to Pocket</h2>
            \(Components.csrf(pageContext))
            <input type="hidden" name="next" value="\(model.next)">
            \(problemLine(model.problem, id: "signin-problem"))
            <div class="list">
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="signin-name">Name</label><input class="text-field" id="signin-name" type="text" name="name" value="\(model.name)" autocomplete="username" autocapitalize="none" required maxlength="40"></div></div>
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="signin-password">Password</label><input class="text-field" id="signin-password" type="password" name="password" autocomplete="current-password" required maxlength="200"></div></div>
            <div class="cell"><div class="cell__main"><button class="button button--large" type="submit" id="signin-button">Sign In</button></div></div>
            </div>
            <p class="list-section__footer">On a phone, you can skip the password: on a signed-in device open Settings → Pair a Phone and scan its code, or <a href="\(model.joinHref)">type a pairing code</a>.</p>
            </form>
            """
        }
    }
}

extension SetupPage {
    /// The owner's name and password, once.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var body: HTML {
            """
            <form class="list-section" method="post" action="\(model.action)" id="setup-form" data-no-swap aria-labelledby="setup-h">
            <h2 class="list-section__header" id="setup-h">Welcome: choose the owner’s name and password</h2>
            \(Components.csrf(pageContext))
            \(problemLine(model.problem, id: "setup-problem"))
            <div class="list">
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="setup-name">Your name</label><input class="text-field" id="setup-name" type="text" name="name" value="\(model.name)" autocomplete="username" required maxlength="40"></div></div>
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="setup-password">Password (8 characters or more)</label><input class="text-field" id="setup-password" type="password" name="password" autocomplete="new-password" required minlength="8" maxlength="72"></div></div>
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="setup-confirm">Password again</label><input class="text-field" id="setup-confirm" type="password" name="confirm" autocomplete="new-password" required minlength="8" maxlength="72"></div></div>
            <div class="cell"><div class="cell__main"><button class="button button--large" type="submit" id="setup-button">Set Up Pocket</button></div></div>
            </div>
            <p class="list-section__footer">You will be this Pocket’s owner: you add the rest of the household and pair their phones in Settings.</p>
            </form>
            """
        }
    }
}

extension NotSetUp {
    /// What every address but the setup link shows before there is an owner.
    struct View: PageView {
        let model: Model

        var body: HTML {
            """
            <section class="list-section" aria-labelledby="not-set-up-h">
            <h2 class="list-section__header" id="not-set-up-h">Not set up yet</h2>
            <p class="people-message" id="not-set-up">\(model.message)</p>
            </section>
            """
        }
    }
}

extension JoinPage {
    /// Pairing on the phone: the code form, or "Continue as NAME" for a valid link.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var body: HTML {
            """
            <form class="list-section" method="post" action="\(model.action)" id="join-form" data-no-swap aria-labelledby="join-h">
            \(Components.csrf(pageContext))
            <h2 class="list-section__header" id="join-h">Pair this phone</h2>
            \(problemLine(model.problem, id: "join-problem"))
            \(if: model.isCodeForm, codeForm, else: personForm)
            </form>
            """
        }

        private var codeForm: HTML {
            """
            <div class="list">
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="join-code">Pairing code</label><input class="text-field" id="join-code" type="text" name="code" autocomplete="one-time-code" autocapitalize="characters" required maxlength="20" placeholder="ABCD-EFGH"></div></div>
            <div class="cell"><div class="cell__main"><button class="button button--large" type="submit" id="join-button">Pair</button></div></div>
            </div>
            <p class="list-section__footer">On a signed-in device, open Settings → Pair a Phone for a code, or on the computer running Pocket, run <code>pocket pair</code> with your name. It works once, for 5 minutes.</p>
            """
        }

        private var personForm: HTML {
            """
            \(unwrap: model.personName, { name in """
            <div class="list">
            <div class="cell"><div class="cell__main"><span class="cell__text"><span class="cell__title" id="join-person">Sign in as \(name) on this device</span></span></div></div>
            <div class="cell"><div class="cell__main"><button class="button button--large" type="submit" id="join-button">Continue as \(name)</button></div></div>
            </div>
            """ })
            """
        }
    }
}

extension PairPage {
    /// A new pairing code: QR code, short code and link.
    struct View: PageView {
        let model: Model

        var body: HTML {
            """
            <section class="list-section" aria-labelledby="pair-h">
            <h2 class="list-section__header" id="pair-h">Scan with \(model.personName)’s phone</h2>
            <div class="list">
            <div class="cell"><div class="cell__main cell__main--stack people-qr"><img id="pair-qr" src="\(model.qrImage)" alt="QR code of the pairing link" width="240" height="240"></div></div>
            <div class="cell"><div class="cell__main"><span class="cell__text"><span class="cell__title">Or type this code</span><span class="cell__subtitle">at \(model.joinHref) on the phone</span></span><span class="cell__detail people-code" id="pair-code">\(model.shortCode)</span></div></div>
            <div class="cell"><div class="cell__main cell__main--stack"><span class="cell__title">Link</span><a class="people-link" id="pair-link" href="\(model.link)">\(model.link)</a>\(each: model.otherLinks, { "<span class=\"cell__subtitle people-link\">\($0)</span>" })</div></div>
            </div>
            <p class="list-section__footer" id="pair-expiry">Works once, until \(model.expiresAt). Anyone who has it can sign in as \(model.personName): show it only to them.</p>
            </section>
            """
        }
    }
}

extension SettingsPage {
    /// Settings: you, your devices, your password and (owners) the household.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var body: HTML {
            """
            \(unwrap: model.notice, { "<p class=\"people-notice\" id=\"settings-notice\" role=\"status\">\($0)</p>" })
            \(problemLine(model.problem, id: "settings-problem"))
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
            \(unwrap: model.data, { SettingsData.View(model: $0).body })
            \(if: model.isOwner, household)
            \(unwrap: model.certificate, { CertificateSummary.View(model: $0).body })
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
            <form method="post" action="\(row.removeAction)">\(csrf)<button class="button button--destructive" type="submit">Remove</button></form>
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
