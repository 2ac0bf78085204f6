import Foundation
import PocketCore

/// The server's description of the current sci-core database (`sci-core.json`).
///
/// Its values change with every release, so nothing here is hard-coded; every one is checked
/// before it is used, because names become file names and sizes become limits.
public struct SCIManifest: Sendable, Equatable {
    /// The release, e.g. "53".
    public let version: String
    /// The zip to download, relative to the manifest's address, e.g. "sci-core.53.zip".
    public let downloadName: String
    /// Size of the zip in bytes.
    public let downloadSize: Int64
    /// MD5 of the zip, 32 lowercase hex digits.
    public let downloadMD5: String
    /// The database inside the zip (also downloadable on its own), e.g. "core.53.db".
    public let contentName: String
    /// Size of the database in bytes.
    public let contentSize: Int64
    /// MD5 of the database, 32 lowercase hex digits.
    public let contentMD5: String

    /// The default manifest, from the original assignment (`Settings.sciManifest`'s default).
    public static let defaultURL = Settings.sciManifest.defaultText ?? ""
    /// The largest file Pocket accepts (the real database is about 46 MB).
    public static let maximumSize: Int64 = 4 << 30

    /// Creates a manifest from already checked values.
    public init(version: String, downloadName: String, downloadSize: Int64, downloadMD5: String, contentName: String, contentSize: Int64, contentMD5: String) {
        self.version = version
        self.downloadName = downloadName
        self.downloadSize = downloadSize
        self.downloadMD5 = downloadMD5
        self.contentName = contentName
        self.contentSize = contentSize
        self.contentMD5 = contentMD5
    }

    /// Parses and checks a manifest: names must be plain file names, sizes positive whole numbers
    /// (as JSON numbers or strings of digits), MD5s 32 hex digits.
    public static func parse(_ data: Data) throws(ConferenceError) -> SCIManifest {
        let object: [String: FlexibleValue]
        do {
            object = try JSONDecoder().decode([String: FlexibleValue].self, from: data)
        } catch {
            throw .invalidManifest("it is not a JSON object")
        }
        func text(_ key: String) throws(ConferenceError) -> String {
            guard let value = object[key] else { throw .invalidManifest("it has no “\(key)”") }
            guard case .text(let text) = value else { throw .invalidManifest("“\(key)” is not text") }
            return text.trimmingCharacters(in: .whitespaces)
        }
        func name(_ key: String) throws(ConferenceError) -> String {
            let value = try text(key)
            guard isPlainFileName(value) else { throw .invalidManifest("“\(key)” (\(quoted(value))) is not a plain file name") }
            return value
        }
        func size(_ key: String) throws(ConferenceError) -> Int64 {
            guard let value = object[key] else { throw .invalidManifest("it has no “\(key)”") }
            let number: Int64?
            switch value {
            case .integer(let integer): number = integer
            case .text(let text):
                let digits = text.trimmingCharacters(in: .whitespaces)
                number = !digits.isEmpty && digits.count <= 18 && digits.allSatisfy({ $0.isASCII && $0.isNumber }) ? Int64(digits) : nil
            case .other: number = nil
            }
            guard let number, number > 0 else { throw .invalidManifest("“\(key)” is not a positive whole number of bytes") }
            guard number <= maximumSize else { throw .invalidManifest("“\(key)” (\(number) bytes) is larger than Pocket accepts") }
            return number
        }
        func md5(_ key: String) throws(ConferenceError) -> String {
            let value = try text(key).lowercased()
            guard value.count == 32, value.allSatisfy(\.isHexDigit) else { throw .invalidManifest("“\(key)” is not an MD5 (32 hex digits)") }
            return value
        }
        let version: String
        switch object["version"] {
        case .integer(let number)?: version = String(number)
        default: version = try text("version")
        }
        guard isValidVersion(version) else { throw .invalidManifest("“version” (\(quoted(version))) is not a version number") }
        return SCIManifest(
            version: version,
            downloadName: try name("download-name"),
            downloadSize: try size("download-size"),
            downloadMD5: try md5("download-md5"),
            contentName: try name("content-name"),
            contentSize: try size("content-size"),
            contentMD5: try md5("content-md5")
        )
    }

    /// Whether `name` is a plain file name: letters, digits, `.`, `_` and `-`, starting with a
    /// letter or digit, at most 128 characters. No paths, no `..`, nothing a URL must escape.
    public static func isPlainFileName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.count <= 128, isAlphanumeric(first) else { return false }
        return name.unicodeScalars.allSatisfy { isAlphanumeric($0) || $0 == "." || $0 == "_" || $0 == "-" }
    }

    /// The address of `download-name` (or of `content-name`) next to the manifest.
    public func url(of name: String, relativeTo manifestURL: URL) -> URL {
        URL(string: name, relativeTo: manifestURL)?.absoluteURL ?? manifestURL.deletingLastPathComponent().appendingPathComponent(name)
    }
}

// MARK: - Private

private extension SCIManifest {
    /// A JSON value the manifest may use: the original writes every value as a string.
    enum FlexibleValue: Decodable {
        case text(String)
        case integer(Int64)
        /// Anything else (a fraction, a bool, null, an object): unusable for the keys Pocket reads.
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
            } else if let number = try? container.decode(Int64.self) {
                self = .integer(number)
            } else {
                self = .other
            }
        }
    }

    static func isValidVersion(_ version: String) -> Bool {
        guard !version.isEmpty, version.count <= 32 else { return false }
        return version.unicodeScalars.allSatisfy { isAlphanumeric($0) || $0 == "." || $0 == "_" || $0 == "-" }
    }

    static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    static func quoted(_ text: String) -> String {
        let short = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return "“\(short)”"
    }
}
