import NIOCore
import PocketCore
import Synchronization

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

    private let pages: BoundedMemo<Key, KeptPage>

    /// A page as rendered, and gzip-compressed once it is asked for again.
    private final class KeptPage: Sendable {
        let plain: ByteBuffer
        /// Empty when compressing did not work (the page is then sent as it is).
        let gzip = Mutex<ByteBuffer?>(nil)

        init(_ plain: ByteBuffer) {
            self.plain = plain
        }
    }

    /// An empty memo, keeping nothing if `caches` passes page memos through (the page benchmark).
    init(_ caches: Caches = .all) {
        pages = BoundedMemo(capacity: Self.capacity, keeping: caches.keeps(.pageMemo))
    }

    /// The page rendered for `key`, else `render`'s, kept.
    func page(_ key: Key, render: () -> String) -> ByteBuffer {
        pages.value(for: key) { KeptPage(ByteBuffer(string: render())) }.plain
    }

    /// The page for `key` gzip-compressed; nil when it cannot be compressed (then sent as it is).
    ///
    /// A page asked for again is compressed hard once and kept: compressing it on every request
    /// cost up to half the screens' throughput (`bench/pages.sh`, gzip columns). A page rendered
    /// for this request may never be asked for again (one of thousands of searches), so it is
    /// compressed as any response rendered anew is, at `Compression.Level.fastest` (level 6 cost
    /// twice as long for 5% fewer bytes on a search), unless it is `hard`: a navigation, a page
    /// loading on its own, whose bytes come before anything paints on a phone's slow link.
    func compressedPage(_ key: Key, hard: Bool = false, render: () -> String) -> ByteBuffer? {
        var rendered = false
        let page = pages.value(for: key) {
            rendered = true
            return KeptPage(ByteBuffer(string: render()))
        }
        guard page.plain.readableBytes >= Compression.minimumSize else { return nil }
        if rendered && !hard { return try? Compression.gzip(page.plain, level: .fastest) }
        // Compressed outside the lock, which the event loops' threads would wait on; two requests
        // may both compress the page, to equal bytes.
        let gzip = page.gzip.withLock { $0 } ?? {
            let made = (try? Compression.gzip(page.plain, level: .kept)) ?? ByteBuffer()
            page.gzip.withLock { $0 = made }
            return made
        }()
        return gzip.readableBytes > 0 ? gzip : nil
    }

    /// How many pages are kept (for tests).
    var count: Int {
        pages.count
    }
}
