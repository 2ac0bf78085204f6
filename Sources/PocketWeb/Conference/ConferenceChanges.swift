import Conference
import Foundation
import Hummingbird
import PocketCore

/// `POST /conference/bookmarks/changes`: where a phone's outbox sends each bookmark changed on it,
/// one change per request, by the outbox contract (`Outbox`).
///
/// Body: `{"kind": "bookmark" | "unbookmark", "talk": <id>}`. Answers 200 `{id, talk,
/// bookmarked, result}` (result: applied, superseded or duplicate, so a resend is harmless), 404
/// for a talk the database does not have. The change is applied by the rule on `ToggleChange`
/// (each id once, the latest change per talk wins).
enum ConferenceChanges {
    /// The app's fields of a change.
    struct Body: Decodable, Sendable {
        /// `bookmark` or `unbookmark`.
        let kind: String
        /// The talk's id.
        let talk: Int

        /// The change these fields describe, with the envelope's id and time.
        func change(id: String, at: Int64) throws(ConferenceError) -> ToggleChange {
            try ToggleChange.bookmark(id: id, at: at, kind: kind, talkID: talk)
        }
    }

    /// The JSON answered.
    struct Answer: Encodable {
        let id: String
        let talk: Int
        let bookmarked: Bool
        let result: String
    }
}

extension ConferencePages {
    /// Applies one bookmark change from a phone's outbox for the signed-in person.
    @Sendable func applyChange(_ request: Request, context: PocketRequestContext) async throws -> Response {
        try await Outbox.handle(request, context: context) { (change: Outbox.Change<ConferenceChanges.Body>) in
            let bookmark = try change.body.change(id: change.id, at: change.at)
            let outcome = try await store.apply(bookmark, for: change.person)
            return ConferenceChanges.Answer(id: bookmark.id, talk: bookmark.itemID, bookmarked: outcome.isOn, result: outcome.result.rawValue)
        }
    }
}
