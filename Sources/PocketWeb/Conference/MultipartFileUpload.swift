import Foundation
import NIOCore

/// Streams one file field of a `multipart/form-data` body to disk as it arrives, so an upload of any
/// size needs only a few kilobytes of memory. Other fields are skipped.
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
        guard let contentType, contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2 ? String(pair[1].dropFirst().dropLast()) : pair[1]
            return (1...70).contains(value.count) ? value : nil
        }
        return nil
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
        var parser = Parser(boundary: Array(("--" + boundary).utf8))
        var output: (handle: FileHandle, url: URL, name: String)?
        var written: Int64 = 0
        var saved: Saved?
        defer { try? output?.handle.close() }
        do {
            for try await chunk in body {
                for event in parser.feed(chunk.readableBytesView) {
                    switch event {
                    case .part(let headers):
                        if output == nil, saved == nil, headers.name == field, let fileName = headers.fileName, !fileName.isEmpty {
                            output = try open(in: folder, name: Self.sanitisedName(fileName))
                        }
                    case .data(let bytes):
                        guard let handle = output?.handle else { continue }
                        written += Int64(bytes.count)
                        if written > limit { throw Failure.tooLarge(limit: limit) }
                        try handle.write(contentsOf: bytes)
                    case .partEnd:
                        if let current = output {
                            try current.handle.close()
                            saved = Saved(file: current.url, fileName: current.name, size: written)
                            output = nil
                        }
                    }
                }
                if parser.isFailed { throw Failure.malformed }
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure.fileSystem(error.localizedDescription)
        }
        guard parser.isFinished else { throw Failure.malformed }
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

// MARK: - Parser

extension MultipartFileUpload {
    /// What a part's headers say.
    struct PartHeaders: Equatable {
        var name: String?
        var fileName: String?
    }

    /// Something found in the body.
    enum Event: Equatable {
        case part(PartHeaders)
        case data([UInt8])
        case partEnd
    }

    /// An incremental multipart parser: bytes in, events out. A delimiter split across chunks is
    /// found because the last few bytes are held back until the next chunk arrives.
    struct Parser {
        private enum State { case preamble, afterDelimiter, headers, body, epilogue, failed }

        private let delimiter: [UInt8]   // "--boundary"
        private let bodyDelimiter: [UInt8] // "\r\n--boundary"
        private var buffer: [UInt8] = []
        private var state = State.preamble
        private static let headerLimit = 16 * 1024

        init(boundary: [UInt8]) {
            delimiter = boundary
            bodyDelimiter = Array("\r\n".utf8) + boundary
        }

        var isFinished: Bool { state == .epilogue }
        var isFailed: Bool { state == .failed }

        mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
            if state == .epilogue || state == .failed { return [] }
            buffer.append(contentsOf: bytes)
            var events: [Event] = []
            while true {
                switch state {
                case .preamble:
                    guard let start = Self.find(delimiter, in: buffer) else {
                        if buffer.count > Self.headerLimit { state = .failed }
                        return events
                    }
                    buffer.removeFirst(start + delimiter.count)
                    state = .afterDelimiter
                case .afterDelimiter:
                    guard buffer.count >= 2 else { return events }
                    if buffer[0] == UInt8(ascii: "-"), buffer[1] == UInt8(ascii: "-") {
                        state = .epilogue
                        buffer.removeAll()
                        return events
                    }
                    // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
                    guard let end = Self.find(Array("\r\n".utf8), in: buffer) else {
                        if buffer.count > 256 { state = .failed }
                        return events
                    }
                    buffer.removeFirst(end + 2)
                    state = .headers
                case .headers:
                    guard let end = Self.find(Array("\r\n\r\n".utf8), in: buffer) else {
                        if buffer.count > Self.headerLimit { state = .failed }
                        return events
                    }
                    events.append(.part(Self.parseHeaders(buffer[..<end])))
                    buffer.removeFirst(end + 4)
                    state = .body
                case .body:
                    if let end = Self.find(bodyDelimiter, in: buffer) {
                        if end > 0 { events.append(.data(Array(buffer[..<end]))) }
                        events.append(.partEnd)
                        buffer.removeFirst(end + bodyDelimiter.count)
                        state = .afterDelimiter
                    } else {
                        // Keep what could be the start of a delimiter for the next chunk.
                        let safe = buffer.count - (bodyDelimiter.count - 1)
                        if safe > 0 {
                            events.append(.data(Array(buffer[..<safe])))
                            buffer.removeFirst(safe)
                        }
                        return events
                    }
                case .epilogue, .failed:
                    return events
                }
            }
        }

        private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
            guard let first = needle.first, haystack.count >= needle.count else { return nil }
            var index = 0
            let last = haystack.count - needle.count
            while index <= last {
                if haystack[index] == first {
                    var matched = true
                    for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
                        matched = false
                        break
                    }
                    if matched { return index }
                }
                index += 1
            }
            return nil
        }

        private static func parseHeaders(_ bytes: ArraySlice<UInt8>) -> PartHeaders {
            var headers = PartHeaders()
            let text = String(decoding: bytes, as: UTF8.self)
            for line in text.components(separatedBy: "\r\n") {
                guard let colon = line.firstIndex(of: ":"),
                      line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else { continue }
                for parameter in line[line.index(after: colon)...].split(separator: ";").dropFirst() {
                    let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    guard pair.count == 2 else { continue }
                    var value = pair[1]
                    if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
                    switch pair[0].lowercased() {
                    case "name": headers.name = value
                    case "filename": headers.fileName = value
                    default: break
                    }
                }
            }
            return headers
        }
    }
}
