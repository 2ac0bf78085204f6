import Converter
import Foundation
import Hummingbird

/// The two endpoints that let the converter work on the phone: the catalog the browser's engine
/// converts with, and the one that saves the phone's whole converter state.
///
/// The phone keeps its state in localStorage and sends its settled state as the whole state
/// (through the outbox), so a resend sets the same state again and changes nothing.
/// Merge rule: the latest change wins, by its time (`at`, the phone's clock; a form post's is the
/// server's): a change made before the saved state's last change is answered but not applied.
struct ConverterSync: Sendable {
    let database: ConverterDatabase

    /// The app's fields of a change: the whole state, in `ConverterState`'s own JSON encoding.
    struct Body: Decodable, Sendable {
        let state: ConverterState
    }

    /// What the endpoint answers: whether the change was applied (false when the saved state is
    /// newer) and the state as saved (units repaired, sign dropped where needed).
    struct Answer: Encodable {
        let id: String
        let applied: Bool
        let state: ConverterState
    }

    /// `GET /converter/catalog.json`: immutable under its versioned URL, revalidated by ETag otherwise.
    @Sendable func catalog(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let etag = "\"\(CatalogExport.version)\""
        let versioned = request.uri.queryParameters["v"].map { String($0) } == CatalogExport.version
        let cacheControl = versioned ? "public, max-age=31536000, immutable" : "no-cache"
        if request.headers[.ifNoneMatch] == etag {
            return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: cacheControl])
        }
        let data = CatalogExport.json
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/json", .cacheControl: cacheControl, .eTag: etag,
                .contentLength: String(data.count),
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `POST /converter/state`: sets the signed-in person's whole converter state, by the outbox
    /// contract (`Outbox`): the body is `{"state": …}`, and the latest `at` wins.
    @Sendable func setState(_ request: Request, context: PocketRequestContext) async throws -> Response {
        try await Outbox.handle(request, context: context) { (change: Outbox.Change<Body>) in
            let outcome = try await database.store(for: change.person).replace(with: change.body.state, changedAt: change.at)
            return Answer(id: change.id, applied: outcome.applied, state: outcome.state)
        }
    }
}
