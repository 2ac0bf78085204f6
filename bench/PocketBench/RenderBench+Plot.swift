import Plot
import PocketWeb

// Candidate (c): the same two pages with JohnSundell's Plot, `Node`/`HTML` values only (no
// `Component` structs: Plot's Renderer reflects over a Component with `Mirror` to inject its
// environment). Every element's context is type-checked (an `<li>` only in a list, a `<summary>`
// only in `<details>`), and every value is a Swift property: a missing one does not compile.
//
// Plot 0.14.0 does not escape attribute values at all, and its text escaping passes existing
// entities through (`&amp;` stays `&amp;`, shown as "&"). So every value from a model goes through
// `.attr(_:_:)` (attributes) or `.esc(_:)` (text), which escape like Mustache's `{{x}}`; Plot's own
// `.class("…")` and `.text("…")` are used for constants only.

/// `text` with `& < > " '` escaped, as Mustache's `{{x}}` does (and unchanged, without copying,
/// when it has none of them).
func htmlEscaped(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return text }
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": escaped += "&amp;"
        case "<": escaped += "&lt;"
        case ">": escaped += "&gt;"
        case "\"": escaped += "&quot;"
        case "'": escaped += "&#39;"
        default: escaped.unicodeScalars.append(scalar)
        }
    }
    return escaped
}

extension Node {
    /// An attribute with an escaped value, kept when the value is empty.
    static func attr(_ name: String, _ value: String) -> Node {
        .attribute(Attribute(name: name, value: htmlEscaped(value), ignoreIfValueIsEmpty: false))
    }

    /// A boolean attribute: `checked`, `data-screen`.
    static func flag(_ name: String) -> Node {
        .attribute(Attribute(name: name, value: nil, ignoreIfValueIsEmpty: false))
    }

    /// Text from a model, escaped.
    static func esc(_ text: String) -> Node {
        .raw(htmlEscaped(text))
    }
}

extension Attribute {
    /// An attribute with an escaped value, for elements that take attributes only (`<meta>`, `<input>`).
    static func attr(_ name: String, _ value: String) -> Attribute {
        Attribute(name: name, value: htmlEscaped(value), ignoreIfValueIsEmpty: false)
    }

    static func flag(_ name: String) -> Attribute {
        Attribute(name: name, value: nil, ignoreIfValueIsEmpty: false)
    }
}

enum PlotPages {
    // MARK: Layout (layout.mustache)

    static func layout(frame: PageFrame, chrome: BenchChrome, body: Node<HTML.BodyContext>, toolbar: Node<HTML.BodyContext>) -> String {
        let screenClass = "screen \(frame.screenClass)" + (frame.largeTitle ? " screen--large-title" : "")
        let html = HTML(
            .attr("lang", "en"),
            .head(
                .meta(.attr("charset", "utf-8")),
                .meta(.attr("name", "viewport"), .attr("content", "width=device-width, initial-scale=1, viewport-fit=cover")),
                .meta(.attr("name", "color-scheme"), .attr("content", "light dark")),
                .meta(.attr("name", "theme-color"), .attr("content", "#f2f2f7"), .attr("media", "(prefers-color-scheme: light)")),
                .meta(.attr("name", "theme-color"), .attr("content", "#000000"), .attr("media", "(prefers-color-scheme: dark)")),
                .meta(.attr("name", "apple-mobile-web-app-capable"), .attr("content", "yes")),
                .meta(.attr("name", "mobile-web-app-capable"), .attr("content", "yes")),
                .meta(.attr("name", "apple-mobile-web-app-status-bar-style"), .attr("content", "default")),
                .meta(.attr("name", "apple-mobile-web-app-title"), .attr("content", "Pocket")),
                .meta(.attr("name", "csrf-token"), .attr("content", chrome.csrfToken)),
                .meta(.attr("name", "pocket-sw"), .attr("content", "/sw.js")),
                .element(named: "title", nodes: [.esc(frame.documentTitle)]),
                .link(.attr("rel", "manifest"), .attr("href", "/manifest.webmanifest")),
                .link(.attr("rel", "icon"), .attr("href", chrome.favicon), .attr("type", "image/svg+xml")),
                .link(.attr("rel", "icon"), .attr("href", chrome.faviconPNG), .attr("type", "image/png"), .attr("sizes", "32x32")),
                .link(.attr("rel", "apple-touch-icon"), .attr("href", chrome.appleTouchIcon)),
                .link(.attr("rel", "stylesheet"), .attr("href", chrome.stylesheet)),
                .unwrap(chrome.appStylesheet) { .link(.attr("rel", "stylesheet"), .attr("href", $0)) },
                .script(.attr("type", "module"), .attr("src", chrome.script))
            ),
            .body(
                .a(.class("skip-link"), .attr("href", "#main"), .text("Skip to content")),
                .div(
                    .attr("class", screenClass), .flag("data-screen"),
                    .header(
                        .class("navbar"),
                        .div(
                            .class("navbar__bar"),
                            .div(.class("navbar__leading"), .unwrap(frame.back) { back in
                                .a(.class("navbar__back"), .attr("href", back.href), .attr("data-nav", "back"),
                                   .span(.class("navbar__chevron"), .attr("aria-hidden", "true")),
                                   .span(.class("navbar__back-label"), .esc(back.label)))
                            }),
                            .span(.class("navbar__inline-title"), .attr("aria-hidden", "true"), .esc(frame.title)),
                            .div(.class("navbar__actions"))
                        ),
                        .h1(.class("navbar__title"), .attr("tabindex", "-1"), .esc(frame.title))
                    ),
                    .main(.attr("id", "main"), .class("content"), .attr("tabindex", "-1"), body),
                    toolbar
                ),
                .div(.attr("id", "pocket-live"), .class("visually-hidden"), .attr("aria-live", "polite"))
            )
        )
        return "<!doctype html>" + String(html.render().dropFirst("<!DOCTYPE html>".count))
    }

