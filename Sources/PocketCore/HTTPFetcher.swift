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
    /// The server redirected to a host Pocket may not fetch from.
    case redirectedElsewhere(host: String)

    /// A one-line message.
    public var description: String {
        switch self {
        case .status(let code): return "the server answered \(code)"
        case .tooLarge(let limit): return "it is larger than \(limit / 1024) KB"
        case .timedOut: return "the server did not answer in time"
        case .unreachable(let host): return "\(host) could not be reached"
        case .redirectedElsewhere(let host): return "the server sent Pocket on to another host (\(host)), which Pocket does not fetch from"
        }
    }
}

/// Fetches over real HTTP with async-http-client, following redirects itself: each hop must
/// stay on the requested URL's origin or one of `alsoAllowed`'s (see `Redirects`).
public struct LiveHTTPFetcher: HTTPFetching {
    private let client: HTTPClient
    private let alsoAllowed: [URL]

    /// Uses the given client (by default the process-wide one that follows no redirect by itself;
    /// it needs no shutdown). A redirect may lead to the requested origin or to `alsoAllowed`'s.
    public init(client: HTTPClient = Redirects.client, alsoAllowing alsoAllowed: [URL] = []) {
        self.client = client
        self.alsoAllowed = alsoAllowed
    }

    public func fetch(_ url: URL, maxBytes: Int, timeout: Duration) async throws(FetchError) -> FetchedResource {
        let seconds = Int64(timeout.components.seconds)
        // The address asked last, for saying which host could not be reached.
        var current = url
        do {
            let response = try await Redirects(from: url, alsoAllowing: alsoAllowed).follow(url) { address in
                current = address
                var request = HTTPClientRequest(url: address.absoluteString)
                request.headers.add(name: "User-Agent", value: "Pocket/\(PocketVersion.current)")
                return try await client.execute(request, timeout: .seconds(max(1, seconds)))
            }.response
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
        } catch RedirectRefusal.elsewhere(let host) {
            throw .redirectedElsewhere(host: host)
        } catch RedirectRefusal.unusable(let status) {
            throw .status(status)
        } catch let error as HTTPClientError where error.isLateAnswer {
            throw .timedOut
        } catch {
            throw .unreachable(host: current.host ?? current.absoluteString)
        }
    }
}

extension HTTPClientError {
    /// Whether a server was reached but did not answer in time (the deadline passed, or the body
    /// stalled). A connection never made is the host not being reached, and is called that: a
    /// refused connection is retried until the deadline, and fails as the last refusal, or as
    /// `connectTimeout` when the deadline came before any attempt had failed (a busy machine).
    var isLateAnswer: Bool { self == .deadlineExceeded || self == .readTimeout }
}
