import Foundation
import PocketCore

/// A mural and how far it is from someone.
public struct MuralDistance: Sendable, Equatable {
    /// The mural.
    public let mural: Mural
    /// The great-circle distance in metres.
    public let metres: Double

    /// Creates a pairing.
    public init(mural: Mural, metres: Double) {
        self.mural = mural
        self.metres = metres
    }
}

/// Orders murals for the list under the map.
public enum MuralOrdering {
    /// Nearest first; equal distances by title, then id, so the list never jitters.
    public static func byDistance(_ murals: [Mural], from origin: GeoCoordinate) -> [MuralDistance] {
        murals
            .map { MuralDistance(mural: $0, metres: origin.distance(to: $0.coordinate)) }
            .sorted { left, right in
                if left.metres != right.metres { return left.metres < right.metres }
                if left.mural.title != right.mural.title { return left.mural.title < right.mural.title }
                return left.mural.id < right.mural.id
            }
    }
}
