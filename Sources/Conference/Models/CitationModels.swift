/// A volume (Old Testament, …, Pearl of Great Price) or a book in it.
public struct BookReference: Sendable, Equatable, Identifiable {
    /// `book.ID` (1–5 for volumes).
    public let id: Int
    /// `book.FullName`, entities decoded, e.g. "Joseph Smith—History".
    public let name: String
    /// `book.CiteAbbr`, entities decoded, e.g. "D&C" or "Gen.".
    public let citeAbbr: String
    /// `book.NumChapters` (0 for a title page or introduction).
    public let chapterCount: Int

    /// Creates a book reference.
    public init(id: Int, name: String, citeAbbr: String, chapterCount: Int) {
        self.id = id
        self.name = name
        self.citeAbbr = citeAbbr
        self.chapterCount = chapterCount
    }
}

/// A book and how often it is cited.
public struct BookCount: Sendable, Equatable, Identifiable {
    /// The book.
    public let book: BookReference
    /// Citations of it.
    public let citationCount: Int

    /// The book's id.
    public var id: Int { book.id }

    /// Creates a book count.
    public init(book: BookReference, citationCount: Int) {
        self.book = book
        self.citationCount = citationCount
    }
}

/// The citation index's first screen: each volume with its books and their counts.
public struct VolumeCitations: Sendable, Equatable, Identifiable {
    /// The volume.
    public let volume: BookReference
    /// Citations of all its books.
    public let citationCount: Int
    /// Its books in canonical (id) order, cited or not.
    public let books: [BookCount]

    /// The volume's id.
    public var id: Int { volume.id }

    /// Creates a volume entry.
    public init(volume: BookReference, citationCount: Int, books: [BookCount]) {
        self.volume = volume
        self.citationCount = citationCount
        self.books = books
    }
}

/// A chapter and how often it is cited.
public struct ChapterCount: Sendable, Equatable, Identifiable {
    /// The chapter (0 for books without chapters).
    public let chapter: Int
    /// Citations of it.
    public let citationCount: Int

    /// The chapter number.
    public var id: Int { chapter }

    /// Creates a chapter count.
    public init(chapter: Int, citationCount: Int) {
        self.chapter = chapter
        self.citationCount = citationCount
    }
}

/// The book screen of the citation index: its cited chapters.
public struct BookCitations: Sendable, Equatable {
    /// The volume the book belongs to.
    public let volume: BookReference?
    /// The book.
    public let book: BookReference
    /// Cited chapters in order.
    public let chapters: [ChapterCount]

    /// Creates a book screen model.
    public init(volume: BookReference?, book: BookReference, chapters: [ChapterCount]) {
        self.volume = volume
        self.book = book
        self.chapters = chapters
    }
}

/// A verse (or the chapter as a whole) and how often it is cited.
public struct VerseCount: Sendable, Equatable, Identifiable {
    /// The verse; nil for citations of the whole chapter (or of its heading).
    public let verse: Int?
    /// Citations that include it.
    public let citationCount: Int

    /// The verse number, with 0 for the whole chapter.
    public var id: Int { verse ?? 0 }

    /// Creates a verse count.
    public init(verse: Int?, citationCount: Int) {
        self.verse = verse
        self.citationCount = citationCount
    }
}

/// The chapter screen of the citation index: its cited verses.
public struct ChapterCitations: Sendable, Equatable {
    /// The book.
    public let book: BookReference
    /// The chapter.
    public let chapter: Int
    /// Cited verses in order, whole-chapter citations first.
    public let verses: [VerseCount]

    /// Creates a chapter screen model.
    public init(book: BookReference, chapter: Int, verses: [VerseCount]) {
        self.book = book
        self.chapter = chapter
        self.verses = verses
    }
}

/// A talk that cites a verse.
public struct CitingTalk: Sendable, Equatable, Identifiable {
    /// `citation.ID`.
    public let citationID: Int
    /// `talk.ID`.
    public let talkID: Int
    /// The talk's title.
    public let title: String
    /// The speaker's name.
    public let speaker: String
    /// The conference's short name, when the talk belongs to one.
    public let conference: String?
    /// `talk.Date`.
    public let date: String?
    /// The cited reference as the talk gives it, e.g. "Mosiah 3:19–21".
    public let reference: String

    /// The citation's id.
    public var id: Int { citationID }

    /// Creates a citing talk.
    public init(citationID: Int, talkID: Int, title: String, speaker: String, conference: String?, date: String?, reference: String) {
        self.citationID = citationID
        self.talkID = talkID
        self.title = title
        self.speaker = speaker
        self.conference = conference
        self.date = date
        self.reference = reference
    }
}

/// The verse screen of the citation index: the talks that cite it, newest first.
public struct VerseCitations: Sendable, Equatable {
    /// The book.
    public let book: BookReference
    /// The chapter.
    public let chapter: Int
    /// The verse; nil for whole-chapter citations.
    public let verse: Int?
    /// Citing talks, newest first.
    public let talks: [CitingTalk]

    /// Creates a verse screen model.
    public init(book: BookReference, chapter: Int, verse: Int?, talks: [CitingTalk]) {
        self.book = book
        self.chapter = chapter
        self.verse = verse
        self.talks = talks
    }

    /// "John 3:16", "John 3" (whole chapter) or "BM Title Page" (a book without chapters).
    public var title: String {
        CitationFormatter.reference(citeAbbr: book.citeAbbr, chapterCount: book.chapterCount, chapter: chapter,
                                    verses: verse.map(String.init), jst: false)
    }
}