    /// components/csrf.mustache
    static func csrf(_ chrome: BenchChrome) -> Node<HTML.FormContext> {
        .input(.attr("type", "hidden"), .attr("name", chrome.csrfField), .attr("value", chrome.csrfToken))
    }

    /// components/alert-dialog.mustache
    static func alertDialog(_ confirmation: Confirmation, chrome: BenchChrome) -> Node<HTML.BodyContext> {
        let id = confirmation.id
        let nodes: [Node<HTML.BodyContext>] = [
            .class("alert"), .attr("id", id), .attr("aria-labelledby", id + "-title"), .attr("aria-describedby", id + "-message"),
            .h2(.class("alert__title"), .attr("id", id + "-title"), .esc(confirmation.title)),
            .p(.class("alert__message"), .attr("id", id + "-message"), .esc(confirmation.message)),
            .form(
                .class("alert__actions"), .attr("method", "post"), .attr("action", confirmation.action),
                csrf(chrome),
                .button(.attr("type", "button"), .class("alert__button alert__button--cancel"), .attr("commandfor", id),
                        .attr("command", "close"), .esc(confirmation.cancelLabel)),
                .button(.attr("type", "submit"),
                        .class(confirmation.destructive ? "alert__button alert__button--destructive" : "alert__button"),
                        .unwrap(confirmation.sound) { .attr("data-sound", $0) },
                        .esc(confirmation.confirmLabel))
            ),
        ]
        return .element(named: "dialog", nodes: nodes)
    }

    // MARK: Conference talk (conference/split, banner, talk-list, talk, tabbar)

    static func talkPage(_ envelope: BenchEnvelope<TalkPage.Split>) -> String {
        let page = envelope.page
        let body: Node<HTML.BodyContext> = .group(
            .unwrap(page.shell.banner) { banner in
                .p(.class("conference-banner"), .attr("id", "conference-sample-banner"), .attr("role", "note"),
                   .span(.class("conference-banner__text"), .esc(banner.text)), .raw(" "),
                   .a(.class("conference-banner__action"), .attr("href", banner.actionHref), .esc(banner.actionLabel)))
            },
            .div(
                .class(page.talk == nil ? "split conference-split" : "split conference-split split--detail"),
                .div(.class("split__primary"), .attr("id", "conference-list"),
                     .unwrap(page.search, searchForm),
                     .div(.attr("id", "conference-results"), talkList(page.list))),
                .div(.class("split__detail"),
                     .unwrap(page.talk, { talk($0, chrome: envelope.chrome) },
                             else: .p(.class("split__placeholder"), .text("Select a talk"))))
            )
        )
        let toolbar: Node<HTML.BodyContext> = .nav(
            .class("toolbar conference-tabs"), .attr("id", "conference-tabs"), .attr("aria-label", "Conference sections"),
            .forEach(page.shell.tabs) { tab in
                .a(.class("conference-tab"), .attr("href", tab.href), .attr("data-transition", "none"),
                   .if(tab.current, .attr("aria-current", "page")),
                   .span(.class("conference-tab__icon conference-tab__icon--" + tab.icon), .attr("aria-hidden", "true")),
                   .span(.class("conference-tab__label"), .esc(tab.label)))
            }
        )
        return layout(frame: envelope.frame, chrome: envelope.chrome, body: body, toolbar: toolbar)
    }

