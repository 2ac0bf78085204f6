import PocketWeb

// Reference (d), not one of issue #14's two candidates: the floor, what the same HTML costs with no
// library at all. Pages are Swift string interpolations of type `SafeHTML`, whose literal parts are
// trusted markup and whose interpolated `String`s are escaped (like Mustache's `{{x}}`), so forgetting
// to escape is not possible; trusted markup goes in only as another `SafeHTML`. An optional has no
// interpolation, so a missing value must be handled in code (`unwrap:`), or it does not compile.

/// HTML markup: literal text is trusted, interpolated strings are escaped.
struct SafeHTML: ExpressibleByStringInterpolation, Sendable {
    private(set) var text: String

    init(stringLiteral literal: String) {
        text = literal
    }

    init(stringInterpolation: Interpolation) {
        text = stringInterpolation.text
    }

    struct Interpolation: StringInterpolationProtocol {
        var text = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + interpolationCount * 24)
        }

        mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// A value from a model: escaped.
        mutating func appendInterpolation(_ value: String) {
            text += htmlEscaped(value)
        }

        mutating func appendInterpolation(_ value: Int) {
            text += String(value)
        }

        /// Markup built elsewhere, already safe.
        mutating func appendInterpolation(_ html: SafeHTML) {
            text += html.text
        }

        /// Each element's markup, one after another.
        mutating func appendInterpolation<S: Sequence>(each sequence: S, _ body: (S.Element) -> SafeHTML) {
            for element in sequence { text += body(element).text }
        }

        /// `html` when `condition` holds, else `otherwise` (nothing by default).
        mutating func appendInterpolation(if condition: Bool, _ html: @autoclosure () -> SafeHTML, else otherwise: @autoclosure () -> SafeHTML = "") {
            text += condition ? html().text : otherwise().text
        }

        /// The markup for the value when there is one, else `otherwise` (nothing by default).
        mutating func appendInterpolation<T>(unwrap value: T?, _ body: (T) -> SafeHTML, else otherwise: @autoclosure () -> SafeHTML = "") {
            text += value.map { body($0).text } ?? otherwise().text
        }
    }
}

