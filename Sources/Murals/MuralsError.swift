import Foundation
import PocketCore

/// What can go wrong in the Murals app, in words a visitor can act on.
public enum MuralsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A bundled resource (a GPX walk) is missing from the build.
    case missingResource(String)
    /// The murals service answered with something that is not the murals list.
    case malformedFeed(String)
    /// The murals service could not be asked (offline, error status, too slow, too big).
    case serviceUnavailable(FetchError)
    /// The saved murals could not be read or written.
    case storeFailed(String)
    /// No shown mural has this id.
    case unknownMural(Int)
    /// A GPX file could not be read.
    case malformedGPX(String)
    /// A mural picture could not be fetched and is not saved yet.
    case imageUnavailable(String)
    /// The server sent something other than a picture.
    case notAnImage(contentType: String)
    /// A change sent from the phone's outbox is not one Pocket understands.
    case invalidChange(String)

    /// A one-line message.
    public var description: String {
        switch self {
        case .missingResource(let name):
            return "The bundled file “\(name)” is missing from this build of Pocket."
        case .malformedFeed(let detail):
            return "The murals service sent something Pocket cannot read (\(detail)); the saved murals are unchanged."
        case .serviceUnavailable(let reason):
            return "The murals could not be updated: \(reason.description). The saved murals are still shown."
        case .storeFailed(let detail):
            return "The saved murals could not be used: \(detail)."
        case .unknownMural(let id):
            return "There is no mural with id \(id)."
        case .malformedGPX(let detail):
            return "The GPX file cannot be read: \(detail)."
        case .imageUnavailable(let reason):
            return "The picture is not saved yet and could not be fetched: \(reason)."
        case .notAnImage(let type):
            return "The server sent \(type.isEmpty ? "something without a type" : "“\(type)”") instead of a picture."
        case .invalidChange(let detail):
            return "The change cannot be applied: \(detail)."
        }
    }
}
