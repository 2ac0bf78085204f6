import Foundation
import Mustache
import PocketWeb

// Candidate (b): swift-mustache without reflection and without climbing. Every model gives its
// values through `MustacheParent.child(named:)` (a switch: a field the switch names must exist, or it
// does not compile), and the templates in bench/templates name the current object in every tag
// (`{{.title}}`, `{{#.citations}}`), so a name is looked up on the current object only. A value an
// inner template needs from an outer object (the CSRF token in every form, the Plates page's sound
// and location settings in every cell) is copied into the inner model instead.
//
// A name the switch does not know goes to `StrictLookup.unknown`, which records it: a test renders
// every page with sample models and fails when anything was recorded.

/// The names `child(named:)` was asked for and does not have, per type: a test failure, never text.
enum StrictLookup {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var names: [String] = []

    /// Records `name`, asked of `type`, and returns nil (Mustache renders nothing for it).
    static func unknown(_ name: String, in type: Any.Type) -> Any? {
        lock.withLock { names.append("\(String(reflecting: type).split(separator: ".", maxSplits: 1).last ?? "").\(name)") }
        return nil
    }

    /// The unknown names recorded since the last call, each once, and forgets them.
    static func drain() -> [String] {
        lock.withLock {
            defer { names.removeAll() }
            var seen: Set<String> = []
            return names.filter { seen.insert($0).inserted }
        }
    }
}

/// The CSRF field every form carries: `components/csrf` reads `.csrf.field` and `.csrf.token`.
struct StrictCSRF: MustacheParent, Sendable {
    let field: String
    let token: String

    func child(named name: String) -> Any? {
        switch name {
        case "field": field
        case "token": token
        default: StrictLookup.unknown(name, in: Self.self)
        }
    }
}

struct StrictEnvelope<Model: Sendable>: MustacheParent, Sendable {
    let frame: StrictFrame
    let page: Model
    let chrome: StrictChrome

    func child(named name: String) -> Any? {
        switch name {
        case "frame": frame
        case "page": page
        case "chrome": chrome
        default: StrictLookup.unknown(name, in: Self.self)
        }
    }
}

struct StrictBackLink: MustacheParent, Sendable {
    let label: String
    let href: String

    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "href": href
        default: StrictLookup.unknown(name, in: Self.self)
        }
    }
}

struct StrictFrame: MustacheParent, Sendable {
    let title: String
    let back: StrictBackLink?
    let largeTitle: Bool
    let screenClass: String
    let documentTitle: String

    init(_ frame: PageFrame) {
        title = frame.title
        back = frame.back.map { StrictBackLink(label: $0.label, href: $0.href) }
        largeTitle = frame.largeTitle
        screenClass = frame.screenClass
        documentTitle = frame.documentTitle
    }

    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "back": back
        case "largeTitle": largeTitle
        case "screenClass": screenClass
        case "documentTitle": documentTitle
        default: StrictLookup.unknown(name, in: Self.self)
        }
    }
}

struct StrictChrome: MustacheParent, Sendable {
    let chrome: BenchChrome

    func child(named name: String) -> Any? {
        switch name {
        case "csrfToken": chrome.csrfToken
        case "csrfField": chrome.csrfField
        case "stylesheet": chrome.stylesheet
        case "script": chrome.script
        case "favicon": chrome.favicon
        case "faviconPNG": chrome.faviconPNG
        case "appleTouchIcon": chrome.appleTouchIcon
        case "appStylesheet": chrome.appStylesheet
        case "version": chrome.version
        default: StrictLookup.unknown(name, in: Self.self)
        }
    }
}

// MARK: - Conference talk

enum StrictTalkPage {
    struct Tab: MustacheParent, Sendable {
        let tab: TalkPage.Tab

        func child(named name: String) -> Any? {
            switch name {
            case "label": tab.label
            case "href": tab.href
            case "icon": tab.icon
            case "current": tab.current
            default: StrictLookup.unknown(name, in: Self.self)
            }
        }
    }

