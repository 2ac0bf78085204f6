extension RemoteScreen {
    /// The living room: the TV set and the DVR under it, kept live by the event stream's patches,
    /// with the toolbar that leads to either remote and resets both devices.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var body: HTML {
            """
            \(RemoteIcons.sprite)
            <div class="living-room" data-sse="\(model.eventsHref)">
            <section class="set" aria-labelledby="set-tv-title">
            <h2 class="set__title" id="set-tv-title">My TV</h2>
            <div class="set__bezel" aria-live="polite">\(model.tv.html)</div>
            </section>
            <section class="set set--dvr" aria-labelledby="set-dvr-title">
            <h2 class="set__title" id="set-dvr-title">My DVR</h2>
            <div class="stb">
            <div class="stb__panel">
            <div class="stb__live" aria-live="polite">\(model.dvr.html)</div>
            \(model.dvr.clock.html)
            </div>
            </div>
            </section>
            </div>
            \(Components.alertDialog(model.reset, pageContext: pageContext))
            """
        }

        var toolbar: HTML {
            """
            <footer class="toolbar">
            <a class="bar-button" href="\(model.tvHref)" id="screen-tv-link">TV Remote</a>
            <a class="bar-button" href="\(model.dvrHref)" id="screen-dvr-link">DVR Remote</a>
            <span class="toolbar__flex"></span>
            <a class="bar-button remote-reset" href="\(model.resetHref)" data-dialog="\(model.reset.id)" id="screen-reset">Reset…</a>
            </footer>
            """
        }
    }
}

extension RemoteScreen.TVPanel {
    /// The TV's picture, on the Screen page and alone as the `patch` sent whenever the set changes.
    var html: HTML {
        """
        <div class="picture\(if: isOn, " picture--on picture--hue-\(hue)", else: " picture--off")" id="screen-tv">
        <p class="visually-hidden">\(description)</p>
        \(if: isOn, onScreen, else: """
        <p class="picture__no-signal" id="screen-no-signal" aria-hidden="true">No signal</p>
        """)
        </div>
        """
    }

    /// The picture and its on-screen display while the set is on.
    private var onScreen: HTML {
        """
        <div class="picture__scene" aria-hidden="true"><span class="picture__sun"></span><span class="picture__hills"></span></div>
        <p class="osd osd--channel" aria-hidden="true"><span class="osd__channel" id="screen-channel">\(channel)</span>\
        \(unwrap: favourite, { "<span class=\"osd__favourite\" id=\"screen-favourite\">\($0)</span>" })</p>
        \(unwrap: notice, { "<p class=\"osd osd--notice\" id=\"screen-notice\">\($0)</p>" })
        \(if: showsVolume, """
        <div class="osd osd--volume" id="screen-volume" aria-hidden="true"><svg class="osd__icon" focusable="false"><use href="#remote-icon-speaker-loud"/></svg>\
        <progress class="osd__bar" max="100" value="\(volume)">\(volume)</progress><span class="osd__value">\(volume)</span></div>
        """)
        """
    }
}

extension RemoteScreen.DVRPanel {
    /// The DVR's state line, on the Screen page and alone as part of the DVR's `patch` (its counters
    /// are a separate element, outside the live region).
    var html: HTML {
        """
        <p class="stb__state\(if: isRecording, " is-recording")" id="screen-dvr"><svg class="stb__icon stb__icon--\(icon)" aria-hidden="true" focusable="false"><use href="#remote-icon-\(icon)"/></svg>\
        <span class="stb__title" id="screen-dvr-state">\(stateTitle)</span>\(if: isRecording, "<span class=\"stb__rec\" aria-hidden=\"true\">REC</span>")\
        \(unwrap: notice, { " <span class=\"stb__notice\">\($0)</span>" })</p>
        """
    }
}
