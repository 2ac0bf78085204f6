import Conference
import Foundation

/// The talk screen: its facts, the text (Pocket's stored copy) in a sandboxed frame, media, neighbours and citations.
struct ConferenceTalk: Sendable, Hashable {
    /// A line of the facts list (speaker, conference, date…), linked when it has a screen of its own.
    struct Fact: Sendable, Hashable {
        let label: String
        let value: String
        let href: String?
    }

    /// A recording: an inline player when the address is a media file, else a link to its page.
    struct Media: Sendable, Hashable {
        /// How the recording is offered.
        enum Kind: Sendable, Hashable {
            case audio, video, link
        }

        let label: String
        let url: String
        let kind: Kind
    }

    /// The talk before or after this one in its conference.
    struct Neighbour: Sendable, Hashable {
        let title: String
        let href: String
    }

    /// A passage the talk cites, linked to the talks citing the same verse.
    struct Citation: Sendable, Hashable {
        let reference: String
        let href: String
        /// "p. 12", or nil when the data has no page (then nothing is shown in its place).
        let pageLabel: String?
    }

    /// The Bookmark / Remove Bookmark button: a form that sends the new value and returns to this page.
    struct BookmarkForm: Sendable, Hashable {
        /// The button's words: the page's script switches between them when a tap changes the bookmark.
        static let addLabel = "Bookmark", removeLabel = "Remove Bookmark"

        /// The talk, for conference/app.js (which so never reads an id out of `action`).
        let talk: Int
        let action: String
        let newValue: String
        let label: String
        let isBookmarked: Bool
        let returnTo: String
        /// Where the phone's outbox sends a bookmark change.
        let changes = ConferenceRoute.bookmarkChanges.href()
    }

    let id: Int
    let title: String
    let facts: [Fact]
    /// The talk's text on Pocket's own origin (`ConferenceRoute.talkText`), fetched and stored on first view.
    let textURL: String
    let frameTitle: String
    let talkURL: String?
    let media: [Media]
    let previous: Neighbour?
    let next: Neighbour?
    let citations: [Citation]
    let citationsNote: String
    let bookmark: BookmarkForm

    /// Builds the screen for `talk` opened from `source`.
    init(_ talk: TalkDetail, from source: TalkListSource?, citationsAvailable: Bool, isBookmarked: Bool = false) {
        id = talk.id
        title = talk.title
        var facts: [Fact] = []
        if !talk.speaker.isEmpty {
            facts.append(Fact(label: "Speaker", value: talk.speaker, href: talk.speakerID.map { ConferenceRoute.speaker.href($0) }))
        }
        if let conference = talk.conference {
            facts.append(Fact(label: "Conference", value: conference.description, href: ConferenceRoute.conference.href(conference.id)))
        }
        if let session = talk.session { facts.append(Fact(label: "Session", value: session.description, href: nil)) }
        if let date = ConferenceFormat.date(talk.date ?? talk.session?.date) { facts.append(Fact(label: "Date", value: date, href: nil)) }
        if let pages = talk.pages { facts.append(Fact(label: "Pages", value: pages.description, href: nil)) }
        self.facts = facts

        textURL = ConferenceRoute.talkText.href(talk.id)
        frameTitle = "Text of “\(talk.title)”"
        talkURL = talk.url.flatMap { ["http", "https"].contains($0.scheme?.lowercased() ?? "") ? $0.absoluteString : nil }
        media = talk.media.compactMap(Self.media)
        // Neighbours stay in the list the talk was opened from only for its own conference, where they are defined.
        let keep: TalkListSource? = if case .conference = source { source } else { nil }
        previous = talk.previous.map { Neighbour(title: $0.title, href: ConferenceRoute.talkHref($0.id, from: keep)) }
        next = talk.next.map { Neighbour(title: $0.title, href: ConferenceRoute.talkHref($0.id, from: keep)) }
        citations = talk.citations.map { citation in
            let verse = citation.verses.flatMap(Self.firstVerse)
            let href = verse.map { ConferenceRoute.verseHref(book: citation.bookID, chapter: citation.chapter, verse: $0) }
                ?? ConferenceRoute.verseHref(book: citation.bookID, chapter: citation.chapter, verse: nil)
            return Citation(reference: citation.reference, href: href, pageLabel: citation.page.map { "p. \($0)" })
        }
        citationsNote = citationsAvailable ? "This talk cites no scripture in the index." : "This database has no citation index."
        bookmark = BookmarkForm(talk: talk.id, action: ConferenceRoute.bookmark.href(talk.id), newValue: isBookmarked ? "0" : "1",
                                label: isBookmarked ? BookmarkForm.removeLabel : BookmarkForm.addLabel, isBookmarked: isBookmarked,
                                returnTo: ConferenceRoute.talkHref(talk.id, from: source))
    }

    /// The first verse number of "11-24", "1,3" or "7"; nil when there is none.
    static func firstVerse(_ verses: String) -> Int? {
        let digits = verses.trimmingCharacters(in: .whitespaces).prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : Int(digits)
    }

    private static let audioExtensions: Set<String> = ["mp3", "m4a", "aac", "oga", "ogg", "wav", "opus"]
    private static let videoExtensions: Set<String> = ["mp4", "m4v", "mov", "webm", "ogv"]

    private static func media(_ link: MediaLink) -> Media? {
        guard let scheme = link.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        let ext = link.url.pathExtension.lowercased()
        let isAudio = audioExtensions.contains(ext) || (link.kind == .audio && ext == "mp4")
        let kind: Media.Kind = isAudio ? .audio : videoExtensions.contains(ext) ? .video : .link
        return Media(label: link.kind.label, url: link.url.absoluteString, kind: kind)
    }
}
