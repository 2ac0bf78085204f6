import Foundation
import Hummingbird
import PocketCore
import Synchronization

/// The one contract every change from a phone's outbox arrives by (Plates, Murals, Converter,
/// and any app that takes changes made offline).
///
/// **Request.** `POST` with the device's CSRF token in `X-CSRF-Token` and a JSON body of at most
/// `maximumBytes`: `{"id": "<1-100 printable ASCII>", "at": <ms since 1970, the phone's clock>,
/// "device": "<the tag of the device that made it>", "body": {…the app's change…}}`.
///
/// **Answer.** 200 with the app's JSON answer (a resend of an applied id is a 200 that changes
/// nothing), or `{"error": "<one line>"}` with a status that tells the outbox what to do:
/// - 400 the change is not one (malformed JSON, a missing or wrong field), 404 it names
///   something that does not exist, 413 it is too large, 422 its time is outside
///   `ChangeTime`'s bounds: **refused for good**, the outbox drops it and says so;
/// - 409 another device made it (the signed-in device's tag differs): **set aside**, so it is
///   never applied to the person signed in now;
/// - anything else (401 signed out, 429 faster than `ChangeRate` allows, 5xx, no answer): **wait**
///   and send again at its next try (a 429's `Retry-After` says how long, for clients that read it).
/// `js/lib/outbox-core.js` holds the same lists; `OutboxContractTests` keeps them equal.
enum Outbox {
    /// The largest change body read: a change is a few fields.
    static let maximumBytes = 16 * 1024
    /// Statuses after which the outbox drops a change: the server understood it and it can never apply.
    static let refusedStatuses: [HTTPResponse.Status] = [.badRequest, .notFound, .gone, .contentTooLarge, .unprocessableContent]
    /// The status after which the outbox sets a change aside: it belongs to another device.
    static let setAsideStatus: HTTPResponse.Status = .conflict
    /// Statuses a signed-out browser gets (no session; the device's CSRF token no longer
    /// matches): the change waits for the person to sign in again.
    static let signedOutStatuses: [HTTPResponse.Status] = [.unauthorized, .forbidden]

    /// One change as it arrived, checked: whose it is and what it asks.
    struct Change<Body: Sendable>: Sendable {
        /// The phone's id for the change: applied at most once per person.
        let id: String
        /// When it was made, in milliseconds since 1970 (within `ChangeTime`'s bounds).
        let at: Int64
        /// The signed-in person it applies to.
        let person: PersonID
        /// The app's own fields.
        let body: Body
    }

    /// Reads, checks and applies one change, answering by the contract above. `apply` gets a
    /// change whose envelope is valid and returns the app's answer; it throws a
    /// `PersonFacingError` for a change the app refuses.
    static func handle<Body: Decodable & Sendable>(
        _ request: Request, context: PocketRequestContext, now: Date = Date(),
        apply: (Change<Body>) async throws -> some Encodable
    ) async throws -> Response {
        guard let identity = context.identity else { throw HTTPError(.unauthorized, message: "Sign in first.") }
        if let wait = context.changeRate?.wait(for: identity.person.id) {
            var answer = JSONAnswer.error("Changes are arriving faster than Pocket takes them from one person: this one is sent again in a moment.", status: .tooManyRequests)
            answer.headers[.retryAfter] = String(wait)
            return answer
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximumBytes)
        } catch {
            return JSONAnswer.error("That change is too large to read: a change is at most \(maximumBytes / 1024) KB.", status: .contentTooLarge)
        }
        let change: Change<Body>
        do {
            let envelope = try Envelope<Body>.decode(Data(buffer: buffer))
            // Whose it is comes first: another device's change is set aside, whatever else is wrong with it.
            guard envelope.device == identity.device.tag else {
                return JSONAnswer.error(
                    "That change was made on another device or before signing in again, so it is not applied to \(identity.person.name).",
                    status: setAsideStatus)
            }
            try ChangeTime.check(envelope.at, now: now)
            change = Change(id: envelope.id, at: envelope.at, person: identity.person.id, body: envelope.body)
        } catch let error as any PersonFacingError {
            return JSONAnswer.error(error.message, status: error.status)
        }
        do {
            return JSONAnswer.encode(try await apply(change))
        } catch let error as any PersonFacingError where error.status.code < 500 {
            return JSONAnswer.error(error.message, status: error.status)
        }
    }
}

