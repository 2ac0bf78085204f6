import Foundation
import Hummingbird

/// One file on disk as Hummingbird's `FileMiddleware` sees a folder of them, whatever the path
/// asked for.
///
/// Why: a download of one chosen file (the newest backup) should answer `Range`, `If-Range`,
/// `ETag` and `If-None-Match` as a static file does, so a phone can resume a large download
/// where its signal dropped; `FileMiddleware` already answers them, for any `FileProvider`.
struct SingleFile: FileProvider {
    /// What `FileMiddleware` reads of a file.
    struct Attributes: FileMiddlewareFileAttributes {
        let isFolder: Bool
        let size: Int
        let modificationDate: Date
    }

    /// The file served.
    let path: String
    private let fileIO = FileIO()

    init(path: String) {
        self.path = path
    }

    func getFileIdentifier(_ path: String) -> String? {
        self.path
    }

    func getAttributes(id path: String) async throws -> Attributes? {
        guard let info = try? FileManager.default.attributesOfItem(atPath: path), let size = (info[.size] as? NSNumber)?.intValue,
              let modified = info[.modificationDate] as? Date
        else { return nil }
        return Attributes(isFolder: info[.type] as? FileAttributeType == .typeDirectory, size: size, modificationDate: modified)
    }

    func loadFile(id path: String, context: some RequestContext) async throws -> ResponseBody {
        try await fileIO.loadFile(path: path, context: context)
    }

    func loadFile(id path: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        try await fileIO.loadFile(path: path, range: range, context: context)
    }

    /// `request` answered with this file as `FileMiddleware` answers it (200, 206, 304), or a
    /// 416 for a range that starts past its end; `missing` when the file has gone.
    func response(to request: Request, context: PocketRequestContext, missing: @escaping @Sendable () -> HTTPError) async throws -> Response {
        let files = FileMiddleware<PocketRequestContext, SingleFile>(fileProvider: self)
        var response = try await files.handle(request, context: context) { _, _ in throw missing() }
        // FileMiddleware answers a range past the end with an empty 206 ("bytes 900-499/500");
        // RFC 9110 §15.5.17 asks for 416 and the size, so a client resuming a finished file stops.
        if response.status == .partialContent, let range = response.headers[.contentRange], let size = range.split(separator: "/").last,
           let bounds = range.dropFirst("bytes ".count).split(separator: "/").first?.split(separator: "-"), bounds.count == 2,
           let first = Int(bounds[0]), let last = Int(bounds[1]), first > last {
            response = Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(size)"])
        }
        return response
    }
}
