import HTTPTypes
import NIOCore
import PocketDeflate
import Synchronization

/// When and how Pocket sends a response gzip-compressed: one rule for the static files (compressed
/// once, at start-up) and for everything else (compressed as it is sent).
enum Compression {
    /// Below this a response is sent as it is: gzip's header and the work would cost more than it saves.
    static let minimumSize = 1024

    /// The text types worth compressing; images, audio, zip archives and the database are
    /// compressed already, and event streams must flow as they are written.
    static func isCompressible(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return type.hasPrefix("text/") && type != "text/event-stream"
            || ["application/json", "application/manifest+json", "application/javascript", "application/xml",
                "application/gpx+xml", "application/geo+json", "image/svg+xml"].contains(type)
    }

    /// Whether an `Accept-Encoding` value accepts gzip (RFC 9110 §12.5.3: `gzip` or `*` with a
    /// non-zero weight, and gzip not refused by name).
    static func acceptsGzip(_ values: [String]) -> Bool {
        var named: Bool?, wildcard = false
        for value in values {
            for item in value.split(separator: ",") {
                let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                guard let coding = parts.first else { continue }
                let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
                if coding == "gzip" || coding == "x-gzip" {
                    named = weight > 0
                } else if coding == "*" {
                    wildcard = weight > 0
                }
            }
        }
        return named ?? wildcard
    }

    /// Whether a personal response may be compressed for this request. Compression beside a
    /// secret (a CSRF token, a pairing code) and text an attacker chose (a search reflected in
    /// the page) would let the compressed length give the secret away (BREACH). Only another
    /// site can choose that text, so a personal response is compressed only for a request from
    /// Pocket's own pages or the person's own action (`Sec-Fetch-Site: same-origin` or `none`),
    /// never for one another site started or a browser that does not say.
    static func mayCompressPersonal(secFetchSite: String?) -> Bool {
        secFetchSite == "same-origin" || secFetchSite == "none"
    }

    /// Whether a response is one person's: pages and answers sent `private` or `no-store`.
    static func isPersonal(cacheControl: String?) -> Bool {
        guard let cacheControl = cacheControl?.lowercased() else { return false }
        return cacheControl.contains("private") || cacheControl.contains("no-store")
    }

    /// The body for a file compressed ahead (`gzip`, nil when it did not pay): the gzip when the
    /// request accepts it, marking `headers` with the encoding; `Vary` whenever there was a choice.
    static func body(_ plain: ByteBuffer, gzip: ByteBuffer?, acceptEncoding: [String], headers: inout HTTPFields) -> ByteBuffer {
        guard let gzip else { return plain }
        headers.appendVary(.acceptEncoding)
        guard acceptsGzip(acceptEncoding) else { return plain }
        headers[.contentEncoding] = "gzip"
        return gzip
    }

    /// How hard to compress: libdeflate's levels (1 fastest … 12 smallest).
    enum Level: Int32 {
        /// Responses compressed as they are sent: most of the saving on markup for a few tens of
        /// microseconds a page, so compressing costs little of a page's time (`bench/pages.sh`).
        case fastest = 1
        /// Pages kept in the page memo: compressed once per version, sent many times.
        case kept = 6
        /// Static files, compressed once at start-up: libdeflate's 10–12 take 4–8 times as long
        /// for 3% less (pocket.css: 1.8 ms for 9,757 bytes at 9, 14 ms for 9,447 at 12).
        case startUp = 9
    }

    /// `bytes` gzip-compressed, a whole body at once.
    static func gzip(_ bytes: ByteBuffer, level: Level) throws(CompressionError) -> ByteBuffer {
        let compressor = try compressors.take(level)
        defer { compressors.give(compressor, level) }
        let bound = bytes.withUnsafeReadableBytes { libdeflate_gzip_compress_bound(compressor.pointer, $0.count) }
        var output = ByteBufferAllocator().buffer(capacity: bound)
        let written = bytes.withUnsafeReadableBytes { input in
            output.writeWithUnsafeMutableBytes(minimumWritableBytes: bound) { out in
                libdeflate_gzip_compress(compressor.pointer, input.baseAddress, input.count, out.baseAddress, out.count)
            }
        }
        // libdeflate writes nothing only when the output has no room, which the bound rules out.
        guard written > 0 else { throw .noRoom }
        return output
    }

    /// The compressors responses share.
    private static let compressors = DeflateCompressors()
}

/// libdeflate compressors kept between responses, each used by one response at a time.
///
/// Why: a compressor's tables are larger than the size from which Pocket gives an allocation pages
/// of its own (`ProcessMemory.ownPagesThreshold`), so a compressor made for each response cost a
/// mapping, its page faults and an unmapping every time, far more than compressing a page
/// (`bench/pages.sh`, gzip columns).
final class DeflateCompressors: Sendable {
    /// One compressor; only the response that took it from the pool uses it until it is given back.
    struct Compressor: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// Idle compressors kept per level; beyond this a returned one is freed. Responses are
    /// compressed on the event loops' threads and a few tasks beside them.
    private static let idleLimit = 8
    private let idle = Mutex<[Compression.Level: [Compressor]]>([:])

    /// An idle compressor for `level`, else a new one.
    func take(_ level: Compression.Level) throws(CompressionError) -> Compressor {
        if let kept = idle.withLock({ $0[level]?.popLast() }) { return kept }
        guard let pointer = libdeflate_alloc_compressor(level.rawValue) else { throw .outOfMemory }
        return Compressor(pointer: pointer)
    }

    /// Gives `compressor` back for the next response, or frees it when enough are idle.
    func give(_ compressor: Compressor, _ level: Compression.Level) {
        let kept = idle.withLock { idle in
            guard idle[level, default: []].count < Self.idleLimit else { return false }
            idle[level, default: []].append(compressor)
            return true
        }
        if !kept { libdeflate_free_compressor(compressor.pointer) }
    }
}

/// Why a body could not be compressed (it is then sent as it is).
enum CompressionError: Error, CustomStringConvertible {
    case outOfMemory
    case noRoom

    var description: String {
        switch self {
        case .outOfMemory: "There was no memory for a gzip compressor."
        case .noRoom: "The gzip output did not fit its bound."
        }
    }
}
