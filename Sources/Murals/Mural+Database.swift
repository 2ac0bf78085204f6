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

    /// A mural from a `murals` row and its images.
    init(row: Row, images: [MuralImage]) {
        let thumbnail: String? = row[Columns.thumbnail]
        self.init(
            id: row[Columns.id],
            title: row[Columns.title],
            artist: row[Columns.artist],
            info: row[Columns.info],
            thumbnail: thumbnail.flatMap(URL.init(string:)),
            coordinate: GeoCoordinate(latitude: row[Columns.latitude], longitude: row[Columns.longitude]),
            isEnabled: row[Columns.isEnabled],
            lastModified: row[Columns.lastModified],
            images: images
        )
    }

    /// The values of a `murals` row, in the order of `MuralsDatabase`'s upsert.
    var rowArguments: StatementArguments {
        [id, title, artist, info, thumbnail?.absoluteString, coordinate.latitude, coordinate.longitude, isEnabled, lastModified]
    }
}
