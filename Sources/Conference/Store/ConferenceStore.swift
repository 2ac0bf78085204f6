import Foundation
import PocketCore

/// The Conference app's read side, one method per screen. Every method works on both schema
/// eras; features the open database lacks throw `ConferenceError.citationsUnavailable` or return
/// empty lists, and `status().capabilities` says which to hide.
public protocol ConferenceStore: HealthChecked {
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
    /// Remembers that `person` opened a talk.
    func recordView(talkID: Int, by person: PersonID) async throws
    /// The talks `person` opened recently, newest first (talks the current database lacks are left out).
    func recentTalks(of person: PersonID, limit: Int) async throws -> [TalkSummary]
    /// Bookmarks a talk for `person` (true) or removes the bookmark (false); repeating either changes nothing.
    func setBookmark(_ isBookmarked: Bool, talkID: Int, for person: PersonID, at date: Date) async throws
    /// Applies a bookmark change from a phone's outbox by `BookmarkChange`'s rule; setting a
    /// bookmark needs a talk the database has (`ConferenceError.unknownTalk`).
    func apply(_ change: BookmarkChange, for person: PersonID) async throws -> BookmarkOutcome
    /// Whether `person` has bookmarked the talk.
    func isBookmarked(talkID: Int, by person: PersonID) async throws -> Bool
    /// The ids of the talks `person` bookmarked, newest first (including any the current database lacks).
    func bookmarkedTalkIDs(of person: PersonID) async throws -> [Int]
    /// The talks `person` bookmarked, newest first (talks the current database lacks are left out).
    func bookmarkedTalks(of person: PersonID) async throws -> [TalkSummary]
}

extension ConferenceStore {
    /// The first 25 talks matching what has been typed so far.
    public func search(_ text: String) async throws -> [SearchHit] {
        try await search(text, limit: 25)
    }

    /// The ten talks `person` opened most recently.
    public func recentTalks(of person: PersonID) async throws -> [TalkSummary] {
        try await recentTalks(of: person, limit: 10)
    }

    /// Bookmarks a talk for `person` (true) or removes the bookmark (false), dated now.
    public func setBookmark(_ isBookmarked: Bool, talkID: Int, for person: PersonID) async throws {
        try await setBookmark(isBookmarked, talkID: talkID, for: person, at: Date())
    }
}