    struct Banner: MustacheParent, Sendable {
        let banner: TalkPage.Banner

        func child(named name: String) -> Any? {
            switch name {
            case "text": banner.text
            case "actionLabel": banner.actionLabel
            case "actionHref": banner.actionHref
            default: StrictLookup.unknown(name, in: Self.self)
            }
        }
    }

    struct Shell: MustacheParent, Sendable {
        let tabs: [Tab]
        let banner: Banner?

        func child(named name: String) -> Any? {
            switch name {
            case "tabs": tabs
            case "banner": banner
            default: StrictLookup.unknown(name, in: Self.self)
            }
        }
    }

    struct Cell: MustacheParent, Sendable {
        let cell: TalkPage.Cell

        func child(named name: String) -> Any? {
            switch name {
            case "id": cell.id
            case "title": cell.title
            case "subtitle": cell.subtitle
            case "detail": cell.detail
            case "href": cell.href
            case "selected": cell.selected
            default: StrictLookup.unknown(name, in: Self.self)
            }
        }
    }

    /// `hasHeader`: the header's `aria-labelledby` needs the section's anchor, which a `{{#.header}}`
    /// section (the string) cannot reach.
    struct Section: MustacheParent, Sendable {
        let header: String?
        let hasHeader: Bool
        let anchor: String
        let cells: [Cell]

        func child(named name: String) -> Any? {
            switch name {
            case "header": header
            case "hasHeader": hasHeader
            case "anchor": anchor
            case "cells": cells
            default: StrictLookup.unknown(name, in: Self.self)
            }
        }
    }

    struct TalkList: MustacheParent, Sendable {
        let sections: [Section]
        let emptyMessage: String?
        let footer: String?

        func child(named name: String) -> Any? {
            switch name {
            case "sections": sections
            case "emptyMessage": emptyMessage
            case "footer": footer
            default: StrictLookup.unknown(name, in: Self.self)
            }
        }
    }

    /// `hasHref` for the same reason as `Section.hasHeader`: the link text is the fact's value.
    struct Fact: MustacheParent, Sendable {
        let fact: TalkPage.Fact

        func child(named name: String) -> Any? {
            switch name {
            case "label": fact.label
            case "value": fact.value
            case "href": fact.href
            case "hasHref": fact.href != nil
            default: StrictLookup.unknown(name, in: Self.self)
            }
        }
    }

    struct Media: MustacheParent, Sendable {
        let media: TalkPage.Media

        func child(named name: String) -> Any? {
            switch name {
            case "label": media.label
            case "url": media.url
            case "audio": media.audio
            case "video": media.video
            case "isLink": media.isLink
            default: StrictLookup.unknown(name, in: Self.self)
            }
        }
    }

    struct Neighbour: MustacheParent, Sendable {
        let neighbour: TalkPage.Neighbour

        func child(named name: String) -> Any? {
            switch name {
            case "title": neighbour.title
            case "href": neighbour.href
            default: StrictLookup.unknown(name, in: Self.self)
            }
        }
    }

    struct Citation: MustacheParent, Sendable {
        let citation: TalkPage.Citation

        func child(named name: String) -> Any? {
            switch name {
            case "reference": citation.reference
            case "href": citation.href
            case "pageLabel": citation.pageLabel
            default: StrictLookup.unknown(name, in: Self.self)
            }
        }
    }

    struct BookmarkForm: MustacheParent, Sendable {
        let form: TalkPage.BookmarkForm
        let csrf: StrictCSRF

        func child(named name: String) -> Any? {
            switch name {
            case "action": form.action
            case "newValue": form.newValue
            case "label": form.label
            case "isBookmarked": form.isBookmarked
            case "returnTo": form.returnTo
            case "csrf": csrf
            default: StrictLookup.unknown(name, in: Self.self)
            }
        }
    }

