// The views of the Conference screens, beside their models in ConferenceScreens+Model.swift. The
// split view's list and talk are drawn by TalkList+View.swift and ConferenceTalk+View.swift.

extension ConferenceScreens.Row {
    /// The row as a linked cell, with its subtitle and detail when it has them.
    var cell: HTML {
        """
        <li class="cell"><a class="cell__main" href="\(href)"><span class="cell__text"><span class="cell__title">\(title)</span>\
        \(unwrap: subtitle, { "<span class=\"cell__subtitle\">\($0)</span>" })</span>\
        \(unwrap: detail, { "<span class=\"cell__detail\">\($0)</span>" })<span class="cell__chevron" aria-hidden="true"></span></a></li>

        """
    }
}

extension ConferenceScreens.Conferences {
    /// "Conferences": the list of conferences, then the person's recent and bookmarked talks when there are any.
    struct View: PageView {
        let model: ConferenceScreens.Conferences

        var body: HTML {
            """
            \(ConferenceShell.BannerFragment(shell: model.shell))
            \(unwrap: model.warning, { "<p class=\"conference-banner conference-banner--warning\" role=\"alert\">\($0)</p>" })
            <section class="list-section" aria-labelledby="conference-list-h">
            <h2 class="list-section__header" id="conference-list-h">General Conferences</h2>
            <ul class="list" role="list" id="conference-list">
            \(each: model.rows, \.cell)</ul>
            <p class="list-section__footer" id="conference-footer">\(model.footer)</p>
            </section>
            \(talks(model.recent, id: "conference-recent", header: "Recently Opened"))\
            \(talks(model.bookmarks, id: "conference-bookmarks", header: "Bookmarks"))
            """
        }

        var toolbar: HTML { ConferenceShell.TabBarFragment(shell: model.shell).html }

        /// A section of talks, or nothing when there are none.
        private func talks(_ rows: [ConferenceScreens.Row], id: String, header: String) -> HTML {
            """
            \(if: !rows.isEmpty, """
                <section class="list-section" aria-labelledby="\(id)-h">
                <h2 class="list-section__header" id="\(id)-h">\(header)</h2>
                <ul class="list" role="list" id="\(id)">
                \(each: rows, \.cell)</ul>
                </section>

                """)
            """
        }
    }
}

extension ConferenceScreens.Citations {
    /// A citation-index screen: rows with counts, a row linked only when it has talks to show.
    struct View: PageView {
        let model: ConferenceScreens.Citations

        var body: HTML {
            """
            \(ConferenceShell.BannerFragment(shell: model.shell))
            \(unwrap: model.intro, { "<p class=\"content__intro\">\($0)</p>" })
            \(each: model.sections, section)\
            \(unwrap: model.emptyMessage, { "<p class=\"conference-empty\" id=\"conference-empty\" role=\"status\">\($0)</p>" })
            """
        }

        var toolbar: HTML { ConferenceShell.TabBarFragment(shell: model.shell).html }

        private func section(_ section: CitationIndex.Section) -> HTML {
            """
            <section class="list-section" id="\(section.anchor)" aria-labelledby="\(section.anchor)-h">
            <h2 class="list-section__header" id="\(section.anchor)-h">\(section.header)</h2>
            <ul class="list" role="list">
            \(each: section.rows, row)</ul>
            </section>

            """
        }

        private func row(_ row: CitationIndex.Row) -> HTML {
            let text: HTML = """
                <span class="cell__text"><span class="cell__title">\(row.title)</span></span>\
                <span class="cell__detail conference-count">\(row.count)</span>
                """
            return """
                <li class="cell">\(unwrap: row.href, { href in
                    """
                    <a class="cell__main" href="\(href)" aria-label="\(row.label)">\(text)\
                    <span class="cell__chevron" aria-hidden="true"></span></a>
                    """
                }, else: "<div class=\"cell__main conference-count--none\" aria-label=\"\(row.label)\">\(text)</div>")</li>

                """
        }
    }
}

