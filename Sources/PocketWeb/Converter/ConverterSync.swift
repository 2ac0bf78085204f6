import Converter
import Foundation
import Hummingbird

/// The two endpoints that let the converter work on the phone: the catalog the browser's engine
/// converts with, and the one that saves the phone's whole converter state.
///
/// The phone keeps its state in localStorage and sends every change as the whole state (through
/// the outbox, `{ id, at, state }`), so a resend sets the same state again and changes nothing.
/// Merge rule: the latest change wins, by its time (`at`, the phone's clock; a form post's is the
/// server's): a change made before the saved state's last change is answered but not applied.
struct ConverterSync: Sendable {
    let database: ConverterDatabase

    /// Most bytes a state change may have: a state is well under 1 KB.
    private static let maximumBytes = 16 * 1024

    /// A change from the phone's outbox: `state` in `ConverterState`'s own JSON encoding.
    struct Change: Decodable {
        let id: String
        let at: Double?
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

    /// `POST /converter/state`: sets the signed-in person's whole converter state from JSON.
    @Sendable func setState(_ request: Request, context: PocketRequestContext) async throws -> Response {
        let store = database.store(for: try context.requirePerson())
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: Self.maximumBytes)
        } catch {
            return try Self.json(["error": "That converter state is too large to read."], status: .contentTooLarge)
        }
        let change: Change
        do {
            change = try JSONDecoder().decode(Change.self, from: Data(buffer: buffer))
        } catch {
            return try Self.json(["error": Self.message(for: error)], status: .badRequest)
        }
        // A change without a time is as new as its arrival.
        let changedAt = change.at.map { Date(timeIntervalSince1970: $0 / 1000) } ?? Date()
        let outcome = try await store.replace(with: change.state, changedAt: changedAt)
        return try Self.json(Answer(id: change.id, applied: outcome.applied, state: outcome.state), status: .ok)
    }

    /// One line saying what was wrong with the JSON.
    private static func message(for error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _):
            return "The converter change has no “\(key.stringValue)”."
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
             DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "The converter change is not JSON." : "The converter change’s “\(path)” is not valid."
        default:
            return "The converter change is not JSON."
        }
    }

    private static func json(_ value: some Encodable, status: HTTPResponse.Status) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json", .cacheControl: "no-store", .contentLength: String(data.count)],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
