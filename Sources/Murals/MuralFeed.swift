import Foundation
import PocketCore

/// One record exactly as the murals service sends it: every scalar is a string, and
/// `artist` / `info` may be null. Numbers are accepted too, so a service that starts sending
/// `"id": 1` instead of `"id": "1"` still syncs. The one description of the wire record: the
/// sync reads it, and `DemoMuralService` writes it.
public struct MuralRecord: Codable, Sendable, Equatable {
    /// The mural's id (a whole number as text).
    public let id: String?
    /// Its title.
    public let title: String?
    /// The artist, or nil.
    public let artist: String?
    /// A paragraph about it, or nil.
    public let info: String?
    /// A full URL of a small picture.
    public let thumbnail: String?
    /// Latitude in decimal degrees, as text.
    public let lat: String?
    /// Longitude in decimal degrees, as text.
    public let lon: String?
    /// "1" when the mural is shown.
    public let enabled: String?
    /// When it last changed, `YYYY-MM-DD HH:MM:SS`.
    public let lastModified: String?
    /// Its pictures.
    public let images: [Image]?

    /// One `{"id", "filename"}` entry of `images`.
    public struct Image: Codable, Sendable, Equatable {
        /// The picture's id.
        public let id: String?
        /// Its file name under the image base.
        public let filename: String?

        /// An entry to send.
        public init(id: String?, filename: String?) {
            self.id = id
            self.filename = filename
        }

        /// Reads an entry, accepting numbers for strings.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = container.scalar(.id)
            filename = container.scalar(.filename)
        }

        /// Writes both keys, with explicit nulls.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(filename, forKey: .filename)
        }

        private enum CodingKeys: String, CodingKey {
            case id, filename
        }
    }

    /// A record to send.
    public init(id: String?, title: String?, artist: String?, info: String?, thumbnail: String?, lat: String?, lon: String?,
                enabled: String?, lastModified: String?, images: [Image]?) {
        self.id = id
        self.title = title
        self.artist = artist
        self.info = info
        self.thumbnail = thumbnail
        self.lat = lat
        self.lon = lon
        self.enabled = enabled
        self.lastModified = lastModified
        self.images = images
    }

    /// Reads a record, accepting numbers for strings and ignoring unknown keys.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = container.scalar(.id)
        title = container.scalar(.title)
        artist = container.scalar(.artist)
        info = container.scalar(.info)
        thumbnail = container.scalar(.thumbnail)
        lat = container.scalar(.lat)
        lon = container.scalar(.lon)
        enabled = container.scalar(.enabled)
        lastModified = container.scalar(.lastModified)
        // A broken image entry costs that picture, not the mural.
        images = (try? container.decodeIfPresent([Lenient<Image>].self, forKey: .images))?.compactMap(\.value)
    }

    /// Writes every key, with explicit nulls (the service sends `"artist": null`), so the demo
    /// service's records have the real one's shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(artist, forKey: .artist)
        try container.encode(info, forKey: .info)
        try container.encode(thumbnail, forKey: .thumbnail)
        try container.encode(lat, forKey: .lat)
        try container.encode(lon, forKey: .lon)
        try container.encode(enabled, forKey: .enabled)
        try container.encode(lastModified, forKey: .lastModified)
        try container.encode(images, forKey: .images)
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, artist, info, thumbnail, lat, lon, enabled, lastModified, images
    }
}

/// A record that could not be used, and why (logged, and counted in the sync summary).
public struct SkippedRecord: Sendable, Equatable {
    /// Its position in the response, from 0.
    public let index: Int
    /// Its id as sent, when there was one.
    public let id: String?
    /// Why it was skipped, e.g. "latitude “abc” is not a number".
    public let reason: String

    /// Creates a skipped-record note.
    public init(index: Int, id: String?, reason: String) {
        self.index = index
        self.id = id
        self.reason = reason
    }
}

/// The usable murals of one response and the records left out.
public struct MuralFeedResult: Sendable, Equatable {
    /// The murals, in response order, one per id (a later duplicate replaces an earlier one).
    public let murals: [Mural]
    /// Records that could not be used.
    public let skipped: [SkippedRecord]

    /// Creates a result.
    public init(murals: [Mural], skipped: [SkippedRecord]) {
        self.murals = murals
        self.skipped = skipped
    }
}

/// Reads the murals service's JSON: `{"newbrighton_murals": [record, …]}`.
public enum MuralFeed {
    /// The key of the top-level list.
    public static let listKey = "newbrighton_murals"