/// A change envelope that is not one, with a message naming what is wrong.
struct OutboxEnvelopeError: PersonFacingError, Equatable {
    let detail: String
    var status: HTTPResponse.Status { .badRequest }
    var message: String { "That change cannot be applied: \(detail)." }
}

/// The envelope as it arrives: every field read separately, so the message can name the one
/// that is missing or of the wrong type.
private struct Envelope<Body: Decodable>: Decodable {
    let id: String
    let at: Int64
    let device: String
    let body: Body

    private enum CodingKeys: String, CodingKey {
        case id, at, device, body
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        // A number that is not a whole Int64 (1.5, 1e300) is named here: JSONDecoder would only
        // call the whole body invalid.
        if let whole = try? container.decode(Int64.self, forKey: .at) {
            at = whole
        } else if (try? container.decode(Double.self, forKey: .at)) != nil {
            throw OutboxEnvelopeError(detail: "“at” must be a whole number of milliseconds since 1970")
        } else {
            at = try container.decode(Int64.self, forKey: .at)
        }
        device = try container.decode(String.self, forKey: .device)
        body = try container.decode(Body.self, forKey: .body)
    }

    /// The envelope in `data`; an `OutboxEnvelopeError` naming the field that is wrong, or the
    /// body's own `PersonFacingError` (with its status) when the app refused a value.
    static func decode(_ data: Data) throws -> Envelope {
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw OutboxEnvelopeError(detail: "it has no “\(path(context.codingPath + [key]))”")
        } catch let DecodingError.typeMismatch(_, context) where !context.codingPath.isEmpty {
            throw OutboxEnvelopeError(detail: "“\(path(context.codingPath))” has the wrong type")
        } catch let DecodingError.valueNotFound(_, context) {
            throw OutboxEnvelopeError(detail: "“\(path(context.codingPath))” is missing")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw OutboxEnvelopeError(detail: "“\(path(context.codingPath))” is not valid")
        } catch let error as any PersonFacingError {
            // A body's own decoder refused a value, in the app's words and with its status.
            throw error
        } catch {
            throw OutboxEnvelopeError(detail: "it is not a JSON object {id, at, device, body}")
        }
        guard ChangeID.isValid(envelope.id) else { throw OutboxEnvelopeError(detail: ChangeID.rule) }
        return envelope
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}

/// Gives every request the router's one `ChangeRate`, which `Outbox.handle` asks.
struct ChangeRateMiddleware: RouterMiddleware {
    typealias Context = PocketRequestContext

    let rate: ChangeRate

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.changeRate = rate
        return try await next(request, context)
    }
}

/// How fast one person's changes are applied: a bucket of `burst` changes refilled at `perSecond`.
///
/// Why: one member sent 303 changes a second (about 16 GB of history a day) and another person's
/// tap went from 4 ms to 90 ms meanwhile. A phone sends a change per tap, and an outbox back
/// online sends what it kept one after another; neither comes near these numbers. Beyond them the
/// answer is 429 with `Retry-After`, which the outbox reads as "wait and send again".
public final class ChangeRate: Sendable {
    /// Changes one person may send at once before the rate applies.
    let burst: Double
    /// Changes a second one person may send for as long as they like.
    let perSecond: Double
    private let buckets = Mutex<[PersonID: Bucket]>([:])

    private struct Bucket {
        var tokens: Double
        var at: ContinuousClock.Instant
    }

    /// Creates a rate: `burst` changes at once, then `perSecond`, for each person.
    public init(burst: Int = 500, perSecond: Double = 100) {
        self.burst = Double(burst)
        self.perSecond = perSecond
    }

    /// nil when `person` may send a change now (and counts it), else the whole seconds to wait.
    func wait(for person: PersonID, now: ContinuousClock.Instant = .now) -> Int? {
        buckets.withLock { buckets in
            var bucket = buckets[person] ?? Bucket(tokens: burst, at: now)
            let elapsed = now - bucket.at
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(burst, bucket.tokens + max(0, seconds) * perSecond)
            bucket.at = now
            defer { buckets[person] = bucket }
            guard bucket.tokens < 1 else {
                bucket.tokens -= 1
                return nil
            }
            return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up)))
        }
    }
}
