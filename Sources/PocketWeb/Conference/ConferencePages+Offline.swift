import Conference
import Foundation
import Hummingbird

/// Talk texts from Pocket's own origin, and the list of what to keep for reading a conference offline.
extension ConferencePages {
    /// GET a talk's text as a sandboxed document for the talk page's frame: the stored copy, else
    /// fetched from the source now and stored. A failure is a small document in the frame, never
    /// Pocket's error page (which may not be framed).
    @Sendable func talkText(_ request: Request, context: PocketRequestContext, id: Int) async throws -> Response {
        try Self.check(id, what: "talk")
        let source = texts.sourceURL
        do {
            // Only talks of the database in use are ever fetched from the source.
            _ = try await store.talk(id: id)
            // A talk is opened when its text is asked for, not its page: only a talk page the
            // browser shows loads this frame. The page itself may be answered to no one: the
            // service worker shows the saved copy or the Offline page after a few seconds, and a
            // server that hung answers the request it kept when it wakes (#34). Keeping a
            // conference offline fetches every text: keeping is not reading.
            if request.headers[.pocketKeep] == nil, let person = context.identity?.person.id {
                try? await store.recordView(talkID: id, by: person)
            }
            let text = try await texts.text(talkID: id)
            return Self.textResponse(ConferenceTalkText.document(text, source: source), status: .ok, source: source)
        } catch let error as ConferenceError {
            // The frame shows the failure as its own small document, with the status every route gives it.
            if error.status != .notFound { context.logger.warning("talk text \(id): \(error.description)") }
            return Self.textResponse(ConferenceTalkText.failure(error.message), status: error.status, source: source)
        }
    }

    /// GET the addresses that make a conference readable offline — its talk list, each talk's page
    /// (as the list links it, and as recent talks and bookmarks do) and each talk's text — with the
    /// texts' sizes. Texts not stored yet
    /// are fetched first; any that fail are named under `missing` and left out of `items`.
    @Sendable func keep(_ request: Request, context: PocketRequestContext, id: Int) async throws -> Response {
        try Self.check(id, what: "conference")
        _ = try context.requirePerson()
        let detail = try await store.conference(id: id)
        let talks = detail.sessions.flatMap(\.talks)
        let results = try await texts.ensure(talkIDs: talks.map(\.id))
        var items = [KeepList.Item(url: ConferenceRoute.conference.href(id), kind: "list", size: nil)]
        var missing: [KeepList.Missing] = []
        for talk in talks {
            // Both addresses a talk is opened by: from the conference's list, and from recent talks and bookmarks.
            items.append(KeepList.Item(url: ConferenceRoute.talkHref(talk.id, from: .conference(id)), kind: "talk", size: nil))
            items.append(KeepList.Item(url: ConferenceRoute.talk.href(talk.id), kind: "talk", size: nil))
            switch results[talk.id] {
            case .success(let size)?:
                items.append(KeepList.Item(url: ConferenceRoute.talkText.href(talk.id), kind: "text", size: size))
            case .failure(let error)?:
                missing.append(KeepList.Missing(talk: talk.id, title: talk.title, error: error.description))
            case nil:
                missing.append(KeepList.Missing(talk: talk.id, title: talk.title, error: "The text was not fetched."))
            }
        }
        let list = KeepList(conference: id, title: detail.conference.description, items: items, missing: missing)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(list))))
    }

    private static func textResponse(_ html: HTML, status: HTTPResponse.Status, source: URL) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        headers[.contentSecurityPolicy] = ConferenceTalkText.policy(source: source)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html.description)))
    }
}

/// The answer of `GET /conference/conferences/:id/keep`.
struct KeepList: Encodable, Sendable {
    /// One address to keep: `kind` is `list`, `talk` or `text`; `size` in bytes when known.
    struct Item: Encodable, Sendable {
        let url: String
        let kind: String
        let size: Int?
    }

    /// A talk whose text could not be fetched, and why.
    struct Missing: Encodable, Sendable {
        let talk: Int
        let title: String
        let error: String
    }

    let conference: Int
    let title: String
    let items: [Item]
    let missing: [Missing]
}
