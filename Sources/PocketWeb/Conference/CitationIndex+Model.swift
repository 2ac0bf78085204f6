import Conference

/// The citation index, as on scriptures.byu.edu: volumes → books → chapters → verses → talks.
enum CitationIndex {
    /// A row with a count: a book, a chapter or a verse.
    struct Row: Sendable, Hashable {
        let title: String
        let count: String
        let href: String?
        let label: String
    }

    struct Section: Sendable, Hashable {
        let header: String
        let anchor: String
        let rows: [Row]
    }

    /// The first screen: each volume with its books and their citation counts.
    struct Volumes: Sendable {
        let sections: [Section]
        let emptyMessage: String?

        init(_ volumes: [VolumeCitations]) {
            sections = volumes.map { volume in
                Section(
                    header: "\(volume.volume.name) (\(volume.citationCount))",
                    anchor: "volume-\(volume.volume.id)",
                    rows: volume.books.map { book in
                        Row(title: book.book.name, count: String(book.citationCount),
                            href: book.citationCount > 0 ? ConferenceRoute.book.href(book.book.id) : nil,
                            label: "\(book.book.name): \(ConferenceFormat.count(book.citationCount, "citation"))")
                    }
                )
            }
            emptyMessage = volumes.isEmpty ? "This database has no citation index." : nil
        }
    }

    /// A book's cited chapters with counts.
    struct Book: Sendable {
        let title: String
        let rows: [Row]
        let emptyMessage: String?

        init(_ book: BookCitations) {
            title = book.book.name
            rows = book.chapters.map { chapter in
                let name = CitationIndex.chapterTitle(book: book.book, chapter: chapter.chapter)
                return Row(title: name, count: String(chapter.citationCount),
                           href: ConferenceRoute.chapter.href(book.book.id, chapter.chapter),
                           label: "\(name): \(ConferenceFormat.count(chapter.citationCount, "citation"))")
            }
            emptyMessage = rows.isEmpty ? "No talk in this database cites \(book.book.name)." : nil
        }
    }

    /// A chapter's cited verses with counts; citations of the whole chapter come first.
    struct Chapter: Sendable {
        let title: String
        let rows: [Row]
        let emptyMessage: String?

        init(_ chapter: ChapterCitations) {
            title = CitationIndex.chapterTitle(book: chapter.book, chapter: chapter.chapter)
            rows = chapter.verses.map { verse in
                let name = verse.verse.map { "Verse \($0)" } ?? (chapter.book.chapterCount > 0 ? "The whole chapter" : "The whole book")
                return Row(title: name, count: String(verse.citationCount),
                           href: ConferenceRoute.verseHref(book: chapter.book.id, chapter: chapter.chapter, verse: verse.verse),
                           label: "\(name): \(ConferenceFormat.count(verse.citationCount, "citation"))")
            }
            emptyMessage = rows.isEmpty ? "No talk in this database cites \(title)." : nil
        }
    }

    /// "Genesis 1", or the book's name when it has no chapters (a title page, an introduction).
    static func chapterTitle(book: BookReference, chapter: Int) -> String {
        book.chapterCount > 0 || chapter > 0 ? "\(book.name) \(chapter)" : book.name
    }
}
