/// What can go wrong in the license plate game, in words a player can act on.
public enum PlatesError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bundled list of states is damaged.
    case catalogInvalid(String)
    /// No state has that postal code.
    case unknownState(String)
    /// No trip has that id.
    case unknownTrip(Int64)
    /// A location outside the valid latitude/longitude range.
    case invalidLocation
    /// The plate picture could not be fetched.
    case imageUnavailable(String)
    /// A change sent by a phone that cannot be applied; says what is wrong with it.
    case invalidChange(String)
    /// An import's `trips` say something its changes do not make; says the first difference.
    case tripsDisagree(String)
    /// Writing an import's changes stopped part-way: how many of how many were written, and why.
    case importStopped(written: Int, total: Int, reason: String)

    /// A one-line message.
    public var description: String {
        switch self {
        case .catalogInvalid(let detail): return "The list of states is damaged: \(detail)"
        case .unknownState(let code): return "There is no state with the code “\(code)”."
        case .unknownTrip(let id): return "There is no trip number \(id)."
        case .invalidLocation: return "That location is not on Earth: latitude must be within ±90° and longitude within ±180°."
        case .imageUnavailable(let detail): return "The plate picture could not be loaded: \(detail)"
        case .invalidChange(let detail): return "That change cannot be applied: \(detail)."
        case .tripsDisagree(let detail):
            return "The Plates part of the file cannot be imported: \(detail). Pocket works trips out from plates.changes: edit those, not trips."
        case let .importStopped(written, total, reason):
            return "The Plates import stopped after \(written) of \(total) changes (\(reason)); import the file again to finish: changes already imported are skipped."
        }
    }
}
