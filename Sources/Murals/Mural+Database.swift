import Foundation
import GRDB
import PocketCore

/// Row mapping for `Mural`, kept out of the model so the model never imports GRDB.
extension Mural {
    enum Columns {
        static let id = Column("id")
        static let title = Column("title")
        static let artist = Column("artist")
        static let info = Column("info")
        static let thumbnail = Column("thumbnail")
        static let latitude = Column("latitude")
        static let longitude = Column("longitude")
        static let isEnabled = Column("isEnabled")
        static let lastModified = Column("lastModified")
    }

    /// A mural from a `murals` row and its images; a column that cannot be read throws.
    init(row: Row, images: [MuralImage]) throws {
        let thumbnail: String? = try row.decode(forColumn: Columns.thumbnail)
        self.init(
            id: try row.decode(forColumn: Columns.id),
            title: try row.decode(forColumn: Columns.title),
            artist: try row.decode(forColumn: Columns.artist),
            info: try row.decode(forColumn: Columns.info),
            thumbnail: thumbnail.flatMap(URL.init(string:)),
            coordinate: GeoCoordinate(latitude: try row.decode(forColumn: Columns.latitude), longitude: try row.decode(forColumn: Columns.longitude)),
            isEnabled: try row.decode(forColumn: Columns.isEnabled),
            lastModified: try row.decode(forColumn: Columns.lastModified),
            images: images
        )
    }

    /// The values of a `murals` row, in the order of `MuralsDatabase`'s upsert.
    var rowArguments: StatementArguments {
        [id, title, artist, info, thumbnail?.absoluteString, coordinate.latitude, coordinate.longitude, isEnabled, lastModified]
    }
}
