import Foundation
import Hummingbird
import Murals
import PocketCore

/// Murals away from Pocket's server (issue #13): the list of addresses "Keep offline" saves on the
/// phone (the stars changed offline come back through `MuralsChanges`).
extension MuralsPages {
    /// `GET /murals/offline.json`: every address the signed-in person needs to browse the murals
    /// with no server — the screens as their links and filter spell them, each mural's page, its
    /// thumbnail and pictures (served by Pocket, so same-origin), the map library and the walk.
    /// Sizes are given where Pocket knows them (saved pictures, the map library), else null.
    @Sendable func offlineList(_ request: Request, context: PocketRequestContext) async throws -> Response {
        _ = try context.requirePerson()
        var items: [MuralsKeepList.Item] = MuralsRoute.listPages.map { .init(url: $0) } + [
            .init(url: MuralsRoute.trail.href()),
            .init(url: MuralsRoute.trail.href() + "?show=favourites"),
            .init(url: MuralsRoute.walk.href()),
        ]
        if let leaflet {
            for file in ["leaflet.js", "leaflet.css"] {
                items.append(.init(url: leaflet.url(file), bytes: leaflet.file(at: file)?.data.count))
            }
        }
        let murals = try await store.murals()
        for mural in murals {
            items.append(.init(url: MuralsRoute.mural.href(mural.id)))
            if mural.thumbnail != nil {
                let saved = await service.thumbnailURL(for: mural).asyncFlatMap { await images.savedSize(at: $0) }
                items.append(.init(url: MuralsRoute.thumbnail.href(mural.id), bytes: saved))
            }
            for index in mural.images.indices {
                let saved = await service.imageURL(for: mural, index: index).asyncFlatMap { await images.savedSize(at: $0) }
                items.append(.init(url: MuralsRoute.image.href(mural.id, index), bytes: saved))
            }
        }
        return try Self.json(MuralsKeepList(murals: murals.count, items: items), cacheControl: "no-store")
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

private extension Optional {
    /// `flatMap` for an async transform (a look-up in the picture cache actor).
    func asyncFlatMap<T>(_ transform: (Wrapped) async -> T?) async -> T? {
        guard let value = self else { return nil }
        return await transform(value)
    }
}
