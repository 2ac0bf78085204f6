import HTTPTypes
import Hummingbird
import NIOCore

/// Sends text responses gzip-compressed to clients that accept it, by `Compression`'s rule.
/// Static files and kept pages arrive compressed already (once); this compresses the rest as it
/// is sent: pages rendered anew, JSON, the manifest and the service worker.
struct CompressionMiddleware: RouterMiddleware {
    typealias Context = PocketRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let acceptsGzip = Compression.acceptsGzip(request.headers[values: .acceptEncoding])
        context.mayCompressPersonal = acceptsGzip && Compression.mayCompressPersonal(secFetchSite: request.headers[.secFetchSite])
        var response = try await next(request, context)
        // Only a whole body of known length: every stream Pocket sends (events, backup archives)
        // is of a type left as it is anyway.
        guard response.headers[.contentEncoding] == nil, response.status != .partialContent, response.headers[.contentRange] == nil,
              Compression.isCompressible(contentType: response.headers[.contentType]),
              let length = response.body.contentLength, length >= Compression.minimumSize
        else { return response }
        response.headers.appendVary(.acceptEncoding)
        guard acceptsGzip, !Compression.isPersonal(cacheControl: response.headers[.cacheControl]) || context.mayCompressPersonal else { return response }
        let sink = BodySink()
        try await response.body.write(sink.writer)
        guard let compressed = try? Compression.gzip(sink.buffer, level: .fastest) else {
            // Out of memory for a compressor: the page as it is still serves.
            response.body = ResponseBody(byteBuffer: sink.buffer)
            return response
        }
        response.headers[.contentEncoding] = "gzip"
        response.headers[.contentLength] = String(compressed.readableBytes)
        response.body = ResponseBody(byteBuffer: compressed)
        return response
    }
}

extension HTTPFields {
    /// Adds `name` to `Vary`, once.
    mutating func appendVary(_ name: HTTPField.Name) {
        let present = self[values: .vary].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if !present.contains(name.canonicalName) && !present.contains("*") {
            self.append(HTTPField(name: .vary, value: name.rawName))
        }
    }
}

/// Collects a response body that is already whole in memory (a page, a JSON answer).
private final class BodySink {
    var buffer = ByteBuffer()

    var writer: Writer { Writer(sink: self) }

    struct Writer: ResponseBodyWriter {
        let sink: BodySink

        mutating func write(_ buffer: ByteBuffer) async throws {
            var buffer = buffer
            sink.buffer.writeBuffer(&buffer)
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
