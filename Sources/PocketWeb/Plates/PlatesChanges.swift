import Foundation
import Hummingbird
import Plates
import PocketCore

/// `POST /plates/changes`: where a phone's outbox sends each spot, un-spot, Reset Game and New
/// Trip, one change per request, in the order they were made.
///
/// Body: `{"id": "<uuid>", "at": <ms since 1970>, "kind": "spot"|"unspot"|"reset"|"newTrip",
/// "state": "AL" (spot and un-spot only), "location": {"lat": …, "lon": …, "accuracy": …}
/// (optional, spot only; kept only when the person records locations)}`.
/// Answers 200 with `{"applied": true|false, "score": N, "total": 50, "spotted": [codes]}`
/// (`applied` is false for an id already applied: a resend changes nothing), or 400 with
/// `{"error": "<one line>"}` for a change that can never be applied, so the outbox drops it.
/// The change is applied by `PlatesMerge`'s rule (see `PlateChange.swift`).
enum PlatesChanges {
    /// The JSON a phone sends.
    struct Body: Decodable {
        /// Where the phone was.
        struct Place: Decodable {
            let lat: Double
            let lon: Double
            let accuracy: Double?
        }

        let id: String
        let at: Int64
        let kind: String
        let state: String?
        let location: Place?
    }

    /// The JSON answered.
    struct Answer: Encodable {
        let applied: Bool
        let score: Int
        let total: Int
        let spotted: [String]
    }

    /// Reads a change from a request body; throws `PlatesError.invalidChange` with a one-line reason.
    static func change(from data: Data) throws(PlatesError) -> PlateChange {
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw .invalidChange("it has no “\(key.stringValue)”")
        } catch let DecodingError.typeMismatch(_, context) {
            throw .invalidChange("“\(path(context))” has the wrong type")
        } catch let DecodingError.valueNotFound(_, context) {
            throw .invalidChange("“\(path(context))” is missing")
        } catch {
            throw .invalidChange("it is not a JSON object")
        }
        guard let kind = PlateChange.Kind(rawValue: body.kind) else {
            throw .invalidChange("its kind must be spot, unspot, reset or newTrip")
        }
        let location: Location?
        do {
            location = try body.location.map { try Location(latitude: $0.lat, longitude: $0.lon) }
        } catch {
            throw .invalidChange("its location is not on Earth")
        }
        return try PlateChange(id: body.id, at: body.at, kind: kind, stateCode: body.state, location: location)
    }

    /// A JSON response.
    static func json(_ value: some Encodable, status: HTTPResponse.Status) -> Response {
        let data = (try? JSONEncoder().encode(value)) ?? Data("{}".utf8)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store", .contentLength: String(data.count)],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map(\.stringValue).joined(separator: ".")
    }
}

extension PlatesPages {
    /// Applies one change from a phone's outbox to the signed-in person's game.
    @Sendable func change(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let game = database.game(for: try context.requirePerson())
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: 64 * 1024)
        } catch {
            return PlatesChanges.json(["error": "That change is too large to read."], status: .contentTooLarge)
        }
        var change: PlateChange
        do {
            change = try PlatesChanges.change(from: Data(buffer: buffer))
            if let code = change.stateCode, catalog.state(code: code) == nil { throw PlatesError.unknownState(code) }
            // As with the form: a place is kept only when the person chose to record places.
            if change.location != nil, try await !game.snapshot().recordsLocation {
                change = try PlateChange(id: change.id, at: change.at, kind: change.kind, stateCode: change.stateCode)
            }
        } catch let error as PlatesError {
            return PlatesChanges.json(["error": error.description], status: .badRequest)
        }
        let outcome = try await game.apply(change)
        let answer = PlatesChanges.Answer(
            applied: outcome.applied, score: outcome.game.score, total: catalog.count,
            spotted: outcome.game.spots.keys.sorted()
        )
        return PlatesChanges.json(answer, status: .ok)
    }
}
