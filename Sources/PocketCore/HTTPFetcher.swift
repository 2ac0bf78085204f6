import AsyncHTTPClient
import Foundation
import NIOCore

/// A small, size-limited GET of a resource from another host (plate pictures, thumbnails).
public protocol HTTPFetching: Sendable {
    /// The body and content type of `url`, or a `FetchError` saying why not.
    func fetch(_ url: URL, maxBytes: Int, timeout: Duration) async throws(FetchError) -> FetchedResource
}

/// What a fetch returned.
public struct FetchedResource: Sendable, Equatable {
    /// The body.
    public let data: Data
    /// The `Content-Type` header, lowercased, without parameters.
    public let contentType: String

    /// Creates a fetched resource.
    public init(data: Data, contentType: String) {
        self.data = data
        self.contentType = contentType
    }
}

/// Why a fetch failed, in words.
public enum FetchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server answered with a status other than 200.
    case status(Int)
    /// The body was larger than allowed.
    case tooLarge(Int)
    /// No answer in time.
    case timedOut
    /// The host could not be reached (no network, unknown name, refused connection).
    case unreachable(host: String)

    /// A one-line message.
    public var description: String {
        switch self {
        case .status(let code): return "the server answered \(code)"
        case .tooLarge(let limit): return "it is larger than \(limit / 1024) KB"
        case .timedOut: return "the server did not answer in time"
        case .unreachable(let host): return "\(host) could not be reached"
        }
    }
}

/// Fetches over real HTTP with async-http-client.
public struct LiveHTTPFetcher: HTTPFetching {
    private let client: HTTPClient

    /// Uses the given client (the process-wide one by default; it needs no shutdown).
    public init(client: HTTPClient = .shared) {
        self.client = client
    }

    public func fetch(_ url: URL, maxBytes: Int, timeout: Duration) async throws(FetchError) -> FetchedResource {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "User-Agent", value: "Pocket/\(PocketVersion.current)")
        let seconds = Int64(timeout.components.seconds)
        do {
            let response = try await client.execute(request, timeout: .seconds(max(1, seconds)))
            guard response.status.code == 200 else { throw FetchError.status(Int(response.status.code)) }
            if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > maxBytes {
                throw FetchError.tooLarge(maxBytes)
            }
            let body: ByteBuffer
            do {
                body = try await response.body.collect(upTo: maxBytes)
            } catch is NIOTooManyBytesError {
                throw FetchError.tooLarge(maxBytes)
            }
            let type = response.headers.first(name: "Content-Type")?.split(separator: ";").first
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            return FetchedResource(data: Data(body.readableBytesView), contentType: type)
        } catch let error as FetchError {
            throw error
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .timedOut
        } catch {
            throw .unreachable(host: url.host ?? url.absoluteString)
        }
    }
}
