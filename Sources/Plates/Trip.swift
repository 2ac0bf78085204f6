import Foundation

/// One game: the states spotted between its start and (once finished) its end.
public struct Trip: Sendable, Equatable, Identifiable {
    /// Database id.
    public let id: Int64
    /// When the trip began.
    public let startedAt: Date
    /// When a new trip replaced it; nil for the current trip.
    public let endedAt: Date?

    /// Creates a trip value.
    public init(id: Int64, startedAt: Date, endedAt: Date?) {
        self.id = id
        self.startedAt = startedAt
        self.endedAt = endedAt
    }

    /// Whether this is the game being played.
    public var isCurrent: Bool { endedAt == nil }
}

/// A sighting of one state's plate during a trip.
public struct Spot: Sendable, Equatable {
    /// The trip it belongs to.
    public let tripID: Int64
    /// The state's postal code.
    public let stateCode: String
    /// When it was spotted.
    public let spottedAt: Date
    /// Where, if the player allowed the browser to tell.
    public let location: Location?

    /// Creates a spot value.
    public init(tripID: Int64, stateCode: String, spottedAt: Date, location: Location?) {
        self.tripID = tripID
        self.stateCode = stateCode
        self.spottedAt = spottedAt
        self.location = location
    }
}

/// A WGS84 position, validated on creation.
public struct Location: Sendable, Equatable {
    /// Degrees north.
    public let latitude: Double
    /// Degrees east.
    public let longitude: Double

    /// Refuses positions off the globe (and NaN).
    public init(latitude: Double, longitude: Double) throws(PlatesError) {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else { throw .invalidLocation }
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The state of the current game, read in one transaction so score and spots always agree.
public struct GameSnapshot: Sendable, Equatable {
    /// The trip being played.
    public let trip: Trip
    /// Its spots by state code.
    public let spots: [String: Spot]
    /// Whether sounds are muted (remembered for the person).
    public let isMuted: Bool
    /// Whether spots record the browser's location.
    public let recordsLocation: Bool

    /// Creates a snapshot.
    public init(trip: Trip, spots: [String: Spot], isMuted: Bool, recordsLocation: Bool) {
        self.trip = trip
        self.spots = spots
        self.isMuted = isMuted
        self.recordsLocation = recordsLocation
    }

    /// The score: derived from the spots, never stored, so it cannot drift.
    public var score: Int { spots.count }

    /// Whether a state has been spotted on this trip.
    public func isSpotted(_ code: String) -> Bool { spots[code] != nil }
}

/// A finished or current trip with its final score, for the history list.
public struct TripSummary: Sendable, Equatable {
    /// The trip.
    public let trip: Trip
    /// States spotted on it.
    public let score: Int

    /// Creates a summary.
    public init(trip: Trip, score: Int) {
        self.trip = trip
        self.score = score
    }
}