    static func searchForm(_ search: TalkPage.SearchForm) -> Node<HTML.BodyContext> {
        .group(
            .form(
                .class("conference-search"), .attr("role", "search"), .attr("action", search.action), .attr("method", "get"),
                .flag("data-live-search"), .attr("data-transition", "none"),
                .label(.class("visually-hidden"), .attr("for", "conference-search-field"), .text("Search talks and speakers")),
                .input(.class("search-field"), .attr("id", "conference-search-field"), .attr("type", "search"), .attr("name", "q"),
                       .attr("value", search.query), .attr("placeholder", "Titles and speakers"), .attr("autocomplete", "off"),
                       .attr("autocapitalize", "off"), .attr("spellcheck", "false"), .attr("maxlength", "200")),
                .button(.class("button button--tinted js-hidden"), .attr("type", "submit"), .text("Search"))
            ),
            .unwrap(search.hint) { .p(.class("conference-empty"), .esc($0)) }
        )
    }

    static func talkList(_ list: TalkPage.TalkList) -> Node<HTML.BodyContext> {
        .group(
            .forEach(list.sections) { section in
                .section(
                    .class("list-section list-section--compact"), .attr("id", section.anchor),
                    .if(section.header != nil, .attr("aria-labelledby", section.anchor + "-h")),
                    .unwrap(section.header) { .h2(.class("list-section__header"), .attr("id", section.anchor + "-h"), .esc($0)) },
                    .ul(.class("list"), .attr("role", "list"), .forEach(section.cells) { cell in
                        .li(.class(cell.selected ? "cell cell--selected" : "cell"), .attr("data-talk", String(cell.id)),
                            .a(.class("cell__main"), .attr("href", cell.href), .if(cell.selected, .attr("aria-current", "page")),
                               .span(.class("cell__text"),
                                     .span(.class("cell__title"), .esc(cell.title)),
                                     .unwrap(cell.subtitle) { .span(.class("cell__subtitle"), .esc($0)) }),
                               .unwrap(cell.detail) { .span(.class("cell__detail"), .esc($0)) },
                               .span(.class("cell__chevron"), .attr("aria-hidden", "true"))))
                    })
                )
            },
            .unwrap(list.emptyMessage) { .p(.class("conference-empty"), .attr("id", "conference-empty"), .attr("role", "status"), .esc($0)) },
            .unwrap(list.footer) { .p(.class("list-section__footer conference-list-footer"), .esc($0)) }
        )
    }

    static func talk(_ talk: TalkPage.Talk, chrome: BenchChrome) -> Node<HTML.BodyContext> {
        .article(
            .class("conference-talk"), .attr("id", "conference-talk"), .attr("data-talk", String(talk.id)),
            .attr("aria-labelledby", "conference-talk-title"),
            .h2(.class("split__title conference-talk__title"), .attr("id", "conference-talk-title"), .esc(talk.title)),
            .dl(.class("conference-facts"), .forEach(talk.facts) { fact in
                .div(.class("conference-facts__row"),
                     .dt(.esc(fact.label)),
                     .dd(.unwrap(fact.href, { .a(.attr("href", $0), .esc(fact.value)) }, else: .esc(fact.value))))
            }),
            .div(
                .class("conference-talk__actions"),
                bookmarkForm(talk.bookmark, chrome: chrome),
                .unwrap(talk.talkURL) {
                    .a(.class("button button--tinted"), .attr("id", "conference-talk-link"), .attr("href", $0), .attr("target", "_blank"),
                       .attr("rel", "noopener noreferrer"), .text("Open on the Church’s Site"))
                },
                .forEach(talk.media, media)
            ),
            .iframe(.class("conference-talk__frame"), .attr("id", "conference-talk-frame"), .attr("src", talk.contentURL),
                    .attr("title", talk.frameTitle), .flag("sandbox"), .attr("referrerpolicy", "no-referrer"), .attr("loading", "lazy")),
            .nav(
                .class("conference-talk__neighbours"), .attr("aria-label", "Previous and next talk"),
                .unwrap(talk.previous) { previous in
                    .a(.class("button button--plain conference-talk__previous"), .attr("id", "conference-talk-previous"),
                       .attr("href", previous.href), .attr("rel", "prev"),
                       .span(.attr("aria-hidden", "true"), .text("‹ ")), .esc("Previous: " + previous.title))
                },
                .unwrap(talk.next) { next in
                    .a(.class("button button--plain conference-talk__next"), .attr("id", "conference-talk-next"),
                       .attr("href", next.href), .attr("rel", "next"),
                       .esc("Next: " + next.title), .span(.attr("aria-hidden", "true"), .text(" ›")))
                }
            ),
            .section(
                .class("list-section conference-citations"), .attr("id", "conference-talk-citations"),
                .attr("aria-labelledby", "conference-citations-h"),
                .h3(.class("list-section__header"), .attr("id", "conference-citations-h"), .text("Scriptures Cited")),
                .if(talk.hasCitations,
                    .ul(.class("list"), .attr("role", "list"), .forEach(talk.citations) { citation in
                        .li(.class("cell"),
                            .a(.class("cell__main"), .attr("href", citation.href),
                               .span(.class("cell__text"), .span(.class("cell__title"), .esc(citation.reference))),
                               .unwrap(citation.pageLabel) { .span(.class("cell__detail"), .esc($0)) },
                               .span(.class("cell__chevron"), .attr("aria-hidden", "true"))))
                    }),
                    else: .p(.class("conference-empty"), .esc(talk.citationsNote)))
            )
        )
    }

