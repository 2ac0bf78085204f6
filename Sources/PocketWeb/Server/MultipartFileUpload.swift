import Foundation
import MultipartKit
import NIOCore

/// Streams one file field of a `multipart/form-data` body to disk as it arrives, so an upload of any
/// size needs only a few kilobytes of memory. Other fields are skipped. The body is parsed by
/// MultipartKit's `MultipartParser`, through `Reader`: the one multipart reading in Pocket, beside
/// `FormFields` for URL-encoded forms. The Conference settings save an uploaded database with it;
/// People's household-data import (`MultipartForm`) reads its small form whole with the same
/// `boundary(contentType:)` and `Reader`.
struct MultipartFileUpload {
    /// The saved file.
    struct Saved: Sendable, Equatable {
        /// Where it was written.
        let file: URL
        /// The name the browser gave (sanitised to a plain file name).
        let fileName: String
        /// Bytes written.
        let size: Int64
    }

    /// Why an upload was refused, in words for the page.
    enum Failure: Error, Equatable, CustomStringConvertible {
        case notMultipart
        case malformed
        case noFile
        case tooLarge(limit: Int64)
        case fileSystem(String)

        var description: String {
            switch self {
            case .notMultipart: return "The upload was not sent as a file form; choose a file and send the form again."
            case .malformed: return "The upload arrived incomplete; send the form again."
            case .noFile: return "Choose a database file (for example core.53.db) to import."
            case .tooLarge(let limit): return "That file is larger than the \(limit / (1 << 20)) MB Pocket accepts."
            case .fileSystem(let detail): return "The upload could not be saved: \(detail)"
            }
        }
    }

    /// The boundary of a `multipart/form-data` content type, nil for any other type.
    static func boundary(contentType: String?) -> String? {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/form-data"),
              let value = parameters(contentType).first(where: { $0.key == "boundary" })?.value else { return nil }
        // RFC 2046 allows 1 to 70 characters; MultipartKit's parser refuses an empty one by crashing.
        return (1...70).contains(value.count) ? value : nil
    }

    /// Plain file name from what a browser sends: path parts dropped, only letters, digits, `.`, `_`, `-`.
    static func sanitisedName(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let kept = String(last.unicodeScalars.filter { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "._-".unicodeScalars.contains($0) }
            .map(Character.init)).prefix(100)
        let trimmed = kept.drop { $0 == "." || $0 == "-" }
        return trimmed.isEmpty ? "imported.db" : String(trimmed)
    }

    let field: String
    let boundary: String
    let limit: Int64

    /// Reads `body` to its end, writing the `field` file part into `folder`; throws `Failure`.
    func save<Body: AsyncSequence>(_ body: Body, into folder: URL) async throws -> Saved where Body.Element == ByteBuffer {
        var output: (handle: FileHandle, url: URL, name: String)?
        var written: Int64 = 0
        var saved: Saved?
        defer { try? output?.handle.close() }
        do {
            var reader = try Reader(boundary: boundary)
            for try await chunk in body {
                for event in try reader.feed(chunk) {
                    switch event {
                    case .part(let headers):
                        if output == nil, saved == nil, headers.name == field, let fileName = headers.fileName, !fileName.isEmpty {
                            output = try open(in: folder, name: Self.sanitisedName(fileName))
                        }
                    case .data(let bytes):
                        guard let handle = output?.handle else { continue }
                        written += Int64(bytes.readableBytes)
                        if written > limit { throw Failure.tooLarge(limit: limit) }
                        try bytes.withUnsafeReadableBytes { try handle.write(contentsOf: $0) }
                    case .partEnd:
                        if let current = output {
                            try current.handle.close()
                            saved = Saved(file: current.url, fileName: current.name, size: written)
                            output = nil
                        }
                    }
                }
            }
            try reader.finish()
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure.fileSystem(error.localizedDescription)
        }
        guard let saved, saved.size > 0 else { throw Failure.noFile }
        return saved
    }

    private func open(in folder: URL, name: String) throws -> (handle: FileHandle, url: URL, name: String) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw Failure.fileSystem("cannot create \(url.path)") }
            return (try FileHandle(forWritingTo: url), url, name)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure.fileSystem(error.localizedDescription)
        }
    }
}

// MARK: - Reading parts

extension MultipartFileUpload {
    /// What a part's `Content-Disposition` header says.
    struct PartHeaders: Equatable {
        var name: String?
        var fileName: String?
    }

    /// Something found in the body, in order: a part's headers, its bytes, its end.
    enum Event: Equatable {
        case part(PartHeaders)
        case data(ByteBuffer)
        case partEnd
    }