extension ConferenceScreens.Speakers {
    /// "Speakers": A–Z sections and the section index that jumps between them.
    struct View: PageView {
        let model: ConferenceScreens.Speakers

        var body: HTML {
            """
            \(ConferenceShell.BannerFragment(shell: model.shell))
            <div class="indexed">
            <div class="indexed__sections">
            \(each: model.sections, section)</div>
            <details class="section-index" data-popover><summary class="section-index__toggle" aria-label="Section index: jump to a letter">A–Z</summary>\
            <nav class="section-index__letters" aria-label="Section index">\
            \(each: model.sections, { "<a href=\"#\($0.anchor)\">\($0.letter)</a>" })</nav></details>
            </div>
            \(unwrap: model.emptyMessage, { "<p class=\"conference-empty\" role=\"status\">\($0)</p>" })
            """
        }

        var toolbar: HTML { ConferenceShell.TabBarFragment(shell: model.shell).html }

        private func section(_ section: Section) -> HTML {
            """
            <section class="list-section list-section--compact" id="\(section.anchor)" aria-labelledby="\(section.anchor)-h">
            <h2 class="list-section__header" id="\(section.anchor)-h">\(section.letter)</h2>
            <ul class="list" role="list">
            \(each: section.rows, \.cell)</ul>
            </section>

            """
        }
    }
}

extension ConferenceScreens.Split {
    /// A talk list beside a talk (or the placeholder), with the search field on Search.
    struct View: PageView {
        let model: ConferenceScreens.Split
        let pageContext: PageContext

        var body: HTML {
            """
            \(ConferenceShell.BannerFragment(shell: model.shell))
            <div class="split split--pane conference-split\(if: model.talk != nil, " split--detail")">
            <div class="split__primary" id="conference-list"\(attribute: "data-module", model.module)>
            \(unwrap: model.keep, keepBar)
            \(unwrap: model.search, searchForm)
            <div id="conference-results">\(model.list.html)</div>
            </div>
            <div class="split__detail">
            \(unwrap: model.talk, { ConferenceTalk.Fragment(talk: $0, pageContext: pageContext).html }, else: "<p class=\"split__placeholder\">Select a talk</p>")
            </div>
            </div>
            """
        }

        var toolbar: HTML { ConferenceShell.TabBarFragment(shell: model.shell).html }

        /// "Keep Offline": hidden until `conference/app.js` shows it (it needs the browser's Cache Storage).
        private func keepBar(_ keep: ConferenceScreens.KeepOffline) -> HTML {
            """
            <div class="conference-keep" id="conference-keep" data-keep-list="\(keep.listURL)" data-keep-page="\(keep.pageURL)">
            <button class="button button--tinted conference-keep__button" type="button" id="conference-keep-button" hidden>Keep Offline</button>
            <progress class="conference-keep__progress" id="conference-keep-progress" max="1" value="0" hidden></progress>
            <p class="conference-keep__status" id="conference-keep-status" role="status"></p>
            </div>
            """
        }

        /// The search field: a GET form, so it works without JavaScript; with it, results follow the typing.
        private func searchForm(_ search: ConferenceScreens.SearchForm) -> HTML {
            """
            <div class="conference-search-box" id="conference-search-box" data-needs-server="Search needs the Pocket server, which can’t be reached right now. Kept conferences can still be read.">
            <form class="conference-search" role="search" action="\(ConferenceRoute.searchHref(nil))" method="get" data-live-search data-transition="none">
            <label class="visually-hidden" for="conference-search-field">Search talks and speakers</label>
            <input class="search-field" id="conference-search-field" type="search" name="q" value="\(search.query)" placeholder="Titles and speakers" \
            autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="200">
            <button class="button button--tinted js-hidden" type="submit">Search</button>
            </form>
            </div>
            \(unwrap: search.hint, { "<p class=\"conference-empty\">\($0)</p>" })
            """
        }
    }
}
