import Conference
import Foundation

/// A list of talks, the left column of the split view: a conference's sessions, a speaker's talks,
/// the talks citing a verse, or search results. The same list is shown beside a talk opened from it.
struct TalkList: Sendable, Hashable {
    struct Cell: Sendable, Hashable {
        let id: Int
        let title: String
        let subtitle: String?
        let detail: String?
        let href: String
        let selected: Bool
    }

    struct Section: Sendable, Hashable {
        let header: String?
        let anchor: String
        let cells: [Cell]
    }

    /// The list's title (the navigation bar of its screen, the back button of a talk opened from it).
    let title: String
    /// Where the list itself is.
    let href: String
    /// Where its screen's back button goes, and the label.
    let parent: BackLink
    let sections: [Section]
    /// Shown instead of sections when there are none (nothing when it is empty, as on Search before typing).
    let emptyMessage: String?
    /// A line under the list.
    let footer: String?

    init(title: String, href: String, parent: BackLink, sections: [Section], emptyMessage: String, footer: String? = nil) {
        self.title = title
        self.href = href
        self.parent = parent
        self.sections = sections
        self.emptyMessage = sections.isEmpty ? emptyMessage.nonEmpty : nil
        self.footer = footer
    }

    /// The same list with `talkID` marked as the one shown beside it.
    func selecting(_ talkID: Int) -> TalkList {
        let marked = sections.map { section in
            Section(header: section.header, anchor: section.anchor, cells: section.cells.map {
                Cell(id: $0.id, title: $0.title, subtitle: $0.subtitle, detail: $0.detail, href: $0.href, selected: $0.id == talkID)
            })
        }
        return TalkList(title: title, href: href, parent: parent, sections: marked, emptyMessage: emptyMessage ?? "", footer: footer)
    }
}

// MARK: - Builders

extension TalkList {
    /// A conference's talks, one section per session, each with title and speaker.
    init(conference detail: ConferenceDetail) {
        let source = TalkListSource.conference(detail.conference.id)
        self.init(
            title: detail.conference.abbr,
            href: ConferenceRoute.conference.href(detail.conference.id),
            parent: BackLink(label: "Conferences", href: ConferenceRoute.conferences.href()),
            sections: detail.sessions.map { session in
                Section(header: session.description, anchor: "session-\(session.id)", cells: session.talks.map { talk in
                    Cell(id: talk.id, title: talk.title, subtitle: talk.speaker.nonEmpty, detail: nil,
                         href: ConferenceRoute.talkHref(talk.id, from: source), selected: false)
                })
            },
            emptyMessage: "This conference has no talks in this database.",
            footer: detail.conference.description
        )
    }

    /// A speaker's talks, newest first.
    init(speaker detail: SpeakerDetail) {
        let source = TalkListSource.speaker(detail.speaker.id)
        let cells = detail.talks.map { talk in
            Cell(id: talk.id, title: talk.title, subtitle: [talk.conference, talk.conference == nil ? ConferenceFormat.date(talk.date) : nil]
                    .compactMap { $0 }.joined(separator: " · ").nonEmpty,
                 detail: nil, href: ConferenceRoute.talkHref(talk.id, from: source), selected: false)
        }
        self.init(
            title: detail.speaker.name,
            href: ConferenceRoute.speaker.href(detail.speaker.id),
            parent: BackLink(label: "Speakers", href: ConferenceRoute.speakers.href()),
            sections: cells.isEmpty ? [] : [Section(header: ConferenceFormat.count(cells.count, "talk"), anchor: "talks", cells: cells)],
            emptyMessage: "No talks by this speaker are in this database.",
            footer: detail.speaker.info
        )
    }

    /// The talks citing a verse (or a whole chapter): conference, speaker and title.
    init(verse detail: VerseCitations) {
        let source = TalkListSource.verse(book: detail.book.id, chapter: detail.chapter, verse: detail.verse)
        let cells = detail.talks.map { talk in
            Cell(id: talk.talkID, title: talk.title,
                 subtitle: [talk.conference, talk.speaker.nonEmpty].compactMap { $0 }.joined(separator: " · ").nonEmpty,
                 detail: talk.reference, href: ConferenceRoute.talkHref(talk.talkID, from: source), selected: false)
        }
        self.init(
            title: detail.title,
            href: ConferenceRoute.verseHref(book: detail.book.id, chapter: detail.chapter, verse: detail.verse),
            parent: BackLink(label: CitationIndex.chapterTitle(book: detail.book, chapter: detail.chapter),
                             href: ConferenceRoute.chapter.href(detail.book.id, detail.chapter)),
            sections: cells.isEmpty ? [] : [Section(header: "Cited in " + ConferenceFormat.count(cells.count, "talk"), anchor: "talks", cells: cells)],
            emptyMessage: "No talk in this database cites \(detail.title)."
        )
    }

    /// Search results for `query`.
    init(search query: String, hits: [SearchHit]) {
        let source = TalkListSource.search(query)
        let cells = hits.map { hit in
            Cell(id: hit.id, title: hit.title,
                 subtitle: [hit.speaker.nonEmpty, hit.conference].compactMap { $0 }.joined(separator: " · ").nonEmpty,
                 detail: nil, href: ConferenceRoute.talkHref(hit.id, from: source), selected: false)
        }
        self.init(
            title: "Search",
            href: ConferenceRoute.searchHref(query),
            parent: BackLink(label: "Pocket", href: ShellRoute.home.href()),
            sections: cells.isEmpty ? [] : [Section(header: ConferenceFormat.count(cells.count, "talk"), anchor: "results", cells: cells)],
            emptyMessage: "No talk title or speaker matches “\(query)”."
        )
    }
}

extension String {
    /// The text, or nil when it is empty, so an empty value shows nothing rather than an empty element.
    var nonEmpty: String? { isEmpty ? nil : self }
}