    struct Talk: MustacheParent, Sendable {
        let talk: TalkPage.Talk
        let facts: [Fact]
        let media: [Media]
        let previous: Neighbour?
        let next: Neighbour?
        let citations: [Citation]
        let bookmark: BookmarkForm

        init(_ talk: TalkPage.Talk, csrf: StrictCSRF) {
            self.talk = talk
            facts = talk.facts.map(Fact.init)
            media = talk.media.map(Media.init)
            previous = talk.previous.map(Neighbour.init)
            next = talk.next.map(Neighbour.init)
            citations = talk.citations.map(Citation.init)
            bookmark = BookmarkForm(form: talk.bookmark, csrf: csrf)
        }

        func child(named name: String) -> Any? {
            switch name {
            case "id": talk.id
            case "title": talk.title
            case "speaker": talk.speaker
            case "facts": facts
            case "contentURL": talk.contentURL
            case "frameTitle": talk.frameTitle
            case "talkURL": talk.talkURL
            case "media": media
            case "hasMedia": talk.hasMedia
            case "previous": previous
            case "next": next
            case "citations": citations
            case "hasCitations": talk.hasCitations
            case "citationsNote": talk.citationsNote
            case "bookmark": bookmark
            default: StrictLookup.unknown(name, in: Self.self)
            }
        }
    }

    struct SearchForm: MustacheParent, Sendable {
        let form: TalkPage.SearchForm

        func child(named name: String) -> Any? {
            switch name {
            case "action": form.action
            case "query": form.query
            case "hint": form.hint
            default: StrictLookup.unknown(name, in: Self.self)
            }
        }
    }

    struct Split: MustacheParent, Sendable {
        let shell: Shell
        let list: TalkList
        let talk: Talk?
        let search: SearchForm?

        func child(named name: String) -> Any? {
            switch name {
            case "shell": shell
            case "list": list
            case "talk": talk
            case "search": search
            default: StrictLookup.unknown(name, in: Self.self)
            }
        }
    }

    /// The same page as `envelope`, in these types.
    static func make(_ envelope: BenchEnvelope<TalkPage.Split>) -> StrictEnvelope<Split> {
        let page = envelope.page
        let csrf = StrictCSRF(field: envelope.chrome.csrfField, token: envelope.chrome.csrfToken)
        let split = Split(
            shell: Shell(tabs: page.shell.tabs.map(Tab.init), banner: page.shell.banner.map(Banner.init)),
            list: TalkList(sections: page.list.sections.map { section in
                Section(header: section.header, hasHeader: section.header != nil, anchor: section.anchor, cells: section.cells.map(Cell.init))
            }, emptyMessage: page.list.emptyMessage, footer: page.list.footer),
            talk: page.talk.map { Talk($0, csrf: csrf) },
            search: page.search.map(SearchForm.init)
        )
        return StrictEnvelope(frame: StrictFrame(envelope.frame), page: split, chrome: StrictChrome(chrome: envelope.chrome))
    }
}

// MARK: - Plates list

enum StrictPlatesPage {
    struct Confirmation: MustacheParent, Sendable {
        let confirmation: PocketWeb.Confirmation
        let csrf: StrictCSRF

        func child(named name: String) -> Any? {
            switch name {
            case "id": confirmation.id
            case "title": confirmation.title
            case "message": confirmation.message
            case "action": confirmation.action
            case "confirmLabel": confirmation.confirmLabel
            case "cancelLabel": confirmation.cancelLabel
            case "destructive": confirmation.destructive
            case "sound": confirmation.sound
            case "cancelHref": confirmation.cancelHref
            case "csrf": csrf
            default: StrictLookup.unknown(name, in: Self.self)
            }
        }
    }

    /// A row, with the page-wide values its form needs (today's template finds them by climbing).
    struct Cell: MustacheParent, Sendable {
        let cell: PlatesPage.Cell
        let confirmation: Confirmation?
        let spotSound: String?
        let recordsLocation: Bool
        let csrf: StrictCSRF

