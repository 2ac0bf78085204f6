import Foundation
import GRDB
import PocketCore

/// One person's Murals data as it leaves or enters Pocket: their stars and visits, by the
/// service's mural ids (the murals themselves are the service's and are synced, not exported).
public struct MuralsExport: Codable, Sendable, Equatable {
    /// A starred mural.
    public struct Star: Codable, Sendable, Equatable {
        /// The mural's id in the murals service.
        public var muralID: Int
        /// When it was starred, milliseconds since 1970.
        public var addedAt: Int64
    }

    /// A mural passed on a walk.
    public struct Visit: Codable, Sendable, Equatable {
        /// The mural's id in the murals service.
        public var muralID: Int
        /// When it was first passed, milliseconds since 1970.
        public var visitedAt: Int64
    }

    /// Stars, by mural id.
    public var stars: [Star]
    /// Visits, by mural id.
    public var visits: [Visit]
}

extension MuralsDatabase {
    /// `person`'s stars and visits, read in one transaction.
    public func exported(for person: PersonID) async throws -> MuralsExport {
        try await writer.read { db in
            let stars = try Self.stars.items(of: person, db).sorted { $0.itemID < $1.itemID }
                .map { MuralsExport.Star(muralID: $0.itemID, addedAt: $0.addedAt) }
            let visits = try Row.fetchAll(db, sql: "SELECT muralID, visitedAt FROM visited WHERE personID = ? ORDER BY muralID", arguments: [person.rawValue])
                .map { MuralsExport.Visit(muralID: try $0.decode(forColumn: "muralID"), visitedAt: ChangeTime.milliseconds(try $0.decode(Date.self, forColumn: "visitedAt"))) }
            return MuralsExport(stars: stars, visits: visits)
        }
    }

    /// Adds an export's stars and visits to `person`'s in one transaction. A star is decided at
    /// the time it was made, so a later un-star of that mural here still wins (the outbox's rule);
    /// a visit keeps the earlier time. A star of a mural this Pocket does not have (never synced
    /// here, or no mural at all) is left out, as a phone's star of one would be refused; the
    /// ids left out are returned so the import can say so. A hidden mural is still one this
    /// Pocket has: its star is kept, as stars always are while a mural is hidden.
    @discardableResult
    public func importData(_ data: MuralsExport, for person: PersonID) async throws -> [Int] {
        for star in data.stars where !(0...253_402_300_800_000).contains(star.addedAt) {
            throw MuralsError.invalidChange("a star's time must be milliseconds since 1970, before the year 10000")
        }
        for visit in data.visits where !(0...253_402_300_800_000).contains(visit.visitedAt) {
            throw MuralsError.invalidChange("a visit's time must be milliseconds since 1970, before the year 10000")
        }
        return try await writer.write { db in
            var skipped: [Int] = []
            for star in data.stars {
                guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM murals WHERE id = ?)", arguments: [star.muralID]) ?? false else {
                    skipped.append(star.muralID)
                    continue
                }
                try Self.stars.takeIn(itemID: star.muralID, addedAt: star.addedAt, for: person, db)
            }
            for visit in data.visits {
                let date = ChangeTime.date(visit.visitedAt)
                let existing = try Date.fetchOne(db, sql: "SELECT visitedAt FROM visited WHERE personID = ? AND muralID = ?", arguments: [person.rawValue, visit.muralID])
                if let existing, existing <= date { continue }
                try db.execute(
                    sql: "INSERT INTO visited(personID, muralID, visitedAt) VALUES (?, ?, ?) ON CONFLICT(personID, muralID) DO UPDATE SET visitedAt = excluded.visitedAt",
                    arguments: [person.rawValue, visit.muralID, date])
            }
            return skipped
        }
    }
}
