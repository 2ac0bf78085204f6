import Foundation
import GRDB
import PocketCore

// Row decoding lives here so the model types never import the database. Every time is stored as
// whole milliseconds since 1970 (INTEGER), and every column is read with a throwing decode, so a
// row that cannot be read is an error for that request, never a crash.

extension Trip {
    init(row: Row) throws {
        let ended: Int64? = try row.decode(forColumn: "endedAt")
        self.init(id: try row.decode(forColumn: "id"), startedAt: ChangeTime.date(try row.decode(forColumn: "startedAt")),
                  endedAt: ended.map(ChangeTime.date))
    }
}

extension Spot: FetchableRecord {
    public init(row: Row) throws {
        let latitude: Double? = try row.decode(forColumn: "latitude")
        let longitude: Double? = try row.decode(forColumn: "longitude")
        var location: Location?
        if let latitude, let longitude {
            location = try? Location(latitude: latitude, longitude: longitude)
        }
        self.init(tripID: try row.decode(forColumn: "tripID"), stateCode: try row.decode(forColumn: "stateCode"),
                  spottedAt: ChangeTime.date(try row.decode(forColumn: "spottedAt")), location: location)
    }
}

extension PlateChange {
    /// Reads a logged change; nil for a row no longer valid (never written so), which is skipped.
    init?(row: Row) throws {
        guard let kind = Kind(rawValue: try row.decode(forColumn: "kind")) else { return nil }
        let latitude: Double? = try row.decode(forColumn: "latitude"), longitude: Double? = try row.decode(forColumn: "longitude")
        let location = latitude.flatMap { latitude in longitude.flatMap { try? Location(latitude: latitude, longitude: $0) } }
        let id: String = try row.decode(forColumn: "id"), at: Int64 = try row.decode(forColumn: "at")
        let stateCode: String? = try row.decode(forColumn: "stateCode")
        guard let change = try? PlateChange(id: id, at: at, kind: kind, stateCode: stateCode, location: location) else { return nil }
        self = change
    }
}
