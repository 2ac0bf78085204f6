import Remote

extension RemoteDVR {
    /// "My DVR": the status display, power switch and transport buttons, and over them (as plain
    /// page states, so they work without JavaScript) the action sheet of a refused press or the
    /// alert after a forced one.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var body: HTML {
            """
            \(RemoteIcons.sprite)
            <div class="remote remote--dvr\(if: !model.isOn, " remote--off")\(if: model.flipIn, " remote--flip-in")" id="remote-dvr" data-sse="\(model.eventsHref)" data-needs-server="Not connected to \(RemoteDevice.dvr.name)"\(flag: "inert", model.isBlocked)>
            <div class="remote__column">
            <section class="lcd" id="dvr-display" aria-labelledby="dvr-display-title">
            <h2 class="visually-hidden" id="dvr-display-title">DVR status</h2>
            <p class="lcd__state"><svg class="lcd__icon lcd__icon--\(model.stateIcon)" aria-hidden="true" focusable="false"><use href="#remote-icon-\(model.stateIcon)"/></svg>\
            <span class="visually-hidden">State: </span><span class="lcd__value" id="dvr-state">\(model.stateTitle)</span></p>
            \(model.clock.html)
            \(unwrap: model.notice, { "<p class=\"lcd__notice lcd__notice--warning\" id=\"dvr-notice\" role=\"status\">\($0)</p>" })
            </section>
            \(RemoteToolbar.powerRow(action: model.powerAction, id: "dvr-power", isOn: model.isOn, pageContext: pageContext))
            </div>
            <form class="transport" method="post" data-transition="none">
            \(Components.csrf(pageContext))
            <div class="transport__grid" role="group" aria-label="Transport">
            \(each: model.buttons, transportButton)
            </div>
            </form>
            </div>
            \(unwrap: model.sheet, sheet)
            \(unwrap: model.alert, alert)
            """
        }

        var toolbar: HTML { model.toolbar.html }

        /// A transport button; the current state's one is lit and, unless a sheet or alert is
        /// showing, takes the focus.
        private func transportButton(_ button: Transport) -> HTML {
            """
            <button class="transport__button\(if: button.isCurrent, " is-current")\(if: button.isRecord, " transport__button--record")" type="submit" formaction="\(button.action)" \
            id="\(button.id)" aria-pressed="\(if: button.isCurrent, "true", else: "false")"\(flag: "data-autofocus", button.isCurrent && !model.isBlocked)\(flag: "disabled", !model.isOn)>\
            <span class="transport__disc"><svg class="transport__icon" aria-hidden="true" focusable="false"><use href="#remote-icon-\(button.icon)"/></svg></span>\
            <span class="transport__label">\(button.title)</span></button>
            """
        }

        private func sheet(_ sheet: Sheet) -> HTML {
            """
            <a class="remote-scrim" href="\(sheet.cancelHref)" data-transition="none" tabindex="-1"><span class="visually-hidden">\(sheet.cancelTitle)</span></a>
            <dialog class="action-sheet remote-sheet" open data-modal id="dvr-sheet" aria-labelledby="dvr-sheet-title" aria-describedby="dvr-sheet-message">
            <form class="action-sheet__group" method="post" action="\(sheet.forceAction)" data-transition="none">
            \(Components.csrf(pageContext))
            <p class="action-sheet__title" id="dvr-sheet-title">\(sheet.title)</p>
            <p class="action-sheet__message" id="dvr-sheet-message">\(sheet.message)</p>
            <button class="action-sheet__button action-sheet__button--destructive" type="submit" id="dvr-sheet-force">\(sheet.forceTitle)</button>
            </form>
            <div class="action-sheet__group"><a class="action-sheet__button action-sheet__button--cancel" href="\(sheet.cancelHref)" data-transition="none" id="dvr-sheet-cancel" \
            autofocus data-autofocus data-dialog-cancel>\(sheet.cancelTitle)</a></div>
            </dialog>
            """
        }

        private func alert(_ alert: Alert) -> HTML {
            """
            <div class="remote-scrim" aria-hidden="true"></div>
            <dialog class="alert remote-alert" open data-modal id="dvr-alert" role="alertdialog" aria-labelledby="dvr-alert-title" aria-describedby="dvr-alert-message">
            <h2 class="alert__title" id="dvr-alert-title">\(alert.title)</h2>
            <p class="alert__message" id="dvr-alert-message">\(alert.message)</p>
            <div class="alert__actions"><a class="alert__button alert__button--cancel" href="\(alert.okHref)" data-transition="none" id="dvr-alert-ok" \
            autofocus data-autofocus data-dialog-cancel>OK</a></div>
            </dialog>
            """
        }
    }
}

extension RemoteClock {
    /// The counters, on the DVR remote and the Screen page, and alone as the `patch` re-sent every
    /// second while they run: only the position, plus the recording's length once there is one.
    var html: HTML {
        """
        <p class="counters" id="\(id)">\(if: isOn, """
        <span class="counter"><span class="counter__label">Position</span> <span class="counter__value" id="\(id)-position">\(position)</span></span>\
        \(if: hasRecording, """
         <span class="counter counter--recording"><span class="counter__label">Recorded</span> <span class="counter__value" id="\(id)-recording">\(recording)</span></span>
        """)
        """)</p>
        """
    }
}