    /// The murals in `data`; a bad record is skipped with a reason, a bad response throws
    /// `MuralsError.malformedFeed` (so nothing is changed).
    public static func decode(_ data: Data) throws(MuralsError) -> MuralFeedResult {
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: data)
        } catch let error as DecodingError {
            throw .malformedFeed(Self.explain(error))
        } catch {
            throw .malformedFeed("not valid JSON")
        }
        var skipped: [SkippedRecord] = []
        var positions: [Int: Int] = [:]
        var murals: [Mural] = []
        for (index, entry) in (envelope.records ?? []).enumerated() {
            guard let record = entry.value else {
                skipped.append(SkippedRecord(index: index, id: nil, reason: "it is not a JSON object"))
                continue
            }
            switch mural(from: record) {
            case .success(let mural):
                if let earlier = positions[mural.id] {
                    murals[earlier] = mural // the later copy wins
                } else {
                    positions[mural.id] = murals.count
                    murals.append(mural)
                }
            case .failure(let problem):
                skipped.append(SkippedRecord(index: index, id: record.id, reason: problem.reason))
            }
        }
        return MuralFeedResult(murals: murals, skipped: skipped)
    }

    /// The mural a record describes, or why it cannot be used.
    public static func mural(from record: MuralRecord) -> Result<Mural, RecordProblem> {
        guard let idText = record.id?.trimmed, !idText.isEmpty else { return .failure(RecordProblem("it has no id")) }
        guard let id = Int(idText) else { return .failure(RecordProblem("its id “\(idText)” is not a whole number")) }
        guard let title = record.title?.trimmed, !title.isEmpty else { return .failure(RecordProblem("it has no title")) }
        guard let latText = record.lat?.trimmed, let lonText = record.lon?.trimmed else {
            return .failure(RecordProblem("it has no coordinates"))
        }
        guard let latitude = DecimalText.number(latText) else { return .failure(RecordProblem("its latitude “\(latText)” is not a number")) }
        guard let longitude = DecimalText.number(lonText) else { return .failure(RecordProblem("its longitude “\(lonText)” is not a number")) }
        guard let coordinate = GeoCoordinate.validated(latitude: latitude, longitude: longitude) else {
            return .failure(RecordProblem("its coordinates \(latText), \(lonText) are not on Earth"))
        }
        let thumbnail = record.thumbnail.map(\.trimmed).flatMap { text -> URL? in
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else { return nil }
            return url
        }
        let images = (record.images ?? []).compactMap { image -> MuralImage? in
            guard let filename = image.filename?.trimmed, !filename.isEmpty else { return nil }
            return MuralImage(id: image.id?.trimmed ?? "", filename: filename)
        }
        return .success(Mural(
            id: id,
            title: title,
            artist: record.artist?.trimmed.nonEmpty,
            info: record.info?.trimmed.nonEmpty,
            thumbnail: thumbnail,
            coordinate: coordinate,
            isEnabled: record.enabled?.trimmed == "1",
            lastModified: record.lastModified?.trimmed ?? "",
            images: images
        ))
    }

    /// Why a record was skipped.
    public struct RecordProblem: Error, Sendable, Equatable {
        /// The reason in words.
        public let reason: String

        /// Creates a problem.
        public init(_ reason: String) {
            self.reason = reason
        }
    }
}

// MARK: - Private

private extension MuralFeed {
    struct Envelope: Decodable {
        let records: [Lenient<MuralRecord>]?

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            let key = Key(stringValue: MuralFeed.listKey)
            guard container.contains(key) else {
                throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "no \(MuralFeed.listKey) list"))
            }
            // PHP's json_encode writes null for an empty query result; that means "nothing changed".
            records = try container.decodeIfPresent([Lenient<MuralRecord>].self, forKey: key)
        }
    }

    static func explain(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not valid JSON"
        case .keyNotFound:
            return "no “\(listKey)” list"
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            return "the top level is not an object"
        case .typeMismatch:
            return "“\(listKey)” is not a list"
        default:
            return "unexpected shape"
        }
    }
}

/// Decodes a value, keeping nil instead of failing the whole list when one element is bad.
struct Lenient<Value: Decodable>: Decodable {
    let value: Value?

    init(from decoder: any Decoder) throws {
        value = try? Value(from: decoder)
    }
}

extension KeyedDecodingContainer {
    /// A string, number or boolean as text; nil when absent, null or of another type.
    func scalar(_ key: Key) -> String? {
        if let text = try? decodeIfPresent(String.self, forKey: key) { return text }
        if let number = try? decodeIfPresent(Int.self, forKey: key) { return String(number) }
        if let number = try? decodeIfPresent(Double.self, forKey: key) { return String(number) }
        if let flag = try? decodeIfPresent(Bool.self, forKey: key) { return flag ? "1" : "0" }
        return nil
    }
}

extension String {
    var trimmed: String { WhiteSpace.trimmed(self) }
    var nonEmpty: String? { isEmpty ? nil : self }
}