    static func bookmarkForm(_ form: TalkPage.BookmarkForm, chrome: BenchChrome) -> Node<HTML.BodyContext> {
        .form(
            .class("conference-bookmark"), .attr("method", "post"), .attr("action", form.action),
            csrf(chrome),
            .input(.attr("type", "hidden"), .attr("name", "bookmark"), .attr("value", form.newValue)),
            .input(.attr("type", "hidden"), .attr("name", "return"), .attr("value", form.returnTo)),
            .button(.class("button button--tinted"), .attr("type", "submit"), .attr("id", "conference-bookmark-button"),
                    .attr("aria-pressed", form.isBookmarked ? "true" : "false"), .esc(form.label))
        )
    }

    /// A recording: a link, or an inline player with a download link inside for browsers without one.
    static func media(_ media: TalkPage.Media) -> Node<HTML.BodyContext> {
        let fallback: [Node<HTML.AnchorContext>] = [.attr("href", media.url), .text("download the recording")]
        if media.isLink {
            return .a(.class("button button--tinted conference-media-link"), .attr("href", media.url), .attr("target", "_blank"),
                      .attr("rel", "noopener noreferrer"), .esc(media.label))
        }
        if media.audio {
            return .details(.class("conference-media"), .summary(.class("button button--tinted"), .esc(media.label)),
                            .audio(.class("conference-media__player"), .flag("controls"), .attr("preload", "none"), .attr("src", media.url),
                                   .esc(media.label + ": "), .element(named: "a", nodes: fallback)))
        }
        if media.video {
            return .details(.class("conference-media"), .summary(.class("button button--tinted"), .esc(media.label)),
                            .video(.class("conference-media__player"), .flag("controls"), .attr("preload", "none"), .flag("playsinline"),
                                   .attr("src", media.url), .esc(media.label + ": "), .element(named: "a", nodes: fallback)))
        }
        return .empty
    }

    // MARK: Plates list (plates/list, components/alert-dialog, components/csrf)

