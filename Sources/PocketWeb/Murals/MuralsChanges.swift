import Foundation
import Hummingbird
import Murals
import PocketCore

/// `POST /murals/changes`: where a phone's outbox sends each star changed on it, one change per
/// request, by the outbox contract (`Outbox`).
///
/// Body: `{"kind": "favourite" | "unfavourite", "mural": <id>}`. Answers 200 `{id, mural,
/// favourite, result}` (result: applied, superseded or duplicate, so a resend is harmless), 404 for
/// an unknown mural. The change is applied by the rule on `ToggleChange` (each id once,
/// the latest change per mural wins).
enum MuralsChanges {
    /// The app's fields of a change.
    struct Body: Decodable, Sendable {
        /// `favourite` or `unfavourite`.
        let kind: String
        /// The mural's id.
        let mural: Int

        /// The change these fields describe, with the envelope's id and time.
        func change(id: String, at: Int64) throws(MuralsError) -> ToggleChange {
            try ToggleChange.star(id: id, at: at, kind: kind, muralID: mural)
        }
    }

    /// The JSON answered.
    struct Answer: Encodable {
        let id: String
        let mural: Int
        let favourite: Bool
        let result: String
    }
}

extension MuralsPages {
    /// Applies one star change from a phone's outbox for the signed-in person.
    @Sendable func applyChange(_ request: Request, context: PocketRequestContext) async throws -> Response {
        try await Outbox.handle(request, context: context) { (change: Outbox.Change<MuralsChanges.Body>) in
            let star = try change.body.change(id: change.id, at: change.at)
            let outcome = try await store.apply(star, for: change.person)
            return MuralsChanges.Answer(id: star.id, mural: star.itemID, favourite: outcome.isOn, result: outcome.result.rawValue)
        }
    }
}
