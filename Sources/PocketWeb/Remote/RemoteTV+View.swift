import Remote

extension RemoteTV {
    /// "My TV": every control is its own small form posting one press, so the remote works without
    /// JavaScript; switched off, everything but the power switch is disabled.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var actions: HTML {
            if model.isOn {
                return "<a class=\"bar-button\" href=\"\(model.favouritesHref)\" id=\"tv-edit-favourites\" aria-label=\"Edit favourites\">Edit</a>"
            }
            return "<span class=\"bar-button remote-bar-disabled\" aria-disabled=\"true\" id=\"tv-edit-favourites\" aria-label=\"Edit favourites (the TV is off)\">Edit</span>"
        }

        var body: HTML {
            let off = !model.isOn
            return """
            \(RemoteIcons.sprite)
            <div class="remote remote--tv\(if: off, " remote--off")\(if: model.flipIn, " remote--flip-in")" id="remote-tv" data-sse="\(model.eventsHref)" data-needs-server="Not connected to \(RemoteDevice.tv.name)">
            <div class="remote__column">
            <section class="lcd" id="tv-display" aria-labelledby="tv-display-title">
            <h2 class="visually-hidden" id="tv-display-title">TV status</h2>
            <dl class="lcd__grid">
            <div class="lcd__item"><dt class="lcd__label">Power</dt><dd class="lcd__value" id="tv-power-state">\(model.powerText)</dd></div>
            <div class="lcd__item"><dt class="lcd__label">Volume</dt><dd class="lcd__value" id="tv-volume-state">\(model.volume)</dd></div>
            <div class="lcd__item lcd__item--channel"><dt class="lcd__label">Channel</dt><dd class="lcd__value lcd__value--channel\(if: model.isPending, " is-pending")">\
            <span id="tv-channel" aria-hidden="true">\(model.channelText)</span><span class="visually-hidden">\(model.channelName)</span></dd></div>
            </dl>
            \(if: model.isPending, """
            <p class="lcd__notice" id="tv-pending"\(unwrap: model.pendingMilliseconds, { " data-refresh-after=\"\($0)\"" })>Enter the second digit</p>
            """)
            \(unwrap: model.notice, { "<p class=\"lcd__notice lcd__notice--warning\" id=\"tv-notice\" role=\"status\">\($0)</p>" })
            </section>
            \(RemoteToolbar.powerRow(action: model.powerAction, id: "tv-power", isOn: model.isOn, pageContext: pageContext))
            <form class="remote__presets" method="post" data-autosubmit data-transition="none">
            \(Components.csrf(pageContext))
            <div class="segmented remote-segmented" role="group" aria-labelledby="tv-presets-title">
            <span class="visually-hidden" id="tv-presets-title">Favourite channels</span>
            \(each: model.presets, { preset in """
            <button class="remote-segmented__item" type="submit" formaction="\(preset.action)" id="\(preset.id)" aria-pressed="\(if: preset.isCurrent, "true", else: "false")" \
            aria-label="\(preset.name)"\(flag: "disabled", off)><span>\(preset.label)</span></button>
            """ })
            </div>
            </form>
            <form class="remote__row remote__volume" method="post" action="\(model.volumeAction)" data-autosubmit data-transition="none">
            \(Components.csrf(pageContext))
            <label class="visually-hidden" for="tv-volume">Volume</label>
            <svg class="remote__row-icon" aria-hidden="true" focusable="false"><use href="#remote-icon-speaker"/></svg>
            <input class="slider" type="range" id="tv-volume" name="volume" min="0" max="100" step="1" value="\(model.volume)"\(flag: "disabled", off)>
            <svg class="remote__row-icon" aria-hidden="true" focusable="false"><use href="#remote-icon-speaker-loud"/></svg>
            <output class="remote__volume-value" for="tv-volume" id="tv-volume-output">\(model.volume)</output>
            <button class="button button--tinted remote__apply js-hidden" type="submit"\(flag: "disabled", off)>Set</button>
            </form>
            </div>
            <form class="remote__pad" method="post" data-autosubmit data-transition="none">
            \(Components.csrf(pageContext))
            <div class="keypad" role="group" aria-label="Keypad">
            \(each: model.keys, { key in """
            <button class="key\(if: key.isZero, " key--zero")" type="submit" formaction="\(key.action)" id="\(key.id)" data-key="\(key.digit)"\(flag: "disabled", off)>\(key.digit)</button>
            """ })
            </div>
            <div class="rocker" role="group" aria-label="Channel">
            <button class="rocker__button" type="submit" formaction="\(model.channelUpAction)" id="tv-channel-up" aria-label="Channel up"\(flag: "disabled", off)>\
            <svg class="rocker__icon" aria-hidden="true" focusable="false"><use href="#remote-icon-up"/></svg></button>
            <span class="rocker__label" aria-hidden="true">CH</span>
            <button class="rocker__button" type="submit" formaction="\(model.channelDownAction)" id="tv-channel-down" aria-label="Channel down"\(flag: "disabled", off)>\
            <svg class="rocker__icon" aria-hidden="true" focusable="false"><use href="#remote-icon-down"/></svg></button>
            </div>
            </form>
            </div>
            """
        }

        var toolbar: HTML { model.toolbar.html }
    }
}

extension RemoteToolbar {
    /// Either remote's power row: a form whose switch is the row's label (one 44-point target),
    /// submitted on change by pocket.js, with an Apply button without JavaScript.
    static func powerRow(action: String, id: String, isOn: Bool, pageContext: PageContext) -> HTML {
        """
        <form class="remote__row" method="post" action="\(action)" data-autosubmit data-transition="none">
        \(Components.csrf(pageContext))
        <label class="remote__row-label"><svg class="remote__row-icon" aria-hidden="true" focusable="false"><use href="#remote-icon-power"/></svg>\
        <span class="remote__row-text">Power</span><input class="switch" type="checkbox" role="switch" name="power" id="\(id)"\(flag: "checked", isOn)></label>
        <button class="button button--tinted remote__apply js-hidden" type="submit">Apply</button>
        </form>
        """
    }

    /// The toolbar under either remote; the switch's label names the other remote.
    var html: HTML {
        """
        <footer class="toolbar remote-toolbar">
        <a class="bar-button" href="\(screenHref)" id="remote-screen-link">Screen</a>
        <span class="toolbar__flex"></span>
        <a class="bar-button remote-switch" href="\(switchHref)" data-transition="flip" id="remote-switch">\
        <svg class="remote-switch__icon" aria-hidden="true" focusable="false"><use href="#remote-icon-flip"/></svg>\
        <span class="visually-hidden">Switch to the </span><span class="remote-switch__label" id="remote-switch-label">\(switchLabel)</span>\
        <span class="visually-hidden"> remote</span></a>
        </footer>
        """
    }
}