    static func platesPage(_ envelope: BenchEnvelope<PlatesPage.Model>) -> String {
        let page = envelope.page
        let chrome = envelope.chrome
        let body: Node<HTML.BodyContext> = .group(
            .if(page.complete,
                .p(.class("plates-celebration"), .attr("role", "status"),
                   .span(.class("plates-celebration__confetti"), .attr("aria-hidden", "true")),
                   .esc("All \(page.total) states! What a trip."))),
            .section(
                .class("list-section"), .attr("aria-label", "Game"),
                .ul(.class("list"), .attr("role", "list"),
                    linkCell(title: "Map", detail: page.mapDetail, href: page.mapHref),
                    linkCell(title: "Trips", detail: page.tripsDetail, href: page.tripsHref)),
                .form(
                    .class("list"), .attr("method", "post"), .attr("action", page.settingsAction), .flag("data-autosubmit"),
                    csrf(chrome),
                    .input(.attr("type", "hidden"), .attr("name", "return"), .attr("value", page.returnTo)),
                    settingsSwitch(title: "Sounds", subtitle: nil, name: "sounds", id: "plates-sounds", on: page.soundsOn),
                    settingsSwitch(title: "Record where", subtitle: "Save your location with each plate", name: "location",
                                   id: "plates-location", on: page.recordsLocation),
                    .div(.class("cell js-hidden"), .div(.class("cell__main"),
                                                        .button(.class("button button--tinted"), .attr("type", "submit"), .text("Save Settings"))))
                )
            ),
            .div(
                .class("indexed"),
                .div(.class("indexed__sections"), .flag("data-keep-focus"), .forEach(page.sections) { section in
                    .section(
                        .class("list-section list-section--compact"), .attr("id", section.anchor), .attr("aria-labelledby", section.anchor + "-h"),
                        .h2(.class("list-section__header"), .attr("id", section.anchor + "-h"), .esc(section.letter)),
                        .ul(.class("list"), .attr("role", "list"), .forEach(section.cells) { stateCell($0, page: page, chrome: chrome) })
                    )
                }),
                .nav(.class("section-index"), .attr("aria-label", "Section index"), .forEach(page.sections) { section in
                    .a(.attr("href", "#" + section.anchor), .esc(section.letter))
                })
            ),
            .forEach(page.sections) { section in
                .forEach(section.cells) { cell in .unwrap(cell.confirmation) { alertDialog($0, chrome: chrome) } }
            },
            alertDialog(page.resetGame, chrome: chrome)
        )
        let toolbar: Node<HTML.BodyContext> = .footer(
            .class("toolbar"), .attr("id", "plates-toolbar"),
            .span(.class("toolbar__item"), .attr("id", "plates-score"), .attr("role", "status"), .esc(page.scoreText)),
            .span(.class("toolbar__flex")),
            .a(.class("bar-button"), .attr("href", "/plates/reset"), .attr("data-dialog", "reset-game"), .attr("id", "plates-reset"),
               .text("Reset Game"))
        )
        return layout(frame: envelope.frame, chrome: chrome, body: body, toolbar: toolbar)
    }

    static func linkCell(title: String, detail: String, href: String) -> Node<HTML.ListContext> {
        .li(.class("cell"), .a(.class("cell__main"), .attr("href", href),
                               .span(.class("cell__text"), .span(.class("cell__title"), .text(title))),
                               .span(.class("cell__detail"), .esc(detail)),
                               .span(.class("cell__chevron"), .attr("aria-hidden", "true"))))
    }

    static func settingsSwitch(title: String, subtitle: String?, name: String, id: String, on: Bool) -> Node<HTML.FormContext> {
        .div(.class("cell"), .label(
            .class("cell__main"),
            .span(.class("cell__text"), .span(.class("cell__title"), .text(title)),
                  .unwrap(subtitle) { .span(.class("cell__subtitle"), .text($0)) }),
            .input(.class("switch"), .attr("type", "checkbox"), .attr("role", "switch"), .attr("name", name), .attr("id", id),
                   on ? .flag("checked") : .empty)
        ))
    }

    static func stateCell(_ cell: PlatesPage.Cell, page: PlatesPage.Model, chrome: BenchChrome) -> Node<HTML.ListContext> {
        let names: [Node<HTML.BodyContext>] = [.span(.class("cell__title"), .esc(cell.name)), .span(.class("cell__subtitle"), .esc(cell.nickname))]
        return .li(
            .class(cell.spotted ? "cell cell--bg-green cell--spotted" : "cell"), .attr("id", cell.anchor), .attr("data-state", cell.code),
            cell.spotted
                ? .a(.class("cell__main"), .attr("href", cell.unspotHref), .attr("data-dialog", "unspot-" + cell.code),
                     .attr("aria-label", "\(cell.name), \(cell.nickname): spotted. Reset?"),
                     .span(.class("cell__text"), .group(names)), .span(.class("cell__badge"), .attr("aria-hidden", "true")))
                : .form(.class("cell__form"), .attr("method", "post"), .attr("action", cell.spotAction),
                        .if(page.recordsLocation, .flag("data-geolocate")),
                        csrf(chrome),
                        .button(.class("cell__main"), .attr("type", "submit"), .unwrap(page.spotSound) { .attr("data-sound", $0) },
                                .attr("aria-label", "\(cell.name), \(cell.nickname): mark spotted"),
                                .span(.class("cell__text"), .group(names)))),
            .a(.class("cell__info"), .attr("href", cell.infoHref), .attr("aria-label", cell.infoLabel),
               .span(.class("symbol symbol--info"), .attr("aria-hidden", "true")))
        )
    }
}
