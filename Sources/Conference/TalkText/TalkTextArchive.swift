import Foundation
import PocketCore

/// Talk texts kept in Pocket's own Conference database: fetched from their source the first time
/// a talk is read or kept offline, then always answered from the store, so a text is fetched once
/// and reads with no network. Texts are public and the same for everyone, so they are shared;
/// what each person keeps offline lives on their own phone.
public actor TalkTextArchive {
    private let state: ConferenceStateDatabase
    private let base: URL
    private let fetcher: any HTTPFetching
    private let timeout: Duration
    private let clock: @Sendable () -> Date
    /// Fetches under way, so two readers of the same talk cause one request.
    private var fetching: [Int: Task<TalkText, any Error>] = [:]

    /// The largest text accepted (a talk is tens of kilobytes).
    public static let maximumBytes = 2 * 1024 * 1024

    /// Keeps texts in `library`'s state database, fetching from `base` (see `TalkTextSource`).
    public init(library: ConferenceLibrary, base: URL, fetcher: any HTTPFetching = LiveHTTPFetcher(), timeout: Duration = .seconds(15),
                clock: @escaping @Sendable () -> Date = Date.init) {
        state = library.state
        self.base = base
        self.fetcher = fetcher
        self.timeout = timeout
        self.clock = clock
    }

    /// The base address texts are fetched from.
    public nonisolated var sourceURL: URL {
        base
    }

    /// Where texts are fetched from, for messages.
    public nonisolated var sourceHost: String {
        base.host ?? base.absoluteString
    }

    /// The stored text, or nil when it has not been fetched (never fetches).
    public func stored(talkID: Int) async throws(ConferenceError) -> TalkText? {
        do {
            return try await state.talkText(talkID)
        } catch {
            throw .fileSystem("cannot read stored talk texts: \(error)")
        }
    }

    /// The talk's text: the stored one, else fetched from the source and stored. The caller
    /// checks that the talk exists, so only talks of the database in use are ever fetched.
    public func text(talkID: Int) async throws(ConferenceError) -> TalkText {
        if let stored = try await stored(talkID: talkID) { return stored }
        let task: Task<TalkText, any Error>
        if let running = fetching[talkID] {
            task = running
        } else {
            task = Task { try await self.fetchAndStore(talkID) }
            fetching[talkID] = task
        }
        defer { fetching[talkID] = nil }
        do {
            return try await task.value
        } catch let error as ConferenceError {
            throw error
        } catch {
            throw .talkTextUnavailable(talkID: talkID, detail: String(describing: error))
        }
    }

    /// The sizes in bytes of the stored texts among `talkIDs`.
    public func storedSizes(talkIDs: [Int]) async throws(ConferenceError) -> [Int: Int] {
        do {
            return try await state.talkTextSizes(talkIDs)
        } catch {
            throw .fileSystem("cannot read stored talk texts: \(error)")
        }
    }

    /// Makes sure every talk of `talkIDs` has its text stored, fetching the missing ones a few at a
    /// time. Returns each talk's size, or the error that kept it from being stored.
    public func ensure(talkIDs: [Int]) async throws(ConferenceError) -> [Int: Result<Int, ConferenceError>] {
        var results = try await storedSizes(talkIDs: talkIDs).mapValues { Result<Int, ConferenceError>.success($0) }
        let missing = talkIDs.filter { results[$0] == nil }
        await withTaskGroup(of: (Int, Result<Int, ConferenceError>).self) { group in
            var next = missing.makeIterator()
            func add() {
                guard let id = next.next() else { return }
                // The catch lives in a method, not in this closure: Swift 6.3.1's optimiser
                // miscompiled a typed-throws `do`/`catch` here (every id came back as garbage in
                // release builds only).
                group.addTask { await (id, self.size(talkID: id)) }
            }
            for _ in 0..<4 { add() }
            for await (id, result) in group {
                results[id] = result
                add()
            }
        }
        return results
    }

    /// The size of a talk's text, stored or fetched now, or why it could not be had.
    private func size(talkID: Int) async -> Result<Int, ConferenceError> {
        do {
            return .success(try await text(talkID: talkID).size)
        } catch {
            return .failure(error)
        }
    }

    private func fetchAndStore(_ talkID: Int) async throws(ConferenceError) -> TalkText {
        let url = TalkTextSource.url(talkID: talkID, base: base)
        let resource: FetchedResource
        do {
            resource = try await fetcher.fetch(url, maxBytes: Self.maximumBytes, timeout: timeout)
        } catch {
            throw .talkTextUnavailable(talkID: talkID, detail: "\(sourceHost): \(error.description)")
        }
        let html = String(decoding: resource.data, as: UTF8.self)
        guard !html.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw .talkTextUnavailable(talkID: talkID, detail: "\(sourceHost) sent no text")
        }
        let text = TalkText(talkID: talkID, html: html, size: resource.data.count, source: url, fetchedAt: clock())
        do {
            try await state.storeTalkText(text)
        } catch {
            throw .fileSystem("cannot store the text of talk \(talkID): \(error)")
        }
        return text
    }
}
