extension ConferenceTalk {
    /// The talk's article, the detail side of the split view; `pageContext` gives the bookmark
    /// form its CSRF field. Its text frame loads with the page, never lazily: a shown page asking
    /// for the text is what records the talk as opened (`ConferencePages.talkText`).
    struct Fragment: FragmentView {
        let talk: ConferenceTalk
        let pageContext: PageContext

        var html: HTML {
            """
            <article class="conference-talk" id="conference-talk" data-talk="\(talk.id)" aria-labelledby="conference-talk-title">
            <h2 class="split__title conference-talk__title" id="conference-talk-title">\(talk.title)</h2>
            <dl class="conference-facts">
            \(each: talk.facts, ConferenceTalk.fact)</dl>
            <div class="conference-talk__actions">
            \(bookmarkForm)
            \(unwrap: talk.talkURL, { url in
                "<a class=\"button button--tinted\" id=\"conference-talk-link\" href=\"\(url)\" target=\"_blank\" rel=\"noopener noreferrer\">Open on the Church’s Site</a>"
            })
            \(each: talk.media, ConferenceTalk.media)</div>
            <iframe class="conference-talk__frame" id="conference-talk-frame" src="\(talk.textURL)" title="\(talk.frameTitle)" sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox" referrerpolicy="no-referrer"></iframe>
            <nav class="conference-talk__neighbours" aria-label="Previous and next talk">
            \(unwrap: talk.previous, { previous in
                """
                <a class="button button--plain conference-talk__previous" id="conference-talk-previous" href="\(previous.href)" rel="prev">\
                <span aria-hidden="true">‹ </span>Previous: \(previous.title)</a>
                """
            })
            \(unwrap: talk.next, { next in
                """
                <a class="button button--plain conference-talk__next" id="conference-talk-next" href="\(next.href)" rel="next">\
                Next: \(next.title)<span aria-hidden="true"> ›</span></a>
                """
            })
            </nav>
            <section class="list-section conference-citations" id="conference-talk-citations" aria-labelledby="conference-citations-h">
            <h3 class="list-section__header" id="conference-citations-h">Scriptures Cited</h3>
            \(if: talk.citations.isEmpty, "<p class=\"conference-empty\">\(talk.citationsNote)</p>", else: """
                <ul class="list" role="list">
                \(each: talk.citations, ConferenceTalk.citation)</ul>
                """)
            </section>
            </article>
            """
        }

        private var bookmarkForm: HTML {
            let bookmark = talk.bookmark
            return """
            <form class="conference-bookmark" method="post" action="\(bookmark.action)" data-talk="\(bookmark.talk)" data-changes="\(bookmark.changes)">\(Components.csrf(pageContext))\
            <input type="hidden" name="bookmark" value="\(bookmark.newValue)"><input type="hidden" name="return" value="\(bookmark.returnTo)">\
            <button class="button button--tinted" type="submit" id="conference-bookmark-button" aria-pressed="\(if: bookmark.isBookmarked, "true", else: "false")" \
            data-on-label="\(ConferenceTalk.BookmarkForm.removeLabel)" data-off-label="\(ConferenceTalk.BookmarkForm.addLabel)">\(bookmark.label)</button></form>
            """
        }
    }

    private static func fact(_ fact: Fact) -> HTML {
        """
        <div class="conference-facts__row"><dt>\(fact.label)</dt>\
        <dd>\(unwrap: fact.href, { "<a href=\"\($0)\">\(fact.value)</a>" }, else: "\(fact.value)")</dd></div>

        """
    }

    /// A recording: a player that loads nothing until opened, or a link to the page that has it.
    private static func media(_ media: Media) -> HTML {
        switch media.kind {
        case .link:
            return """
                <a class="button button--tinted conference-media-link" href="\(media.url)" target="_blank" rel="noopener noreferrer">\(media.label)</a>

                """
        case .audio:
            return """
                <details class="conference-media"><summary class="button button--tinted">\(media.label)</summary>\
                <audio class="conference-media__player" controls preload="none" src="\(media.url)">\(media.label): \
                <a href="\(media.url)">download the recording</a></audio></details>

                """
        case .video:
            return """
                <details class="conference-media"><summary class="button button--tinted">\(media.label)</summary>\
                <video class="conference-media__player" controls preload="none" playsinline src="\(media.url)">\(media.label): \
                <a href="\(media.url)">download the recording</a></video></details>

                """
        }
    }

    /// A cited passage, with its page on the right only when the data has one.
    private static func citation(_ citation: Citation) -> HTML {
        """
        <li class="cell"><a class="cell__main" href="\(citation.href)"><span class="cell__text"><span class="cell__title">\(citation.reference)</span></span>\
        \(unwrap: citation.pageLabel, { "<span class=\"cell__detail\">\($0)</span>" })<span class="cell__chevron" aria-hidden="true"></span></a></li>

        """
    }
}
