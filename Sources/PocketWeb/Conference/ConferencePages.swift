import Conference
import Foundation
import Hummingbird
import PocketCore

/// The handlers behind `ConferenceApp`'s browsing routes: decode, query the store, build the model, render.
struct ConferencePages: Sendable {
    let store: ConferenceLibrary
    let updates: ConferenceUpdates
    let texts: TalkTextArchive
    let renderer: PageRenderer
    /// Bounds each person's event streams.
    let streams: OpenStreams
    /// Rendered pages, kept while their models stay the same.
    private let conferencesPages: PageMemo<ConferenceScreens.Conferences>
    private let splitPages: PageMemo<ConferenceScreens.Split>
    private let citationPages: PageMemo<ConferenceScreens.Citations>
    private let speakersPages: PageMemo<ConferenceScreens.Speakers>

    init(store: ConferenceLibrary, updates: ConferenceUpdates, texts: TalkTextArchive, renderer: PageRenderer, streams: OpenStreams, caches: Caches) {
        self.store = store
        self.updates = updates
        self.texts = texts
        self.renderer = renderer
        self.streams = streams
        conferencesPages = PageMemo(caches)
        splitPages = PageMemo(caches)
        citationPages = PageMemo(caches)
        speakersPages = PageMemo(caches)
    }

    static let app = "conference"
    private static let home = BackLink(label: "Pocket", href: ShellRoute.home.href())

    // MARK: Conferences

    @Sendable func conferences(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let status = try await store.status()
        let list = try await store.conferences()
        let person = try context.requirePerson()
        // Reading state is a convenience: a failure to read it must not cost the list of conferences.
        let recent = (try? await store.recentTalks(of: person, limit: 5)) ?? []
        let bookmarks = (try? await store.bookmarkedTalks(of: person)) ?? []
        let model = ConferenceScreens.Conferences(shell: try await shell(.conferences, status: status), list: list, recent: recent,
                                                  bookmarks: bookmarks, warning: status.warning)
        return renderer.page(frame: frame("Conferences", back: Self.home, largeTitle: true), context: context, memo: conferencesPages, model: model) { model, _ in
            ConferenceScreens.Conferences.View(model: model)
        }
    }

    @Sendable func conference(_ request: Request, context: PocketRequestContext, id: Int) async throws -> Response {
        try Self.check(id, what: "conference")
        let list = TalkList(conference: try await store.conference(id: id))
        return try await splitPage(list, section: .conferences, keep: ConferenceScreens.KeepOffline(conference: id), context: context)
    }

    @Sendable func talk(_ request: Request, context: PocketRequestContext, id: Int) async throws -> Response {
        try Self.check(id, what: "talk")
        let person = try context.requirePerson()
        let detail = try await store.talk(id: id)
        let status = try await store.status()
        let source = TalkListSource(token: request.queryFields["from"])
        let list = try await contextList(for: detail, source: source)
        // Not recorded as opened here: a page answered is not a page shown (see `talkText`).
        let isBookmarked = try await store.isBookmarked(talkID: id, by: person)
        let talk = ConferenceTalk(detail, from: source, citationsAvailable: status.capabilities.citations,
                                  isBookmarked: isBookmarked)
        let section: ConferenceShell.Section = switch source {
        case .speaker?: .speakers
        case .verse?: .citations
        case .search?: .search
        default: .conferences
        }
        var search: ConferenceScreens.SearchForm?
        if case .search(let text)? = source { search = ConferenceScreens.SearchForm(query: text) }
        let model = ConferenceScreens.Split(shell: try await shell(section, status: status), list: list, talk: talk, search: search,
                                            module: conferenceModule)
        let back = BackLink(label: list.title, href: list.href)
        return renderer.page(frame: frame(detail.title, back: back), context: context, memo: splitPages, model: model, ConferenceScreens.Split.View.init)
    }

    /// POST: bookmark the talk (`bookmark=1`) or remove its bookmark (`bookmark=0`), then back to
    /// the page the form was on. The form says which, so a repeated POST cannot flip it back.
    @Sendable func bookmark(_ request: Request, context: PocketRequestContext, id: Int) async throws -> Response {
        var request = request
        try Self.check(id, what: "talk")
        let person = try context.requirePerson()
        let fields = try await request.formFields(context: context)
        guard let value = fields["bookmark"], ["0", "1"].contains(value) else {
            throw HTTPError(.badRequest, message: "Say whether to bookmark the talk (bookmark=1 or 0).")
        }
        // Only talks the database has can be bookmarked; a 404 says so in the store's words.
        _ = try await store.talk(id: id)
        try await store.setBookmark(value == "1", talkID: id, for: person)
        return Response.redirect(to: ReturnAddress.within(ConferenceRoute.prefix, fields["return"], otherwise: ConferenceRoute.talk.href(id)))
    }

    // MARK: Citations

    @Sendable func volumes(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let volumes = try await store.citationVolumes()
        let index = CitationIndex.Volumes(volumes)
        let model = ConferenceScreens.Citations(shell: try await shell(.citations), intro: "Scriptures cited in general conference, with how often each is cited.",
                                             sections: index.sections, emptyMessage: index.emptyMessage)
        return renderer.page(frame: frame("Citations", back: Self.home, largeTitle: true), context: context, memo: citationPages, model: model) { model, _ in
            ConferenceScreens.Citations.View(model: model)
        }
    }