enum InterpolatedPages {
    static func layout(frame: PageFrame, chrome: BenchChrome, body: SafeHTML, toolbar: SafeHTML) -> String {
        let html: SafeHTML = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
        <meta name="color-scheme" content="light dark">
        <meta name="theme-color" content="#f2f2f7" media="(prefers-color-scheme: light)">
        <meta name="theme-color" content="#000000" media="(prefers-color-scheme: dark)">
        <meta name="apple-mobile-web-app-capable" content="yes">
        <meta name="mobile-web-app-capable" content="yes">
        <meta name="apple-mobile-web-app-status-bar-style" content="default">
        <meta name="apple-mobile-web-app-title" content="Pocket">
        <meta name="csrf-token" content="\(chrome.csrfToken)">
        <meta name="pocket-sw" content="/sw.js">
        <title>\(frame.documentTitle)</title>
        <link rel="manifest" href="/manifest.webmanifest">
        <link rel="icon" href="\(chrome.favicon)" type="image/svg+xml">
        <link rel="icon" href="\(chrome.faviconPNG)" type="image/png" sizes="32x32">
        <link rel="apple-touch-icon" href="\(chrome.appleTouchIcon)">
        <link rel="stylesheet" href="\(chrome.stylesheet)">
        \(unwrap: chrome.appStylesheet, { "<link rel=\"stylesheet\" href=\"\($0)\">" })
        <script type="module" src="\(chrome.script)"></script>
        </head>
        <body>
        <a class="skip-link" href="#main">Skip to content</a>
        <div class="screen \(frame.screenClass)\(if: frame.largeTitle, " screen--large-title")" data-screen>
        <header class="navbar">
        <div class="navbar__bar">
        <div class="navbar__leading">\(unwrap: frame.back, { back in """
        <a class="navbar__back" href="\(back.href)" data-nav="back"><span class="navbar__chevron" aria-hidden="true"></span>\
        <span class="navbar__back-label">\(back.label)</span></a>
        """ })</div>
        <span class="navbar__inline-title" aria-hidden="true">\(frame.title)</span>
        <div class="navbar__actions"></div>
        </div>
        <h1 class="navbar__title" tabindex="-1">\(frame.title)</h1>
        </header>
        <main id="main" class="content" tabindex="-1">
        \(body)
        </main>
        \(toolbar)
        </div>
        <div id="pocket-live" class="visually-hidden" aria-live="polite"></div>
        </body>
        </html>
        """
        return html.text
    }

    static func csrf(_ chrome: BenchChrome) -> SafeHTML {
        "<input type=\"hidden\" name=\"\(chrome.csrfField)\" value=\"\(chrome.csrfToken)\">"
    }

    static func alertDialog(_ confirmation: Confirmation, chrome: BenchChrome) -> SafeHTML {
        let id = confirmation.id
        return """
        <dialog class="alert" id="\(id)" aria-labelledby="\(id)-title" aria-describedby="\(id)-message">
        <h2 class="alert__title" id="\(id)-title">\(confirmation.title)</h2>
        <p class="alert__message" id="\(id)-message">\(confirmation.message)</p>
        <form class="alert__actions" method="post" action="\(confirmation.action)">
        \(csrf(chrome))
        <button type="button" class="alert__button alert__button--cancel" commandfor="\(id)" command="close">\(confirmation.cancelLabel)</button>
        <button type="submit" class="alert__button\(if: confirmation.destructive, " alert__button--destructive")"\
        \(unwrap: confirmation.sound, { " data-sound=\"\($0)\"" })>\(confirmation.confirmLabel)</button>
        </form>
        </dialog>
        """
    }

    // MARK: Conference talk

    static func talkPage(_ envelope: BenchEnvelope<TalkPage.Split>) -> String {
        let page = envelope.page
        let body: SafeHTML = """
        \(unwrap: page.shell.banner, { banner in """
        <p class="conference-banner" id="conference-sample-banner" role="note"><span class="conference-banner__text">\(banner.text)</span> \
        <a class="conference-banner__action" href="\(banner.actionHref)">\(banner.actionLabel)</a></p>
        """ })
        <div class="split conference-split\(if: page.talk != nil, " split--detail")">
        <div class="split__primary" id="conference-list">
        \(unwrap: page.search, searchForm)
        <div id="conference-results">\(talkList(page.list))</div>
        </div>
        <div class="split__detail">
        \(unwrap: page.talk, { talk($0, chrome: envelope.chrome) }, else: "<p class=\"split__placeholder\">Select a talk</p>")
        </div>
        </div>
        """
        let toolbar: SafeHTML = """
        <nav class="toolbar conference-tabs" id="conference-tabs" aria-label="Conference sections">
        \(each: page.shell.tabs, { tab in """
        <a class="conference-tab" href="\(tab.href)" data-transition="none"\(if: tab.current, " aria-current=\"page\"")>\
        <span class="conference-tab__icon conference-tab__icon--\(tab.icon)" aria-hidden="true"></span>\
        <span class="conference-tab__label">\(tab.label)</span></a>
        """ })
        </nav>
        """
        return layout(frame: envelope.frame, chrome: envelope.chrome, body: body, toolbar: toolbar)
    }

    static func searchForm(_ search: TalkPage.SearchForm) -> SafeHTML {
        """
        <form class="conference-search" role="search" action="\(search.action)" method="get" data-live-search data-transition="none">
        <label class="visually-hidden" for="conference-search-field">Search talks and speakers</label>
        <input class="search-field" id="conference-search-field" type="search" name="q" value="\(search.query)" \
        placeholder="Titles and speakers" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="200">
        <button class="button button--tinted js-hidden" type="submit">Search</button>
        </form>
        \(unwrap: search.hint, { "<p class=\"conference-empty\">\($0)</p>" })
        """
    }

    static func talkList(_ list: TalkPage.TalkList) -> SafeHTML {
        """
        \(each: list.sections, { section in """
        <section class="list-section list-section--compact" id="\(section.anchor)"\
        \(if: section.header != nil, " aria-labelledby=\"\(section.anchor)-h\"")>
        \(unwrap: section.header, { "<h2 class=\"list-section__header\" id=\"\(section.anchor)-h\">\($0)</h2>" })
        <ul class="list" role="list">
        \(each: section.cells, { cell in """
        <li class="cell\(if: cell.selected, " cell--selected")" data-talk="\(cell.id)">\
        <a class="cell__main" href="\(cell.href)"\(if: cell.selected, " aria-current=\"page\"")>\
        <span class="cell__text"><span class="cell__title">\(cell.title)</span>\
        \(unwrap: cell.subtitle, { "<span class=\"cell__subtitle\">\($0)</span>" })</span>\
        \(unwrap: cell.detail, { "<span class=\"cell__detail\">\($0)</span>" })\
        <span class="cell__chevron" aria-hidden="true"></span></a></li>

        """ })\
        </ul>
        </section>

        """ })\
        \(unwrap: list.emptyMessage, { "<p class=\"conference-empty\" id=\"conference-empty\" role=\"status\">\($0)</p>" })
        \(unwrap: list.footer, { "<p class=\"list-section__footer conference-list-footer\">\($0)</p>" })
        """
    }

    static func talk(_ talk: TalkPage.Talk, chrome: BenchChrome) -> SafeHTML {
        let bookmark = talk.bookmark
        return """
        <article class="conference-talk" id="conference-talk" data-talk="\(talk.id)" aria-labelledby="conference-talk-title">
        <h2 class="split__title conference-talk__title" id="conference-talk-title">\(talk.title)</h2>
        <dl class="conference-facts">
        \(each: talk.facts, { fact in """
        <div class="conference-facts__row"><dt>\(fact.label)</dt>\
        <dd>\(unwrap: fact.href, { "<a href=\"\($0)\">\(fact.value)</a>" }, else: "\(fact.value)")</dd></div>

        """ })\
        </dl>
        <div class="conference-talk__actions">
        <form class="conference-bookmark" method="post" action="\(bookmark.action)">\(csrf(chrome))\
        <input type="hidden" name="bookmark" value="\(bookmark.newValue)"><input type="hidden" name="return" value="\(bookmark.returnTo)">\
        <button class="button button--tinted" type="submit" id="conference-bookmark-button" \
        aria-pressed="\(bookmark.isBookmarked ? "true" : "false")">\(bookmark.label)</button></form>
        \(unwrap: talk.talkURL, { """
        <a class="button button--tinted" id="conference-talk-link" href="\($0)" target="_blank" rel="noopener noreferrer">\
        Open on the Church’s Site</a>
        """ })
        \(each: talk.media, media)
        </div>
        <iframe class="conference-talk__frame" id="conference-talk-frame" src="\(talk.contentURL)" title="\(talk.frameTitle)" \
        sandbox referrerpolicy="no-referrer" loading="lazy"></iframe>
        <nav class="conference-talk__neighbours" aria-label="Previous and next talk">
        \(unwrap: talk.previous, { previous in """
        <a class="button button--plain conference-talk__previous" id="conference-talk-previous" href="\(previous.href)" rel="prev">\
        <span aria-hidden="true">‹ </span>Previous: \(previous.title)</a>
        """ })
        \(unwrap: talk.next, { next in """
        <a class="button button--plain conference-talk__next" id="conference-talk-next" href="\(next.href)" rel="next">\
        Next: \(next.title)<span aria-hidden="true"> ›</span></a>
        """ })
        </nav>
        <section class="list-section conference-citations" id="conference-talk-citations" aria-labelledby="conference-citations-h">
        <h3 class="list-section__header" id="conference-citations-h">Scriptures Cited</h3>
        \(if: talk.hasCitations, """
        <ul class="list" role="list">
        \(each: talk.citations, { citation in """
        <li class="cell"><a class="cell__main" href="\(citation.href)"><span class="cell__text">\
        <span class="cell__title">\(citation.reference)</span></span>\
        \(unwrap: citation.pageLabel, { "<span class=\"cell__detail\">\($0)</span>" })\
        <span class="cell__chevron" aria-hidden="true"></span></a></li>

        """ })\
        </ul>
        """, else: "<p class=\"conference-empty\">\(talk.citationsNote)</p>")
        </section>
        </article>
        """
    }

    static func media(_ media: TalkPage.Media) -> SafeHTML {
        if media.isLink {
            return """
            <a class="button button--tinted conference-media-link" href="\(media.url)" target="_blank" rel="noopener noreferrer">\(media.label)</a>
            """
        }
        guard media.audio || media.video else { return "" }
        let player: SafeHTML = media.audio
            ? "<audio class=\"conference-media__player\" controls preload=\"none\" src=\"\(media.url)\">"
            : "<video class=\"conference-media__player\" controls preload=\"none\" playsinline src=\"\(media.url)\">"
        let close: SafeHTML = media.audio ? "</audio>" : "</video>"
        return """
        <details class="conference-media"><summary class="button button--tinted">\(media.label)</summary>\(player)\
        \(media.label): <a href="\(media.url)">download the recording</a>\(close)</details>
        """
    }

    // MARK: Plates list

    static func platesPage(_ envelope: BenchEnvelope<PlatesPage.Model>) -> String {
        let page = envelope.page
        let chrome = envelope.chrome
        let body: SafeHTML = """
        \(if: page.complete, """
        <p class="plates-celebration" role="status"><span class="plates-celebration__confetti" aria-hidden="true"></span>\
        All \(page.total) states! What a trip.</p>
        """)
        <section class="list-section" aria-label="Game">
        <ul class="list" role="list">
        <li class="cell"><a class="cell__main" href="\(page.mapHref)"><span class="cell__text"><span class="cell__title">Map</span></span>\
        <span class="cell__detail">\(page.mapDetail)</span><span class="cell__chevron" aria-hidden="true"></span></a></li>
        <li class="cell"><a class="cell__main" href="\(page.tripsHref)"><span class="cell__text"><span class="cell__title">Trips</span></span>\
        <span class="cell__detail">\(page.tripsDetail)</span><span class="cell__chevron" aria-hidden="true"></span></a></li>
        </ul>
        <form class="list" method="post" action="\(page.settingsAction)" data-autosubmit>
        \(csrf(chrome))
        <input type="hidden" name="return" value="\(page.returnTo)">
        <div class="cell"><label class="cell__main"><span class="cell__text"><span class="cell__title">Sounds</span></span>\
        <input class="switch" type="checkbox" role="switch" name="sounds" id="plates-sounds"\(if: page.soundsOn, " checked")></label></div>
        <div class="cell"><label class="cell__main"><span class="cell__text"><span class="cell__title">Record where</span>\
        <span class="cell__subtitle">Save your location with each plate</span></span>\
        <input class="switch" type="checkbox" role="switch" name="location" id="plates-location"\(if: page.recordsLocation, " checked")>\
        </label></div>
        <div class="cell js-hidden"><div class="cell__main"><button class="button button--tinted" type="submit">Save Settings</button></div></div>
        </form>
        </section>
        <div class="indexed">
        <div class="indexed__sections" data-keep-focus>
        \(each: page.sections, { section in """
        <section class="list-section list-section--compact" id="\(section.anchor)" aria-labelledby="\(section.anchor)-h">
        <h2 class="list-section__header" id="\(section.anchor)-h">\(section.letter)</h2>
        <ul class="list" role="list">
        \(each: section.cells, { stateCell($0, page: page, chrome: chrome) })
        </ul>
        </section>

        """ })\
        </div>
        <nav class="section-index" aria-label="Section index">\
        \(each: page.sections, { "<a href=\"#\($0.anchor)\">\($0.letter)</a>" })</nav>
        </div>
        \(each: page.sections, { section in
            "\(each: section.cells, { cell in "\(unwrap: cell.confirmation, { alertDialog($0, chrome: chrome) })" })"
        })
        \(alertDialog(page.resetGame, chrome: chrome))
        """
        let toolbar: SafeHTML = """
        <footer class="toolbar" id="plates-toolbar">
        <span class="toolbar__item" id="plates-score" role="status">\(page.scoreText)</span>
        <span class="toolbar__flex"></span>
        <a class="bar-button" href="/plates/reset" data-dialog="reset-game" id="plates-reset">Reset Game</a>
        </footer>
        """
        return layout(frame: envelope.frame, chrome: chrome, body: body, toolbar: toolbar)
    }

    static func stateCell(_ cell: PlatesPage.Cell, page: PlatesPage.Model, chrome: BenchChrome) -> SafeHTML {
        let names: SafeHTML = "<span class=\"cell__text\"><span class=\"cell__title\">\(cell.name)</span><span class=\"cell__subtitle\">\(cell.nickname)</span></span>"
        let main: SafeHTML = cell.spotted
            ? """
              <a class="cell__main" href="\(cell.unspotHref)" data-dialog="unspot-\(cell.code)" \
              aria-label="\(cell.name), \(cell.nickname): spotted. Reset?">\(names)<span class="cell__badge" aria-hidden="true"></span></a>
              """
            : """
              <form class="cell__form" method="post" action="\(cell.spotAction)"\(if: page.recordsLocation, " data-geolocate")>\
              \(csrf(chrome))<button class="cell__main" type="submit"\(unwrap: page.spotSound, { " data-sound=\"\($0)\"" }) \
              aria-label="\(cell.name), \(cell.nickname): mark spotted">\(names)</button></form>
              """
        return """
        <li class="cell\(if: cell.spotted, " cell--bg-green cell--spotted")" id="\(cell.anchor)" data-state="\(cell.code)">
        \(main)
        <a class="cell__info" href="\(cell.infoHref)" aria-label="\(cell.infoLabel)"><span class="symbol symbol--info" aria-hidden="true"></span></a>
        </li>

        """
    }
}
