import Conference
import Converter
import Foundation
import Hummingbird
import Murals
import Plates
import PocketCore
import Remote

/// An error a person can act on: the status it answers with and its one-line message. Each
/// domain's error enum is mapped here, once, so every route (a page, an outbox change) answers
/// the same error the same way; `ErrorPageMiddleware` shows it as a page, or as JSON
/// `{"error": "…"}` to a request that asks for JSON.
protocol PersonFacingError: HTTPResponseError {
    /// The HTTP status: 4xx for what the request got wrong, 5xx for what Pocket could not do.
    var status: HTTPResponse.Status { get }
    /// What to tell the person, in one line.
    var message: String { get }
}

extension PersonFacingError {
    /// Outside `ErrorPageMiddleware` (which answers with a page or JSON), the message as plain text.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: message)))
    }
}

extension WebError: PersonFacingError {
    public var status: HTTPResponse.Status {
        switch self {
        case .noSuchPage: .notFound
        case .resourcesMissing, .tlsUnusable: .internalServerError
        }
    }

    var message: String { description }
}

extension PlatesError: PersonFacingError {
    public var status: HTTPResponse.Status {
        switch self {
        case .unknownState, .unknownTrip: .notFound
        case .invalidLocation, .invalidChange, .tripsDisagree: .badRequest
        case .catalogInvalid, .imageUnavailable: .internalServerError
        // The disk or the database failed part-way; the message says how far the import got.
        case .importStopped: .serviceUnavailable
        }
    }

    var message: String { description }
}

extension MuralsError: PersonFacingError {
    public var status: HTTPResponse.Status {
        switch self {
        case .unknownMural: .notFound
        case .invalidChange, .malformedGPX: .badRequest
        case .serviceUnavailable, .imageUnavailable, .notAnImage: .badGateway
        case .missingResource, .malformedFeed, .storeFailed: .internalServerError
        }
    }

    var message: String { description }
}

extension ConferenceError: PersonFacingError {
    public var status: HTTPResponse.Status {
        switch self {
        case .unknownConference, .unknownTalk, .unknownSpeaker, .unknownBook, .citationsUnavailable: .notFound
        case .invalidChange: .badRequest
        case .busy: .conflict
        case .talkTextUnavailable, .manifestUnavailable, .downloadFailed: .badGateway
        default: .internalServerError
        }
    }

    var message: String { description }
}

extension ConverterError: PersonFacingError {
    public var status: HTTPResponse.Status { .badRequest }
    var message: String { description }
}

extension ChangeTimeError: PersonFacingError {
    /// The change is well formed but can never be applied as it is: the phone's clock is wrong.
    public var status: HTTPResponse.Status { .unprocessableContent }
    var message: String { "That change cannot be applied: \(description)." }
}

extension RemoteError: PersonFacingError {
    public var status: HTTPResponse.Status { .badRequest }
    var message: String { "\(description)." }
}

extension PeopleError: PersonFacingError {
    public var status: HTTPResponse.Status {
        switch self {
        case .unknownPerson: .notFound
        case .nameTaken, .lastOwner, .alreadySetUp: .conflict
        case .invalidName, .invalidPassword, .pairingCodeInvalid: .badRequest
        case .storage: .internalServerError
        }
    }

    var message: String { description }
}
