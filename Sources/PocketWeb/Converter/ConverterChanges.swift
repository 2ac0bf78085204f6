import Converter
import Foundation
import Hummingbird

/// `POST /converter/state`: where a phone's outbox sends its settled converter state, by the
/// outbox contract (`Outbox`).
///
/// The phone keeps its state in localStorage and sends it whole, so a resend sets the same state
/// again and changes nothing. Body: `{"state": …}` in `ConverterState`'s own JSON encoding.
/// Answers 200 `{id, applied, state}`. Merge rule: the latest change wins, by its time (`at`, the
/// phone's clock; a form post's is the server's): a change made before the saved state's last
/// change is answered but not applied.
enum ConverterChanges {
    /// The app's fields of a change: the whole state.
    struct Body: Decodable, Sendable {
        let state: ConverterState
    }

    /// The JSON answered: whether the change was applied (false when the saved state is newer) and
    /// the state as saved (units repaired, sign dropped where needed).
    struct Answer: Encodable {
        let id: String
        let applied: Bool
        let state: ConverterState
    }
}

extension ConverterPages {
    /// Sets the signed-in person's whole converter state from a phone's outbox.
    @Sendable func applyChange(_ request: Request, context: PocketRequestContext) async throws -> Response {
        try await Outbox.handle(request, context: context) { (change: Outbox.Change<ConverterChanges.Body>) in
            let outcome = try await database.store(for: change.person).replace(with: change.body.state, changedAt: change.at)
            return ConverterChanges.Answer(id: change.id, applied: outcome.applied, state: outcome.state)
        }
    }
}
