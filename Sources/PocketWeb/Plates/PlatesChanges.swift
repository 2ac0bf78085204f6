import Foundation
import Hummingbird
import Plates
import PocketCore

/// `POST /plates/changes`: where a phone's outbox sends each spot, un-spot, Reset Game and New
/// Trip, one change per request, by the outbox contract (`Outbox`).
///
/// Body: `{"kind": "spot"|"unspot"|"reset"|"newTrip", "state": "AL" (spot and un-spot only),
/// "location": {"lat": …, "lon": …, "accuracy": …} (optional, spot only; kept only when the
/// person records locations)}`. Answers 200 with `{"applied": true|false, "score": N,
/// "total": 50, "spotted": [codes]}` (`applied` is false for an id already applied: a resend
/// changes nothing). The change is applied by `PlatesMerge`'s rule (see `PlateChange.swift`).
enum PlatesChanges {
    /// The app's fields of a change.
    struct Body: Decodable, Sendable {
        /// Where the phone was.
        struct Place: Decodable, Sendable {
            let lat: Double
            let lon: Double
            let accuracy: Double?
        }

        let kind: String
        let state: String?
        let location: Place?

        /// The change these fields describe, with the envelope's id and time.
        func change(id: String, at: Int64) throws(PlatesError) -> PlateChange {
            guard let kind = PlateChange.Kind(rawValue: kind) else {
                throw .invalidChange("its kind must be spot, unspot, reset or newTrip")
            }
            let place: Location?
            do {
                place = try location.map { try Location(latitude: $0.lat, longitude: $0.lon) }
            } catch {
                throw .invalidChange("its location is not on Earth")
            }
            return try PlateChange(id: id, at: at, kind: kind, stateCode: state, location: place)
        }
    }

    /// The JSON answered.
    struct Answer: Encodable {
        let applied: Bool
        let score: Int
        let total: Int
        let spotted: [String]
    }
}

extension PlatesPages {
    /// Applies one change from a phone's outbox to the signed-in person's game.
    @Sendable func applyChange(_ request: Request, context: PocketRequestContext) async throws -> Response {
        try await Outbox.handle(request, context: context) { (change: Outbox.Change<PlatesChanges.Body>) in
            let outcome = try await database.game(for: change.person).apply(try change.body.change(id: change.id, at: change.at))
            return PlatesChanges.Answer(
                applied: outcome.applied, score: outcome.game.score, total: catalog.count, spotted: outcome.game.spots.keys.sorted())
        }
    }
}
