import Foundation
import Hummingbird
import Murals
import PocketCore

/// Murals away from Pocket's server (issue #13): the list of addresses "Keep offline" saves on the
/// phone, and the stars changed offline that the phone's outbox sends back.
extension MuralsPages {
    /// `GET /murals/offline.json`: every address the signed-in person needs to browse the murals
    /// with no server — the screens as their links and filter spell them, each mural's page, its
    /// thumbnail and pictures (served by Pocket, so same-origin), the map library and the walk.
    /// Sizes are given where Pocket knows them (saved pictures, the map library), else null.
    @Sendable func offlineList(_ request: Request, context: PocketRequestContext) async throws -> Response {
        _ = try context.requirePerson()
        var items: [MuralsKeepList.Item] = [
            .init(url: MuralsRoute.main.href),
            .init(url: MuralsRoute.main.href + "?show=all"),
            .init(url: MuralsRoute.main.href + "?show=favourites"),
            .init(url: MuralsRoute.trail.href),
            .init(url: MuralsRoute.trail.href + "?show=favourites"),
            .init(url: MuralsRoute.walk.href),
        ]
        if let leaflet {
            for file in ["leaflet.js", "leaflet.css"] {
                items.append(.init(url: leaflet.url(file), bytes: leaflet.file(at: file)?.data.count))
            }
        }
        let murals = try await store.murals()
        for mural in murals {
            items.append(.init(url: MuralsRoute.mural(mural.id).href))
            if mural.thumbnail != nil {
                let saved = await service.thumbnailURL(for: mural).asyncFlatMap { await images.savedSize(at: $0) }
                items.append(.init(url: MuralsRoute.thumbnail(mural.id).href, bytes: saved))
            }
            for index in mural.images.indices {
                let saved = await service.imageURL(for: mural, index: index).asyncFlatMap { await images.savedSize(at: $0) }
                items.append(.init(url: MuralsRoute.image(mural.id, index).href, bytes: saved))
            }
        }
        return try Self.json(MuralsKeepList(murals: murals.count, items: items), cacheControl: "no-store")
    }

    /// `POST /murals/changes`: one star changed on the phone, as its outbox sends it —
    /// `{ "id": "<uuid>", "at": <ms>, "kind": "favourite" | "unfavourite", "mural": <id> }`.
    /// Answers 200 `{ id, mural, favourite, result }` (result: applied, superseded or duplicate,
    /// so a resend is harmless), 400 `{ error }` for a change that is not one, 404 for an unknown
    /// mural. The merge rule is documented on `MuralsFavouriteChange`.
    @Sendable func changes(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let person = try context.requirePerson()
        let body = try await request.body.collect(upTo: Self.maxChangeBytes)
        let change: MuralsFavouriteChange
        do {
            change = try MuralsChangeBody.parse(Data(buffer: body))
        } catch {
            return try Self.failure(.badRequest, error.description)
        }
        do {
            let outcome = try await store.apply(change, for: person)
            return try Self.json(
                ChangeAnswer(id: change.id, mural: change.muralID, favourite: outcome.isFavourite, result: outcome.result.rawValue),
                cacheControl: "no-store")
        } catch MuralsError.unknownMural(let id) {
            return try Self.failure(.notFound, MuralsError.unknownMural(id).description)
        }
    }

    /// A change is a few fields; anything longer is not one.
    static let maxChangeBytes = 16 << 10

    /// A JSON `{ "error": "…" }` with `status`, which the outbox treats as refused for good.
    static func failure(_ status: HTTPResponse.Status, _ message: String) throws -> Response {
        var response = try json(ChangeFailure(error: message), cacheControl: "no-store")
        response.status = status
        return response
    }
}

/// What "Keep offline" fetches: the addresses, and their sizes where known.
struct MuralsKeepList: Encodable {
    /// One address to keep.
    struct Item: Encodable {
        let url: String
        let bytes: Int?

        init(url: String, bytes: Int? = nil) {
            self.url = url
            self.bytes = bytes
        }

        /// `bytes` is written as null when unknown, so every item has the same keys.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(url, forKey: .url)
            try container.encode(bytes, forKey: .bytes)
        }

        private enum CodingKeys: String, CodingKey {
            case url, bytes
        }
    }

    let murals: Int
    let items: [Item]
}

/// Reads the outbox's JSON into a checked change, with a one-line reason when it is not one.
enum MuralsChangeBody {
    /// The change in `data`, or `MuralsError.invalidChange` saying which field is wrong.
    static func parse(_ data: Data) throws(MuralsError) -> MuralsFavouriteChange {
        guard let wire = try? JSONDecoder().decode(Wire.self, from: data) else {
            throw .invalidChange("the body must be a JSON object {id, at, kind, mural}")
        }
        guard let id = wire.id else { throw .invalidChange("“id” must be a string") }
        guard let kind = wire.kind else { throw .invalidChange("“kind” must be favourite or unfavourite") }
        guard let at = wire.at else { throw .invalidChange("“at” must be a whole number of milliseconds since 1970") }
        guard let mural = wire.mural else { throw .invalidChange("“mural” must be a mural’s id (a whole number)") }
        return try MuralsFavouriteChange(id: id, at: at, kind: kind, muralID: mural)
    }

    /// The fields as sent; one of the wrong type (a string for a number, 1.5, true) reads as
    /// missing, so the message can name it.
    private struct Wire: Decodable {
        let id: String?
        let at: Int64?
        let kind: String?
        let mural: Int?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try? container.decode(String.self, forKey: .id)
            at = try? container.decode(Int64.self, forKey: .at)
            kind = try? container.decode(String.self, forKey: .kind)
            mural = try? container.decode(Int.self, forKey: .mural)
        }

        private enum CodingKeys: String, CodingKey {
            case id, at, kind, mural
        }
    }
}

private struct ChangeAnswer: Encodable {
    let id: String
    let mural: Int
    let favourite: Bool
    let result: String
}

private struct ChangeFailure: Encodable {
    let error: String
}

private extension Optional {
    /// `flatMap` for an async transform (a look-up in the picture cache actor).
    func asyncFlatMap<T>(_ transform: (Wrapped) async -> T?) async -> T? {
        guard let value = self else { return nil }
        return await transform(value)
    }
}
