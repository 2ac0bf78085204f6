import Foundation
import GRDB

// Row decoding lives here so the model types never import the database.

extension Trip {
    init(row: Row) {
        self.init(id: row["id"], startedAt: row["startedAt"], endedAt: row["endedAt"])
    }
}

extension Spot: FetchableRecord {
    public init(row: Row) throws {
        let latitude: Double? = row["latitude"]
        let longitude: Double? = row["longitude"]
        var location: Location?
        if let latitude, let longitude {
            location = try? Location(latitude: latitude, longitude: longitude)
        }
        self.init(tripID: row["tripID"], stateCode: row["stateCode"], spottedAt: row["spottedAt"], location: location)
    }
}
