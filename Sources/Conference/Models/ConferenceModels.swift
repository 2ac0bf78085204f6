import Foundation

/// One general conference, as listed on the first screen.
public struct ConferenceSummary: Sendable, Equatable, Identifiable {
    /// `conference.ID`.
    public let id: Int
    /// Short name, e.g. "Apr 2025".
    public let abbr: String
    /// Long name, e.g. "April 2025 General Conference".
    public let description: String
    /// `conference.Year`, when set.
    public let year: Int?
    /// `conference.IssueDate` (the magazine issue), used for ordering.
    public let issueDate: String?
    /// `conference.Publication`, in databases that have it.
    public let publication: String?
    /// Talks listed in its sessions.
    public let talkCount: Int

    /// Creates a conference summary.
    public init(id: Int, abbr: String, description: String, year: Int?, issueDate: String?, publication: String?, talkCount: Int) {
        self.id = id
        self.abbr = abbr
        self.description = description
        self.year = year
        self.issueDate = issueDate
        self.publication = publication
        self.talkCount = talkCount
    }
}

/// The conference list screen: conferences newest first, and the footer.
public struct ConferenceList: Sendable, Equatable {
    /// Ordered by `IssueDate DESC`.
    public let conferences: [ConferenceSummary]
    /// Which database this is.
    public let footer: DatabaseFooter

    /// Creates a conference list.
    public init(conferences: [ConferenceSummary], footer: DatabaseFooter) {
        self.conferences = conferences
        self.footer = footer
    }
}

/// Printed pages of a talk in the conference issue.
public struct PageRange: Sendable, Equatable, CustomStringConvertible {
    /// First page.
    public let start: Int
    /// Last page (equal to `start` for a one-page talk).
    public let end: Int

    /// Creates a page range; an end before the start is read as a one-page talk.
    public init(start: Int, end: Int?) {
        self.start = start
        self.end = max(start, end ?? start)
    }

    /// "p. 4" or "pp. 7–9".
    public var description: String {
        start == end ? "p. \(start)" : "pp. \(start)–\(end)"
    }
}

/// A talk as one row of a list.
public struct TalkSummary: Sendable, Equatable, Identifiable {
    /// `talk.ID`.
    public let id: Int
    /// The title, entities decoded.
    public let title: String
    /// "GivenNames LastNames", entities decoded; empty when the speaker is unknown.
    public let speaker: String
    /// The speaker's id, when that speaker exists.
    public let speakerID: Int?
    /// Pages in the conference issue, when known.
    public let pages: PageRange?

    /// Creates a talk row.
    public init(id: Int, title: String, speaker: String, speakerID: Int?, pages: PageRange?) {
        self.id = id
        self.title = title
        self.speaker = speaker
        self.speakerID = speakerID
        self.pages = pages
    }
}

/// One session of a conference with its talks in order.
public struct SessionSection: Sendable, Equatable, Identifiable {
    /// `conf_session.ID`.
    public let id: Int
    /// The section header, e.g. "Saturday Morning Session".
    public let description: String
    /// `conf_session.Date`, when set.
    public let date: String?
    /// `conf_session.Sequence`.
    public let sequence: Int
    /// Talks ordered by `conference_talk.Sequence`.
    public let talks: [TalkSummary]

    /// Creates a session section.
    public init(id: Int, description: String, date: String?, sequence: Int, talks: [TalkSummary]) {
        self.id = id
        self.description = description
        self.date = date
        self.sequence = sequence
        self.talks = talks
    }
}

/// The conference screen: its sessions as sections.
public struct ConferenceDetail: Sendable, Equatable {
    /// The conference.
    public let conference: ConferenceSummary
    /// Sessions ordered by `Sequence`; sessions without talks are left out.
    public let sessions: [SessionSection]

    /// Creates a conference screen model.
    public init(conference: ConferenceSummary, sessions: [SessionSection]) {
        self.conference = conference
        self.sessions = sessions
    }
}

/// A link to a recording of a talk.
public struct MediaLink: Sendable, Equatable {
    /// What the link plays.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// Audio (`AudioUrl`, or `ListenURL` in older databases).
        case audio
        /// Video of unknown quality (`WatchURL` in older databases).
        case video
        /// Low-quality video (`VideoLowUrl`).
        case videoLow
        /// Medium-quality video (`VideoMedUrl`).
        case videoMedium
        /// High-quality video (`VideoHighUrl`).
        case videoHigh

