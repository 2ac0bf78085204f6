import Foundation
import PocketCore

/// One picture of a mural, as the service lists it (the file lives under the image base).
public struct MuralImage: Sendable, Hashable, Codable {
    /// The service's id for the picture.
    public let id: String
    /// The file name under the image base, e.g. `IMG_1065X.JPG`.
    public let filename: String

    /// Creates an image reference.
    public init(id: String, filename: String) {
        self.id = id
        self.filename = filename
    }

    /// `base` followed by the file name as one percent-encoded path component, or nil for a
    /// name that could only point outside the folder ("", ".", "..").
    public func url(base: URL) -> URL? {
        guard !["", ".", ".."].contains(filename) else { return nil }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;")
        guard let encoded = filename.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
        var prefix = base.absoluteString
        if !prefix.hasSuffix("/") { prefix += "/" }
        return URL(string: prefix + encoded)
    }
}

/// A mural in New Brighton: what it is, who painted it and where it is.
public struct Mural: Sendable, Hashable, Identifiable {
    /// The service's id (unique, stable across updates).
    public let id: Int
    /// Its title, e.g. "I See The Sea".
    public let title: String
    /// The artist, when the service knows it.
    public let artist: String?
    /// A paragraph about it, when the service has one.
    public let info: String?
    /// A small picture for lists (a full URL from the service).
    public let thumbnail: URL?
    /// Where it is.
    public let coordinate: GeoCoordinate
    /// Whether it is shown (`enabled == "1"`); a painted-over mural is kept but hidden.
    public let isEnabled: Bool
    /// When the service last changed it, as it says (`YYYY-MM-DD HH:MM:SS`).
    public let lastModified: String
    /// Its pictures, in the service's order.
    public let images: [MuralImage]

    /// Creates a mural.
    public init(
        id: Int,
        title: String,
        artist: String?,
        info: String?,
        thumbnail: URL?,
        coordinate: GeoCoordinate,
        isEnabled: Bool,
        lastModified: String,
        images: [MuralImage]
    ) {
        self.id = id
        self.title = title
        self.artist = artist
        self.info = info
        self.thumbnail = thumbnail
        self.coordinate = coordinate
        self.isEnabled = isEnabled
        self.lastModified = lastModified
        self.images = images
    }

    /// The full address of each picture under `base` (file names percent-encoded as one path component).
    /// A name that could only point outside the image folder ("", ".", "..") has no URL.
    public func imageURLs(base: URL) -> [URL] {
        images.compactMap { $0.url(base: base) }
    }
}
