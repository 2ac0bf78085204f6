import Remote

extension RemoteFavourites {
    /// The four presets as one form, saved together or not at all; a refused save comes back with
    /// what was typed, the bad field marked and an alert over the form. Read-only while the TV is off.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var actions: HTML {
            """
            <button class="bar-button remote-save" type="submit" form="\(model.formID)" id="favourites-save-bar"\(flag: "disabled", !model.isOn)>Save</button>
            """
        }

        var body: HTML {
            """
            \(if: !model.isOn, """
            <p class="content__intro" id="favourites-off">The TV is off. Turn it on to edit its favourites.</p>
            """)
            <form class="remote-favourites" id="\(model.formID)" method="post" action="\(model.saveAction)" data-needs-server="Not connected to \(RemoteDevice.tv.name)">
            \(Components.csrf(pageContext))
            \(each: model.rows, row)<p class="list-section__footer" id="favourites-hint">Labels are \(model.labelHint). Channels go from \(model.channelMin) to \(model.channelMax).</p>
            <div class="remote-form-actions">
            <a class="button button--plain" href="\(model.cancelHref)" data-nav="back" id="favourites-cancel">Cancel</a>
            <button class="button" type="submit" id="favourites-save"\(flag: "disabled", !model.isOn)>Save</button>
            </div>
            </form>
            \(unwrap: model.alert, alert)
            """
        }

        /// One preset's section: its label field and channel stepper.
        private func row(_ row: Row) -> HTML {
            let off = !model.isOn
            return """
            <section class="list-section list-section--compact" aria-labelledby="favourite-\(row.index)-header">
            <h2 class="list-section__header" id="favourite-\(row.index)-header">\(row.header)</h2>
            <div class="list">
            <div class="cell"><div class="cell__main"><label class="cell__text cell__title" for="\(row.labelID)">Label</label>\
            <input class="text-field remote-label-field\(if: row.labelInvalid, " is-invalid")" type="text" id="\(row.labelID)" name="\(row.labelName)" value="\(row.label)" \
            autocomplete="off" autocapitalize="characters" spellcheck="false" aria-describedby="favourites-hint"\(if: row.labelInvalid, " aria-invalid=\"true\"")\(flag: "disabled", off)></div></div>
            <div class="cell"><div class="cell__main"><label class="cell__text cell__title" for="\(row.channelID)">Channel</label><div class="stepper" data-stepper>\
            <button type="button" class="stepper__button" data-step="-1" aria-label="Previous channel for \(row.header)"\(flag: "disabled", off)><span aria-hidden="true">−</span></button>\
            <input class="stepper__value\(if: row.channelInvalid, " is-invalid")" type="number" id="\(row.channelID)" name="\(row.channelName)" min="\(model.channelMin)" max="\(model.channelMax)" \
            value="\(row.channel)" inputmode="numeric"\(if: row.channelInvalid, " aria-invalid=\"true\"")\(flag: "disabled", off)>\
            <button type="button" class="stepper__button" data-step="1" aria-label="Next channel for \(row.header)"\(flag: "disabled", off)><span aria-hidden="true">+</span></button></div></div></div>
            </div>
            </section>

            """
        }

        private func alert(_ alert: Alert) -> HTML {
            """
            <dialog class="alert remote-alert" open data-modal id="favourites-alert" role="alertdialog" aria-labelledby="favourites-alert-title" aria-describedby="favourites-alert-message">
            <h2 class="alert__title" id="favourites-alert-title">\(alert.title)</h2>
            <p class="alert__message" id="favourites-alert-message">\(alert.message)</p>
            <form class="alert__actions" method="dialog"><button class="alert__button alert__button--cancel" type="submit" id="favourites-alert-ok" autofocus data-autofocus>OK</button></form>
            </dialog>
            """
        }
    }
}