    /// MultipartKit's streaming `MultipartParser`, its callbacks turned into events chunk by chunk,
    /// plus the two things it leaves to its caller: bounding what it holds while it reads a preamble
    /// or a header line, and telling a body that ended with its closing delimiter from one cut short.
    /// Every refusal is `Failure.malformed`, so each form has one message for a bad body.
    struct Reader {
        /// Bytes the parser may read without reporting anything: a preamble or one header line
        /// longer than this is not a browser's form, and a header line is held in memory whole.
        static let quietLimit = 16 * 1024

        private let parser: MultipartParser
        private let sink = Sink()
        /// Bytes read since the parser last reported something.
        private var quiet = 0
        /// Past the closing delimiter: the rest is epilogue, which nothing reads.
        private var ended = false

        /// A reader for parts between `--boundary` lines; throws `Failure.malformed` for an empty boundary.
        init(boundary: String) throws(Failure) {
            // MultipartKit traps on an empty boundary rather than throwing.
            guard !boundary.isEmpty else { throw .malformed }
            parser = MultipartParser(boundary: boundary)
            parser.onHeader = { [sink] name, value in sink.header(name: name, value: value) }
            parser.onBody = { [sink] bytes in sink.body(&bytes) }
            parser.onPartComplete = { [sink] in sink.partComplete() }
        }

        /// The events in the next chunk of the body; all of one part's bytes in it come as one `.data`.
        mutating func feed(_ chunk: ByteBuffer) throws(Failure) -> [Event] {
            var chunk = chunk
            // Slices no longer than the limit, so no more than about twice it is read unreported.
            while !ended, let slice = chunk.readSlice(length: min(chunk.readableBytes, Self.quietLimit)), slice.readableBytes > 0 {
                let reported = sink.reports
                do {
                    try parser.execute(slice)
                } catch {
                    throw .malformed
                }
                quiet = sink.reports == reported ? quiet + slice.readableBytes : 0
                if quiet > Self.quietLimit {
                    guard isPastEnd() else { throw .malformed }
                    ended = true
                }
            }
            return sink.take()
        }

        /// Once the body has ended: throws `Failure.malformed` unless it ended with its closing delimiter.
        mutating func finish() throws(Failure) {
            guard ended || isPastEnd() else { throw .malformed }
            ended = true
        }

        /// Whether the parser is past the closing delimiter. MultipartKit does not say: after a part
        /// ends it is either there (and ignores all that follows) or in the next part's headers. Bytes
        /// no header or body can take silently tell the two apart, so this is asked only when the
        /// parser is done with: past the end they are dropped unseen; before it, a NUL is refused in a
        /// header name or between lines and reported as body bytes, and CRLF ends a header value.
        private func isPastEnd() -> Bool {
            guard sink.lastReport == .partComplete else { return false }
            let reported = sink.reports
            do {
                try parser.execute([0, 13, 10])
            } catch {
                return false
            }
            return sink.reports == reported
        }
    }

    /// Collects what the parser's callbacks report, which come while it reads a chunk.
    private final class Sink {
        enum Report { case none, header, body, partComplete }

        private(set) var reports = 0
        private(set) var lastReport = Report.none
        private var events: [Event] = []
        /// The current part's headers, reported once its body starts (MultipartKit has no callback
        /// for the end of a part's headers).
        private var headers = PartHeaders()
        private var partStarted = false
        /// Body bytes not yet in `events`: the parser hands them over a few at a time (it stops at
        /// every CR), and a file is written a chunk at a time.
        private var data = ByteBuffer()

        func header(name: String, value: String) {
            note(.header)
            guard name.lowercased() == "content-disposition" else { return }
            for parameter in MultipartFileUpload.parameters(value) {
                switch parameter.key {
                case "name": headers.name = parameter.value
                case "filename": headers.fileName = parameter.value
                default: break
                }
            }
        }

        func body(_ bytes: inout ByteBuffer) {
            note(.body)
            startPart()
            data.writeBuffer(&bytes)
        }

        func partComplete() {
            note(.partComplete)
            startPart()
            flush()
            events.append(.partEnd)
            headers = PartHeaders()
            partStarted = false
        }

        /// The events so far, and forgets them.
        func take() -> [Event] {
            flush()
            defer { events.removeAll() }
            return events
        }

        private func note(_ report: Report) {
            reports += 1
            lastReport = report
        }

        private func startPart() {
            guard !partStarted else { return }
            events.append(.part(headers))
            partStarted = true
        }

        private func flush() {
            guard data.readableBytes > 0 else { return }
            events.append(.data(data))
            data = ByteBuffer()
        }
    }

    /// The `key=value` parameters after a header's first `;`, keys lowercased, quotes taken off values.
    static func parameters(_ header: String) -> [(key: String, value: String)] {
        header.split(separator: ";").dropFirst().compactMap { parameter in
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { return nil }
            let value = pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2 ? String(pair[1].dropFirst().dropLast()) : pair[1]
            return (key: pair[0].lowercased(), value: value)
        }
    }
}