        func child(named name: String) -> Any? {
            switch name {
            case "code": cell.code
            case "name": cell.name
            case "nickname": cell.nickname
            case "spotted": cell.spotted
            case "anchor": cell.anchor
            case "spotAction": cell.spotAction
            case "unspotHref": cell.unspotHref
            case "infoHref": cell.infoHref
            case "infoLabel": cell.infoLabel
            case "confirmation": confirmation
            case "spotSound": spotSound
            case "recordsLocation": recordsLocation
            case "csrf": csrf
            default: StrictLookup.unknown(name, in: Self.self)
            }
        }
    }

    struct Section: MustacheParent, Sendable {
        let letter: String
        let anchor: String
        let cells: [Cell]

        func child(named name: String) -> Any? {
            switch name {
            case "letter": letter
            case "anchor": anchor
            case "cells": cells
            default: StrictLookup.unknown(name, in: Self.self)
            }
        }
    }

    struct Model: MustacheParent, Sendable {
        let model: PlatesPage.Model
        let sections: [Section]
        let resetGame: Confirmation
        let csrf: StrictCSRF

        func child(named name: String) -> Any? {
            switch name {
            case "sections": sections
            case "scoreText": model.scoreText
            case "score": model.score
            case "total": model.total
            case "complete": model.complete
            case "resetGame": resetGame
            case "spotSound": model.spotSound
            case "recordsLocation": model.recordsLocation
            case "soundsOn": model.soundsOn
            case "mapHref": model.mapHref
            case "mapDetail": model.mapDetail
            case "tripsHref": model.tripsHref
            case "tripsDetail": model.tripsDetail
            case "settingsAction": model.settingsAction
            case "returnTo": model.returnTo
            case "csrf": csrf
            default: StrictLookup.unknown(name, in: Self.self)
            }
        }
    }

    static func make(_ envelope: BenchEnvelope<PlatesPage.Model>) -> StrictEnvelope<Model> {
        let page = envelope.page
        let csrf = StrictCSRF(field: envelope.chrome.csrfField, token: envelope.chrome.csrfToken)
        let sections = page.sections.map { section in
            Section(letter: section.letter, anchor: section.anchor, cells: section.cells.map { cell in
                Cell(cell: cell, confirmation: cell.confirmation.map { Confirmation(confirmation: $0, csrf: csrf) },
                     spotSound: page.spotSound, recordsLocation: page.recordsLocation, csrf: csrf)
            })
        }
        let model = Model(model: page, sections: sections, resetGame: Confirmation(confirmation: page.resetGame, csrf: csrf), csrf: csrf)
        return StrictEnvelope(frame: StrictFrame(envelope.frame), page: model, chrome: StrictChrome(chrome: envelope.chrome))
    }
}

// MARK: - Template check

/// Every tag of the templates in `directory` that does not name the current object: a name without a
/// leading `.` (which Mustache looks up again in every enclosing object). Partials, blocks,
/// comments and `{{.}}` are fine.
func climbingTags(in directory: URL) throws -> [String] {
    var found: [String] = []
    let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
        guard file.pathExtension == "mustache" else { continue }
        let text = try String(contentsOf: file, encoding: .utf8)
        var rest = text[...]
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            var tag = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            rest = rest[close.upperBound...]
            if let sigil = tag.first, "#^/&".contains(sigil) { tag = String(tag.dropFirst()).trimmingCharacters(in: .whitespaces) }
            else if let sigil = tag.first, "!><$%{".contains(sigil) { continue }
            // `{{/actions}}`-style closers of blocks and the layout: their names are not looked up.
            if ["actions", "body", "toolbar", "layout"].contains(tag) { continue }
            if !tag.hasPrefix(".") {
                found.append("\(file.deletingPathExtension().lastPathComponent): {{\(tag)}}")
            }
        }
    }
    return found
}
