import AsyncHTTPClient
import Foundation

/// Redirects Pocket follows itself, never the HTTP client: each hop is checked before it is
/// requested, so an allowed server cannot send Pocket on to one that is not (a secret page on
/// the LAN or loopback re-served as a picture or a talk's text).
public struct Redirects: Sendable {
    /// Origins (`WebOrigin`) a hop may lead to.
    let allowedOrigins: Set<String>

    /// The most hops followed for one request.
    static let maximumHops = 5

    /// A process-wide client that follows no redirect by itself. Never shut down, like
    /// `HTTPClient.shared`.
    public static let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(redirectConfiguration: .disallow)
    )

    /// Hops may lead to `url`'s own origin and to `others`.
    init(from url: URL, alsoAllowing others: [URL] = []) {
        allowedOrigins = Set(([url] + others).compactMap(WebOrigin.of))
    }

    /// Requests `url` with `send`, then each address a redirect leads to while it is allowed:
    /// the final response and the address that gave it. Throws `RedirectRefusal` for a hop it
    /// does not follow, or what `send` throws.
    func follow(_ url: URL, _ send: (URL) async throws -> HTTPClientResponse) async throws -> (response: HTTPClientResponse, url: URL) {
        var current = url
        for hops in 0... {
            let response = try await send(current)
            guard let next = try next(after: response, from: current, hops: hops) else { return (response, current) }
            current = next
        }
        throw RedirectRefusal.unusable(status: 0)
    }

    /// Where a response sends the request next: nil when it is not a redirect (the answer is
    /// this response). Throws when the hop leads outside the allowed origins, has no usable
    /// address, or is one hop too many (`hops` already followed).
    private func next(after response: HTTPClientResponse, from current: URL, hops: Int) throws(RedirectRefusal) -> URL? {
        guard [301, 302, 303, 307, 308].contains(response.status.code), let location = response.headers.first(name: "Location") else { return nil }
        guard let next = URL(string: location, relativeTo: current)?.absoluteURL, let origin = WebOrigin.of(next) else {
            throw .unusable(status: Int(response.status.code))
        }
        guard allowedOrigins.contains(origin) else { throw .elsewhere(host: next.host ?? location) }
        guard hops < Self.maximumHops else { throw .unusable(status: Int(response.status.code)) }
        return next
    }
}

/// A redirect Pocket does not follow.
enum RedirectRefusal: Error, Equatable {
    /// To a server the request may not reach.
    case elsewhere(host: String)
    /// With no usable address, or after too many hops: reported as the redirect's status.
    case unusable(status: Int)
}
