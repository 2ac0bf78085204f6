import Foundation
import PocketCore

/// One thing a player did to their game — spot, un-spot, Reset Game or New Trip — with its own
/// id and the time the phone says it happened.
///
/// Phones keep changes in an outbox while offline and send them later, possibly more than once
/// and in any order, and two phones of one person may change the same game at once. So the game
/// is never changed by "doing" a change: every change is kept (once per id) and the game is
/// worked out from all of them by `PlatesMerge`'s rule, which does not care in which order they
/// arrived.
public struct PlateChange: Sendable, Equatable {
    /// What the player did.
    public enum Kind: String, Sendable, CaseIterable {
        /// Spotted a state's plate.
        case spot
        /// Took a spot back.
        case unspot
        /// Reset Game: every state of the trip back to white.
        case reset
        /// New Trip: the trip so far goes into the history and a new one starts.
        case newTrip
    }

    /// Chosen by the phone (a UUID); a change whose id was already applied is ignored.
    public let id: String
    /// When it happened, in milliseconds since 1970 (the phone's clock).
    public let at: Int64
    /// What happened.
    public let kind: Kind
    /// The state's postal code, for a spot or an un-spot; nil otherwise.
    public let stateCode: String?
    /// Where it happened, for a spot whose player records locations.
    public let location: Location?

    /// The latest time accepted: 1 January 10000, so any real clock fits and dates stay printable.
    public static let latestTime: Int64 = 253_402_300_800_000

    /// Refuses a change that cannot be applied, with a message saying what is wrong with it.
    public init(id: String, at: Int64, kind: Kind, stateCode: String? = nil, location: Location? = nil) throws(PlatesError) {
        guard ChangeID.isValid(id) else { throw .invalidChange(ChangeID.rule) }
        guard (0...Self.latestTime).contains(at) else {
            throw .invalidChange("its time must be milliseconds since 1970, before the year 10000")
        }
        let needsState = kind == .spot || kind == .unspot
        if needsState, stateCode?.isEmpty ?? true {
            throw .invalidChange("a \(kind.rawValue) needs a state")
        }
        if !needsState, stateCode != nil {
            throw .invalidChange("a \(kind.rawValue) is for every state, so it takes no state")
        }
        if kind != .spot, location != nil {
            throw .invalidChange("only a spot records a location")
        }
        self.id = id
        self.at = at
        self.kind = kind
        self.stateCode = stateCode?.uppercased()
        self.location = location
    }

    /// Orders changes by time, then by id (byte by byte), so equal times still have one order.
    static func precedes(_ a: PlateChange, _ b: PlateChange) -> Bool {
        a.at != b.at ? a.at < b.at : a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }
}

/// The merge rule: how a trip's spots follow from every change made to it, from any phone, in
/// whatever order the changes arrived.
///
/// 1. **Changes are ordered by when they happened** (`at`, the phone's clock), ties by id.
/// 2. **New Trip splits time.** A trip holds the changes made from its start up to the next
///    trip's start; a New Trip made at `t` ends the trip it falls in at `t` and starts a new one.
///    A change made before the New Trip belongs to the old trip, one made after it to the new
///    trip, even if it reaches the server after the New Trip did.
/// 3. **Within a trip, the latest change per state wins.** Walking the trip's changes in order: a
///    spot marks its state spotted (a second spot keeps the first sighting's time and place), an
///    un-spot clears it, and a Reset Game clears every state. So a Reset covers only changes made
///    before it: a spot made offline after a Reset, arriving later, still counts.
///
/// Each change id is applied at most once, so a resend changes nothing. Two phones of one
/// person, both offline, therefore merge to one game whatever order their outboxes arrive in.
public enum PlatesMerge {
    /// A state spotted on a trip: when, and where if recorded.
    public struct Sighting: Sendable, Equatable {
        /// When it was (first) spotted, in milliseconds since 1970.
        public let at: Int64
        /// Where, if recorded.
        public let location: Location?
    }

    /// The spotted states of one trip, by state code, from the changes made during it (in any
    /// order; New Trip changes only mark the trip's bounds and are skipped here).
    public static func spots(_ changes: [PlateChange]) -> [String: Sighting] {
        var spotted: [String: Sighting] = [:]
        for change in changes.sorted(by: PlateChange.precedes) {
            switch change.kind {
            case .spot:
                guard let code = change.stateCode, spotted[code] == nil else { continue }
                spotted[code] = Sighting(at: change.at, location: change.location)
            case .unspot:
                if let code = change.stateCode { spotted[code] = nil }
            case .reset:
                spotted.removeAll()
            case .newTrip:
                continue
            }
        }
        return spotted
    }
}
