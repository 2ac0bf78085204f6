/// A speaker as one row of the A–Z list.
public struct SpeakerSummary: Sendable, Equatable, Identifiable {
    /// `speaker.ID`.
    public let id: Int
    /// "GivenNames LastNames", entities decoded.
    public let name: String
    /// `speaker.Info` (e.g. "[Patr.]"), when set.
    public let info: String?
    /// Talks by this speaker.
    public let talkCount: Int

    /// Creates a speaker row.
    public init(id: Int, name: String, info: String?, talkCount: Int) {
        self.id = id
        self.name = name
        self.info = info
        self.talkCount = talkCount
    }
}

/// Speakers whose last names start with one letter.
public struct SpeakerSection: Sendable, Equatable, Identifiable {
    /// "A"…"Z", or "#" for names that do not start with a letter. Accents are ignored ("Á" is "A").
    public let letter: String
    /// Speakers ordered by last name, then given names.
    public let speakers: [SpeakerSummary]

    /// The letter.
    public var id: String { letter }

    /// Creates a section.
    public init(letter: String, speakers: [SpeakerSummary]) {
        self.letter = letter
        self.speakers = speakers
    }
}

/// A talk in a speaker's list.
public struct SpeakerTalk: Sendable, Equatable, Identifiable {
    /// `talk.ID`.
    public let id: Int
    /// The title.
    public let title: String
    /// The conference's short name, when the talk belongs to one.
    public let conference: String?
    /// `talk.Date`.
    public let date: String?

    /// Creates a speaker's talk.
    public init(id: Int, title: String, conference: String?, date: String?) {
        self.id = id
        self.title = title
        self.conference = conference
        self.date = date
    }
}

/// The speaker screen: their talks, newest first.
public struct SpeakerDetail: Sendable, Equatable {
    /// The speaker.
    public let speaker: SpeakerSummary
    /// Their talks, newest first.
    public let talks: [SpeakerTalk]

    /// Creates a speaker screen model.
    public init(speaker: SpeakerSummary, talks: [SpeakerTalk]) {
        self.speaker = speaker
        self.talks = talks
    }
}
