import Conference
import Foundation

/// The page models of the Conference screens; each carries the shell (tab bar, sample banner).
enum ConferenceScreens {
    /// A plain row: title, subtitle, a detail on the right, a link.
    struct Row: Sendable, Hashable {
        let title: String
        let subtitle: String?
        let detail: String?
        let href: String
    }

    /// "Conferences": newest first, the person's recently opened and bookmarked talks, and the database footer.
    struct Conferences: Sendable, Hashable {
        let shell: ConferenceShell
        let rows: [Row]
        let recent: [Row]
        let bookmarks: [Row]
        let footer: String
        let warning: String?

        init(shell: ConferenceShell, list: ConferenceList, recent: [TalkSummary], bookmarks: [TalkSummary] = [], warning: String?) {
            self.shell = shell
            rows = list.conferences.map { conference in
                Row(title: conference.abbr, subtitle: conference.description,
                    detail: conference.year.map(String.init), href: ConferenceRoute.conference.href(conference.id))
            }
            self.recent = recent.map(Self.talkRow)
            self.bookmarks = bookmarks.map(Self.talkRow)
            footer = Self.footer(list.footer)
            self.warning = warning
        }

        /// A talk as a row: its title, the speaker beneath, a link to the talk.
        static func talkRow(_ talk: TalkSummary) -> Row {
            Row(title: talk.title, subtitle: talk.speaker.isEmpty ? nil : talk.speaker, detail: nil, href: ConferenceRoute.talk.href(talk.id))
        }

        /// "Database version 53 · Last updated 2025-10-05 00:00:00".
        static func footer(_ footer: DatabaseFooter) -> String {
            [footer.label, footer.lastUpdated.map { "Last updated \($0)" }].compactMap { $0 }.joined(separator: " · ")
        }
    }

    /// A screen with a talk list on the left and a talk (or a placeholder) on the right.
    struct Split: Sendable, Hashable {
        let shell: ConferenceShell
        let list: TalkList
        let talk: ConferenceTalk?
        let search: SearchForm?
        /// The "Keep Offline" bar, on a conference's own talk list.
        let keep: KeepOffline?
        /// The versioned URL of `js/conference/app.js`, which runs the bar and says when search needs the server.
        let module: String?

        init(shell: ConferenceShell, list: TalkList, talk: ConferenceTalk? = nil, search: SearchForm? = nil, keep: KeepOffline? = nil,
             module: String? = nil) {
            self.shell = shell
            self.list = talk.map { list.selecting($0.id) } ?? list
            self.talk = talk
            self.search = search
            self.keep = keep
            self.module = module
        }
    }

    /// "Keep Offline" for a conference: where its keep list is, and the page it keeps.
    struct KeepOffline: Sendable, Hashable {
        /// `ConferenceRoute.keep(id)`.
        let listURL: String
        /// The conference's talk list, the entry the client checks to say it is kept.
        let pageURL: String

        init(conference id: Int) {
            listURL = ConferenceRoute.keep.href(id)
            pageURL = ConferenceRoute.conference.href(id)
        }
    }

    /// The search field: a GET form that updates the results as you type (and works without JavaScript).
    struct SearchForm: Sendable, Hashable {
        let query: String
        let hint: String?

        init(query: String) {
            self.query = query
            hint = query.isEmpty ? "Type a word of a talk’s title or a speaker’s name." : nil
        }
    }

    /// A screen of the citation index (books, a book's chapters, a chapter's verses): sections of
    /// rows, each with how often it is cited.
    struct Citations: Sendable, Hashable {
        let shell: ConferenceShell
        let intro: String?
        let sections: [CitationIndex.Section]
        let emptyMessage: String?
    }

    /// "Speakers": A–Z sections with a section index.
    struct Speakers: Sendable, Hashable {
        struct Section: Sendable, Hashable {
            let letter: String
            let anchor: String
            let rows: [Row]
        }

        let shell: ConferenceShell
        let sections: [Section]
        let emptyMessage: String?

        init(shell: ConferenceShell, sections: [SpeakerSection]) {
            self.shell = shell
            self.sections = sections.map { section in
                let anchor = section.letter == "#" ? "section-other" : "section-\(section.letter)"
                return Section(letter: section.letter, anchor: anchor, rows: section.speakers.map { speaker in
                    Row(title: speaker.name, subtitle: speaker.info, detail: String(speaker.talkCount), href: ConferenceRoute.speaker.href(speaker.id))
                })
            }
            emptyMessage = sections.isEmpty ? "This database has no speakers." : nil
        }
    }
}
