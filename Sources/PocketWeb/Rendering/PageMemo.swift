import NIOCore
import PocketCore

/// Pages already rendered, by everything they were rendered from: the frame, the request's
/// `PageContext` (its CSRF token included) and the page's model. A view is a pure function of those
/// three, so a page found here is byte for byte the page rendering would give; the lookup compares
/// whole models, so two models that merely hash alike never share a page.
///
/// Why: the conference list, a talk beside its conference's talks and a search are the same for
/// everyone until the database changes, and rendering them again (escaping every title, joining
/// tens of kilobytes) was most of their requests' time once their data was kept in memory
/// (issue #14). Building the model still runs on every request, so whatever it reads (bookmarks,
/// what was viewed, install progress) is always current.
final class PageMemo<Model: Hashable & Sendable>: Sendable {
    struct Key: Hashable, Sendable {
        let frame: PageFrame
        let pageContext: PageContext
        let model: Model
    }

    /// Beyond this many pages all are forgotten: the keys hold each visitor's CSRF token, so
    /// visitors and pages from outside cannot make it grow without end. A page is tens of kilobytes.
    static var capacity: Int { 64 }

    private let pages: BoundedMemo<Key, ByteBuffer>
    /// The same pages gzip-compressed, made the first time one is sent compressed: compressing a
    /// page on every request cost up to half the screens' throughput (`bench/pages.sh`, gzip columns).
    private let compressed: BoundedMemo<Key, ByteBuffer>

    /// An empty memo, keeping nothing if `caches` passes page memos through (the page benchmark).
    init(_ caches: Caches = .all) {
        let keeping = caches.keeps(.pageMemo)
        pages = BoundedMemo(capacity: Self.capacity, keeping: keeping)
        compressed = BoundedMemo(capacity: Self.capacity, keeping: keeping)
    }

    /// The page rendered for `key`, else `render`'s, kept.
    func page(_ key: Key, render: () -> String) -> ByteBuffer {
        pages.value(for: key) { ByteBuffer(string: render()) }
    }

    /// The page for `key` gzip-compressed, kept; nil when it cannot be compressed (then sent as it is).
    func compressedPage(_ key: Key, render: () -> String) -> ByteBuffer? {
        let plain = page(key, render: render)
        guard plain.readableBytes >= Compression.minimumSize else { return nil }
        let gzip = compressed.value(for: key) { (try? Compression.gzip(plain, level: .kept)) ?? ByteBuffer() }
        return gzip.readableBytes > 0 ? gzip : nil
    }

    /// How many pages are kept (for tests).
    var count: Int {
        pages.count
    }
}