    @Sendable func book(_ request: Request, context: PocketRequestContext, bookID: Int) async throws -> Response {
        try Self.check(bookID, what: "book")
        let book = try await store.citations(bookID: bookID)
        let index = CitationIndex.Book(book)
        let model = ConferenceScreens.Citations(shell: try await shell(.citations), intro: nil,
                                             sections: index.rows.isEmpty ? [] : [CitationIndex.Section(header: "Chapters", anchor: "chapters", rows: index.rows)],
                                             emptyMessage: index.emptyMessage)
        return renderer.page(frame: frame(index.title, back: BackLink(label: "Citations", href: ConferenceRoute.volumes.href())), context: context,
                             memo: citationPages, model: model) { model, _ in
            ConferenceScreens.Citations.View(model: model)
        }
    }

    @Sendable func chapter(_ request: Request, context: PocketRequestContext, bookID: Int, number: Int) async throws -> Response {
        try Self.check(bookID, what: "book")
        try Self.check(number, what: "chapter")
        let chapter = try await store.citations(bookID: bookID, chapter: number)
        let index = CitationIndex.Chapter(chapter)
        let model = ConferenceScreens.Citations(shell: try await shell(.citations), intro: nil,
                                             sections: index.rows.isEmpty ? [] : [CitationIndex.Section(header: "Verses", anchor: "verses", rows: index.rows)],
                                             emptyMessage: index.emptyMessage)
        let back = BackLink(label: chapter.book.name, href: ConferenceRoute.book.href(bookID))
        return renderer.page(frame: frame(index.title, back: back), context: context, memo: citationPages, model: model) { model, _ in
            ConferenceScreens.Citations.View(model: model)
        }
    }

    @Sendable func verse(_ request: Request, context: PocketRequestContext, bookID: Int, chapter: Int, verse: CitedVerse) async throws -> Response {
        try Self.check(bookID, what: "book")
        try Self.check(chapter, what: "chapter")
        if let number = verse.number { try Self.check(number, what: "verse") }
        let list = TalkList(verse: try await store.citations(bookID: bookID, chapter: chapter, verse: verse.number))
        return try await splitPage(list, section: .citations, context: context)
    }

    // MARK: Speakers and search

    @Sendable func speakers(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let model = ConferenceScreens.Speakers(shell: try await shell(.speakers), sections: try await store.speakers())
        return renderer.page(frame: frame("Speakers", back: Self.home, largeTitle: true), context: context, memo: speakersPages, model: model) { model, _ in
            ConferenceScreens.Speakers.View(model: model)
        }
    }

    @Sendable func speaker(_ request: Request, context: PocketRequestContext, id: Int) async throws -> Response {
        try Self.check(id, what: "speaker")
        let list = TalkList(speaker: try await store.speaker(id: id))
        return try await splitPage(list, section: .speakers, context: context)
    }

    @Sendable func search(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let text = String((request.queryFields["q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(200))
        let hits = text.isEmpty ? [] : try await store.search(text, limit: 50)
        var list = TalkList(search: text, hits: hits)
        if text.isEmpty { list = TalkList(title: "Search", href: list.href, parent: list.parent, sections: [], emptyMessage: "") }
        let model = ConferenceScreens.Split(shell: try await shell(.search), list: list, search: ConferenceScreens.SearchForm(query: text),
                                            module: conferenceModule)
        return renderer.page(frame: frame("Search", back: Self.home), context: context, memo: splitPages, model: model, ConferenceScreens.Split.View.init)
    }

    // MARK: Helpers

    /// The shell for a screen: tabs, and the banner while the sample is in use.
    func shell(_ section: ConferenceShell.Section, status: DatabaseStatus? = nil) async throws -> ConferenceShell {
        let current: DatabaseStatus
        if let status { current = status } else { current = try await store.status() }
        let updates = await updates.snapshot()
        return ConferenceShell(section: section, isSample: current.source.isSample, offer: updates.offer, unreachable: updates.checkProblem != nil, checking: updates.checkEvents)
    }

    /// The versioned address of the Conference client module.
    var conferenceModule: String {
        renderer.appModuleURL(Self.app)
    }

    func frame(_ title: String, back: BackLink?, largeTitle: Bool = false) -> PageFrame {
        PageFrame(title: title, back: back, largeTitle: largeTitle, screenClass: "screen--conference", app: Self.app)
    }

    private func splitPage(_ list: TalkList, section: ConferenceShell.Section, keep: ConferenceScreens.KeepOffline? = nil,
                           context: PocketRequestContext) async throws -> Response {
        let model = ConferenceScreens.Split(shell: try await shell(section), list: list, keep: keep, module: conferenceModule)
        return renderer.page(frame: frame(list.title, back: list.parent), context: context, memo: splitPages, model: model, ConferenceScreens.Split.View.init)
    }

    /// The list a talk is shown beside: the one it was opened from, else its own conference.
    private func contextList(for talk: TalkDetail, source: TalkListSource?) async throws -> TalkList {
        switch source {
        case .speaker(let id)?:
            if let detail = try? await store.speaker(id: id) { return TalkList(speaker: detail) }
        case .verse(let book, let chapter, let verse)?:
            if let detail = try? await store.citations(bookID: book, chapter: chapter, verse: verse) { return TalkList(verse: detail) }
        case .search(let text)?:
            if let hits = try? await store.search(text, limit: 50) { return TalkList(search: text, hits: hits) }
        case .conference(let id)?:
            if let detail = try? await store.conference(id: id) { return TalkList(conference: detail) }
        case nil:
            break
        }
        if let conference = talk.conference, let detail = try? await store.conference(id: conference.id) {
            return TalkList(conference: detail)
        }
        return TalkList(title: "Conferences", href: ConferenceRoute.conferences.href(), parent: Self.home, sections: [],
                        emptyMessage: "This talk belongs to no conference.")
    }

    /// A number in a path is at most nine digits and never negative, as the catalog's are.
    static func check(_ value: Int, what: String) throws {
        guard (0...999_999_999).contains(value) else {
            throw HTTPError(.notFound, message: "There is no \(what) “\(value)”.")
        }
    }
}
