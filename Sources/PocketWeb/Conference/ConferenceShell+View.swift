extension ConferenceShell {
    /// The sample-data banner at the top of every screen while the sample is in use; nothing otherwise.
    struct BannerFragment: FragmentView {
        let shell: ConferenceShell

        var html: HTML {
            """
            \(unwrap: shell.banner, { banner in
                """
                <p class="conference-banner" id="conference-sample-banner" role="note"\(unwrap: banner.liveHref, { " data-sse=\"\($0)\"" })><span class="conference-banner__text">\(banner.text)</span> \
                <a class="conference-banner__action" href="\(banner.actionHref)">\(banner.actionLabel)</a></p>
                """
            })
            """
        }
    }

    /// The tab bar every Conference screen puts in the layout's toolbar.
    struct TabBarFragment: FragmentView {
        let shell: ConferenceShell

        var html: HTML {
            """
            <nav class="toolbar conference-tabs" id="conference-tabs" aria-label="Conference sections">
            \(each: shell.tabs, { tab in
                """
                <a class="conference-tab" href="\(tab.href)" data-transition="none"\(if: tab.current, " aria-current=\"page\"")>\
                <span class="conference-tab__icon conference-tab__icon--\(tab.icon)" aria-hidden="true"></span>\
                <span class="conference-tab__label">\(tab.label)</span></a>
                """
            })
            </nav>
            """
        }
    }
}