        /// A button label.
        public var label: String {
            switch self {
            case .audio: return "Listen"
            case .video: return "Watch"
            case .videoLow: return "Watch (low quality)"
            case .videoMedium: return "Watch (medium quality)"
            case .videoHigh: return "Watch (high quality)"
            }
        }
    }

    /// What it plays.
    public let kind: Kind
    /// Where.
    public let url: URL

    /// Creates a media link.
    public init(kind: Kind, url: URL) {
        self.kind = kind
        self.url = url
    }
}

/// A scripture a talk cites.
public struct TalkCitation: Sendable, Equatable, Identifiable {
    /// `citation.ID`.
    public let id: Int
    /// `citation.BookID`.
    public let bookID: Int
    /// `citation.Chapter` (0 for books without chapters, such as a title page).
    public let chapter: Int
    /// `citation.Verses` as written, e.g. "11-24" or "1,3".
    public let verses: String?
    /// Readable reference, e.g. "Mosiah 3:19", "D&C 20", "JST Matt. 4:1".
    public let reference: String
    /// The page of the conference issue it appears on.
    public let page: Int?

    /// Creates a citation of a talk.
    public init(id: Int, bookID: Int, chapter: Int, verses: String?, reference: String, page: Int?) {
        self.id = id
        self.bookID = bookID
        self.chapter = chapter
        self.verses = verses
        self.reference = reference
        self.page = page
    }
}

/// A short reference to a conference, for a talk's header.
public struct ConferenceReference: Sendable, Equatable {
    /// `conference.ID`.
    public let id: Int
    /// Short name.
    public let abbr: String
    /// Long name.
    public let description: String

    /// Creates a conference reference.
    public init(id: Int, abbr: String, description: String) {
        self.id = id
        self.abbr = abbr
        self.description = description
    }
}

/// A short reference to a session.
public struct SessionReference: Sendable, Equatable {
    /// `conf_session.ID`.
    public let id: Int
    /// E.g. "Sunday Morning Session".
    public let description: String
    /// `conf_session.Date`.
    public let date: String?

    /// Creates a session reference.
    public init(id: Int, description: String, date: String?) {
        self.id = id
        self.description = description
        self.date = date
    }
}

/// The talk screen.
public struct TalkDetail: Sendable, Equatable, Identifiable {
    /// `talk.ID`.
    public let id: Int
    /// The title.
    public let title: String
    /// "GivenNames LastNames"; empty when unknown.
    public let speaker: String
    /// The speaker's id, when that speaker exists.
    public let speakerID: Int?
    /// The conference, when the talk belongs to one.
    public let conference: ConferenceReference?
    /// The session, when the talk belongs to one.
    public let session: SessionReference?
    /// `talk.Date`.
    public let date: String?
    /// `talk.Corpus` (G for general conference).
    public let corpus: String?
    /// Pages in the conference issue.
    public let pages: PageRange?
    /// The talk on the Church's site (`talk.URL`), when it is a web address.
    public let url: URL?
    /// The talk text on scriptures.byu.edu.
    public let contentURL: URL
    /// Audio and video, by schema era; empty when there are none.
    public let media: [MediaLink]
    /// The talk before it in the conference (crossing sessions).
    public let previous: TalkSummary?
    /// The talk after it in the conference.
    public let next: TalkSummary?
    /// Its citations in order; empty when the database has none.
    public let citations: [TalkCitation]

    /// Creates a talk screen model.
    public init(id: Int, title: String, speaker: String, speakerID: Int?, conference: ConferenceReference?, session: SessionReference?,
                date: String?, corpus: String?, pages: PageRange?, url: URL?, contentURL: URL, media: [MediaLink],
                previous: TalkSummary?, next: TalkSummary?, citations: [TalkCitation]) {
        self.id = id
        self.title = title
        self.speaker = speaker
        self.speakerID = speakerID
        self.conference = conference
        self.session = session
        self.date = date
        self.corpus = corpus
        self.pages = pages
        self.url = url
        self.contentURL = contentURL
        self.media = media
        self.previous = previous
        self.next = next
        self.citations = citations
    }

    /// The address of a talk's text on scriptures.byu.edu.
    public static func contentURL(talkID: Int) -> URL {
        URL(string: "http://scriptures.byu.edu/content/talks_ajax/\(talkID)") ?? URL(fileURLWithPath: "/")
    }
}

/// One search result.
public struct SearchHit: Sendable, Equatable, Identifiable {
    /// `talk.ID`.
    public let id: Int
    /// The title.
    public let title: String
    /// The speaker's name.
    public let speaker: String
    /// The conference's short name, when the talk belongs to one.
    public let conference: String?
    /// `talk.Date`.
    public let date: String?

    /// Creates a search result.
    public init(id: Int, title: String, speaker: String, conference: String?, date: String?) {
        self.id = id
        self.title = title
        self.speaker = speaker
        self.conference = conference
        self.date = date
    }
}
