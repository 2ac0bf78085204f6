import Conference
import Converter
import Foundation
import Hummingbird
import Murals
import Plates
import PocketCore

/// An error a person can act on: the status it answers with and its one-line message. Each
/// domain's error enum is mapped here, once, so every route (a page, an outbox change) answers
/// the same error the same way; `ErrorPageMiddleware` shows it as a page, or as JSON
/// `{"error": "…"}` to a request that asks for JSON.
protocol PersonFacingError: Error {
    /// The HTTP status: 4xx for what the request got wrong, 5xx for what Pocket could not do.
    var status: HTTPResponse.Status { get }
    /// What to tell the person, in one line.
    var message: String { get }
}

extension PlatesError: PersonFacingError {
    var status: HTTPResponse.Status {
        switch self {
        case .unknownState, .unknownTrip: .notFound
        case .invalidLocation, .invalidChange: .badRequest
        case .catalogInvalid, .imageUnavailable: .internalServerError
        }
    }

    var message: String { description }
}

extension MuralsError: PersonFacingError {
    var status: HTTPResponse.Status {
        switch self {
        case .unknownMural: .notFound
        case .invalidChange, .malformedGPX: .badRequest
        case .serviceUnavailable, .imageUnavailable, .notAnImage: .badGateway
        case .missingResource, .malformedFeed, .invalidEndpoint, .storeFailed: .internalServerError
        }
    }

    var message: String { description }
}

extension ConferenceError: PersonFacingError {
    var status: HTTPResponse.Status {
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
    var status: HTTPResponse.Status { .badRequest }
    var message: String { description }
}

extension ChangeTimeError: PersonFacingError {
    /// The change is well formed but can never be applied as it is: the phone's clock is wrong.
    var status: HTTPResponse.Status { .unprocessableContent }
    var message: String { "That change cannot be applied: \(description)." }
}
