/// The Conference app's read side, one method per screen. Every method works on both schema
/// eras; features the open database lacks throw `ConferenceError.citationsUnavailable` or return
/// empty lists, and `status().capabilities` says which to hide.
public protocol ConferenceStore: Sendable {
    /// Which database is in use (sample or installed), its counts and capabilities.
    func status() async throws -> DatabaseStatus
    /// Conferences newest first (`ORDER BY IssueDate DESC`) and the footer line.
    func conferences() async throws -> ConferenceList
    /// A conference's talks in sections by session (ordered by session, then talk sequence).
    func conference(id: Int) async throws -> ConferenceDetail
    /// A talk: speaker, session, pages, links, media by era, previous/next talk and its citations.
    func talk(id: Int) async throws -> TalkDetail
    /// The citation index's first screen: volumes with their books and citation counts.
    func citationVolumes() async throws -> [VolumeCitations]
    /// A book's cited chapters with counts.
    func citations(bookID: Int) async throws -> BookCitations
    /// A chapter's cited verses with counts.
    func citations(bookID: Int, chapter: Int) async throws -> ChapterCitations
    /// The talks citing a verse (nil: citing the whole chapter), newest first.
    func citations(bookID: Int, chapter: Int, verse: Int?) async throws -> VerseCitations
    /// Speakers A–Z in sections by the first letter of their last name.
    func speakers() async throws -> [SpeakerSection]
    /// A speaker and their talks, newest first.
    func speaker(id: Int) async throws -> SpeakerDetail
    /// Talks matching what has been typed so far (title and speaker, word prefixes, accents ignored).
    func search(_ text: String, limit: Int) async throws -> [SearchHit]
    /// Remembers that a talk was opened.
    func recordView(talkID: Int) async throws
    /// Recently opened talks, newest first (talks the current database lacks are left out).
    func recentTalks(limit: Int) async throws -> [TalkSummary]
}

extension ConferenceStore {
    /// The first 25 talks matching what has been typed so far.
    public func search(_ text: String) async throws -> [SearchHit] {
        try await search(text, limit: 25)
    }

    /// The ten most recently opened talks.
    public func recentTalks() async throws -> [TalkSummary] {
        try await recentTalks(limit: 10)
    }
}
