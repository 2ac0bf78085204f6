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

    /// `POST /murals/changes`: one star changed on the phone, by the outbox contract (`Outbox`),
    /// with the body `{ "kind": "favourite" | "unfavourite", "mural": <id> }`. Answers 200
    /// `{ id, mural, favourite, result }` (result: applied, superseded or duplicate, so a resend is
    /// harmless), 404 for an unknown mural. The merge rule is documented on `MuralsFavouriteChange`.
    @Sendable func changes(_ request: Request, context: PocketRequestContext) async throws -> Response {
        try await Outbox.handle(request, context: context) { (change: Outbox.Change<MuralsChangeBody>) in
            let star = try MuralsFavouriteChange(id: change.id, at: change.at, kind: change.body.kind, muralID: change.body.mural)
            let outcome = try await store.apply(star, for: change.person)
            return ChangeAnswer(id: star.id, mural: star.muralID, favourite: outcome.isFavourite, result: outcome.result.rawValue)
        }
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

/// The app's fields of a star change.
struct MuralsChangeBody: Decodable, Sendable {
    /// `favourite` or `unfavourite`.
    let kind: String
    /// The mural's id.
    let mural: Int
}

private struct ChangeAnswer: Encodable {
    let id: String
    let mural: Int
    let favourite: Bool
    let result: String
}

private extension Optional {
    /// `flatMap` for an async transform (a look-up in the picture cache actor).
    func asyncFlatMap<T>(_ transform: (Wrapped) async -> T?) async -> T? {
        guard let value = self else { return nil }
        return await transform(value)
    }
}
