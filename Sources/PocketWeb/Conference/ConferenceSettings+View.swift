extension ConferenceSettings {
    /// Settings: the database in use, the update check and install, and the import form. The
    /// controls that change the database are only there for owners.
    struct View: PageView {
        let model: ConferenceSettings
        let pageContext: PageContext

        var body: HTML {
            """
            \(ConferenceShell.BannerFragment(shell: model.shell))
            <div data-sse="\(model.events)">
            \(model.panel.html)
            </div>
            <section class="list-section" aria-labelledby="conference-database-h">
            <h2 class="list-section__header" id="conference-database-h">Database in Use</h2>
            <ul class="list" role="list">
            \(each: model.lines, { line in
                """
                <li class="cell"><div class="cell__main"><span class="cell__text"><span class="cell__title">\(line.label)</span></span>\
                <span class="cell__detail" id="\(line.id)">\(line.value)</span></div></li>

                """
            })</ul>
            </section>
            \(updates)
            \(if: model.canInstall, importForm)
            """
        }

        var toolbar: HTML { ConferenceShell.TabBarFragment(shell: model.shell).html }

        /// Where updates come from, what the last check found, and (for owners) the buttons to check and install.
        private var updates: HTML {
            """
            <section class="list-section" id="conference-updates" aria-labelledby="conference-updates-h">
            <h2 class="list-section__header" id="conference-updates-h">Updates</h2>
            <div class="list">
            <div class="cell"><div class="cell__main"><span class="cell__text"><span class="cell__title">Source</span>\
            <span class="cell__subtitle conference-url" id="conference-manifest-url">\(model.manifestURL)</span></span></div></div>
            <div class="cell"><div class="cell__main"><span class="cell__text"><span class="cell__title" id="conference-check-status">\(model.checkStatus)</span>\
            \(unwrap: model.checkProblem, { "<span class=\"cell__subtitle\" id=\"conference-check-problem\">\($0)</span>" })</span></div></div>
            \(if: model.canInstall, """
                \(unwrap: model.offer, offerForm)
                <form class="cell" method="post" action="\(ConferenceRoute.checkForUpdate.href())">\(Components.csrf(pageContext))\
                <div class="cell__main"><button class="button button--plain" type="submit" id="conference-check-button"\
                \(flag: "disabled", !model.canCheck)>Check for Update</button></div></form>
                """, else: """
                <div class="cell"><div class="cell__main"><span class="cell__text">\
                <span class="cell__title" id="conference-owner-only">\(ConferenceSettings.ownerOnly)</span></span></div></div>
                """)
            </div>
            <p class="list-section__footer">Pocket checks this address when it starts; run <code>pocket serve --auto-update</code> \
            to install new versions without asking.</p>
            </section>
            """
        }

        private func offerForm(_ offer: OfferButton) -> HTML {
            """
            <form class="cell" method="post" action="\(ConferenceRoute.install.href())" id="conference-offer">\(Components.csrf(pageContext))\
            <div class="cell__main"><span class="cell__text"><span class="cell__title">\(offer.detail)</span></span>\
            <button class="button" type="submit" id="conference-install-button"\(flag: "disabled", !model.canCheck)>\(offer.title)</button></div></form>
            """
        }

        private var importForm: HTML {
            """
            <section class="list-section" aria-labelledby="conference-import-h">
            <h2 class="list-section__header" id="conference-import-h">Import a Database File</h2>
            <form class="list" method="post" action="\(model.importAction)" enctype="multipart/form-data" id="conference-import">
            \(unwrap: model.requestProblem, {
                "<p class=\"conference-banner conference-banner--failure\" id=\"conference-import-problem\" role=\"alert\">\($0)</p>"
            })
            <div class="cell"><div class="cell__main cell__main--stack">
            <label class="cell__title" for="conference-import-file">A sci-core database (.db)</label>
            <input class="conference-file" id="conference-import-file" type="file" name="database" \
            accept=".db,.sqlite,.sqlite3,application/x-sqlite3,application/vnd.sqlite3" required>
            <button class="button button--tinted" type="submit" id="conference-import-button">Import</button>
            </div></div>
            </form>
            <p class="list-section__footer">The file is checked like a download (quick_check, required tables) \
            before it replaces the database in use. Up to \(model.uploadLimit).</p>
            </section>
            """
        }
    }
}

extension InstallPanel {
    /// `#conference-install`: on the Settings page, and alone as each `patch` event of the install's
    /// event stream, which replaces the one on the page.
    var html: HTML {
        """
        <div class="conference-install" id="conference-install" aria-live="polite">
        \(if: running, progressHTML)
        \(unwrap: success, { "<p class=\"conference-banner conference-banner--success\" id=\"conference-install-success\" role=\"status\">\($0)</p>" })
        \(unwrap: failure, { "<p class=\"conference-banner conference-banner--failure\" id=\"conference-install-failure\" role=\"alert\">\($0)</p>" })
        </div>
        """
    }

    /// The running install: a determinate bar with bytes, speed and time left when its size is known, else an indeterminate one.
    private var progressHTML: HTML {
        """
        <div class="list"><div class="cell"><div class="cell__main cell__main--stack">
        <span class="cell__title" id="conference-install-heading">\(heading)</span>
        <label class="cell__subtitle" for="conference-install-bar" id="conference-install-phase">\(phase)\
        \(unwrap: transfer, { " \($0.percent)%" })…</label>
        \(unwrap: transfer, { transfer in
            """
            <progress class="progress" id="conference-install-bar" max="\(String(transfer.max))" value="\(String(transfer.value))">\(transfer.percent)%</progress>
            <span class="conference-install__numbers"><span id="conference-install-bytes">\(transfer.bytes)</span>\
            \(unwrap: transfer.speed, { " · <span id=\"conference-install-speed\">\($0)</span>" })\
            \(unwrap: transfer.remaining, { " · <span id=\"conference-install-remaining\">\($0)</span>" })</span>
            """
        }, else: "<progress class=\"progress\" id=\"conference-install-bar\">\(phase)</progress>")
        </div></div></div>
        """
    }
}
