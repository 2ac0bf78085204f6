import Foundation
import Murals
import PocketCore

/// Where the murals come from: the real COMP228 service, a mirror named in the configuration, or
/// Pocket's built-in demo service.
public struct MuralsService: Sendable, Equatable {
    /// The feed address (`data2.php?class=newbrighton_murals`).
    public let endpoint: URL
    /// The folder the pictures' file names are relative to.
    public let imageBase: URL
    /// Whether this is the built-in demo service (the screens then say "Demo data").
    public let isDemo: Bool

    /// A service at explicit addresses.
    public init(endpoint: URL, imageBase: URL, isDemo: Bool = false) {
        self.endpoint = endpoint
        self.imageBase = imageBase
        self.isDemo = isDemo
    }

    /// The real service, unless the configuration names a mirror of the feed or of the pictures
    /// (`PocketConfiguration.AppSources`, already checked to be http(s)).
    public static func live(endpoint: URL? = nil, imageBase: URL? = nil) -> MuralsService {
        MuralsService(
            endpoint: endpoint ?? MuralsSynchronizer.defaultEndpoint,
            imageBase: imageBase.map(Self.folder) ?? MuralsSynchronizer.defaultImageBase
        )
    }

    /// The demo service Pocket serves itself below `/murals/demo-service/` (`pocket serve --demo`).
    public static let demo = MuralsService(
        endpoint: URL(string: "data2.php?class=newbrighton_murals", relativeTo: DemoMuralFetcher.base)?.absoluteURL ?? DemoMuralFetcher.base,
        imageBase: URL(string: "images/", relativeTo: DemoMuralFetcher.base)?.absoluteURL ?? DemoMuralFetcher.base,
        isDemo: true
    )

    /// Where a mural's thumbnail is fetched from. The feed gives full addresses on the real
    /// picture host; when the pictures come from elsewhere (a mirror, the demo), the same path
    /// below the other base is used.
    public func thumbnailURL(for mural: Mural) -> URL? {
        guard let thumbnail = mural.thumbnail else { return nil }
        let original = MuralsSynchronizer.defaultImageBase.absoluteString
        let text = thumbnail.absoluteString
        guard imageBase.absoluteString != original, text.hasPrefix(original) else { return allowed(thumbnail) }
        return allowed(URL(string: imageBase.absoluteString + text.dropFirst(original.count)) ?? thumbnail)
    }

    /// Where a mural's `index`-th picture is fetched from, if it has one.
    public func imageURL(for mural: Mural, index: Int) -> URL? {
        let urls = mural.imageURLs(base: imageBase)
        return urls.indices.contains(index) ? allowed(urls[index]) : nil
    }

    /// Pocket's server fetches these pictures, so a feed must not be able to point it anywhere
    /// (loopback, the LAN, a cloud metadata address): only the configured picture host and the
    /// feed's own host are fetched from, whatever addresses the feed names.
    func allowed(_ url: URL) -> URL? {
        guard let origin = WebOrigin.of(url) else { return nil }
        return [imageBase, endpoint].compactMap(WebOrigin.of).contains(origin) ? url : nil
    }

    /// A base folder ends with a slash, so file names resolve below it.
    private static func folder(_ url: URL) -> URL {
        url.absoluteString.hasSuffix("/") ? url : URL(string: url.absoluteString + "/") ?? url
    }
}

/// Answers the demo service's addresses from `DemoMuralService` inside the process, so
/// `pocket serve --demo` works with no network at all (and over HTTPS with a self-signed
/// certificate, which a loopback fetch would refuse). The same answers are served over HTTP
/// below `/murals/demo-service/` for anyone who wants to look at them.
public struct DemoMuralFetcher: HTTPFetching {
    /// The demo service's base address; `.invalid` is reserved, so it can never reach a network.
    public static let base: URL = {
        guard let url = URL(string: "http://demo-service.invalid/murals/demo-service/") else {
            preconditionFailure("the demo service base is a valid URL literal")
        }
        return url
    }()

    /// Creates the fetcher.
    public init() {}

    public func fetch(_ url: URL, maxBytes: Int, timeout: Duration) async throws(FetchError) -> FetchedResource {
        guard url.host == Self.base.host else { throw .unreachable(host: url.host ?? url.absoluteString) }
        let resource: FetchedResource
        if url.path.hasSuffix("/data2.php") {
            let since = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
                .first { $0.name == MuralsSynchronizer.lastModifiedParameter }?.value
            resource = FetchedResource(data: DemoMuralService.feed(since: since, imageBase: MuralsService.demo.imageBase), contentType: "application/json")
        } else if let data = DemoMuralService.image(named: url.lastPathComponent) {
            resource = FetchedResource(data: data, contentType: DemoMuralService.imageContentType)
        } else {
            throw .status(404)
        }
        guard resource.data.count <= maxBytes else { throw .tooLarge(maxBytes) }
        return resource
    }
}

/// The map's tile server: OpenStreetMap unless the configuration names another
/// (`https://host/{z}/{x}/{y}.png`); its origin is added to the pages' image sources.
public struct MuralsTiles: Sendable, Equatable {
    /// The URL template Leaflet fills in.
    public let template: String

    /// OpenStreetMap's standard tiles (`Settings.muralsTiles`'s default).
    public static let openStreetMap = MuralsTiles(checked: Settings.muralsTiles.defaultText ?? "")

    private init(checked template: String) {
        self.template = template
    }

    /// A tile server; nil unless the template is an http(s) URL with `{z}`, `{x}` and `{y}`
    /// (`ServiceAddress.tileTemplate`, the rule the configuration checks `POCKET_MURALS_TILES` by).
    public init?(template: String) {
        guard let checked = ServiceAddress.tileTemplate(template) else { return nil }
        self.template = checked
    }

    /// `https://tile.openstreetmap.org`: what the Content-Security-Policy must allow.
    public var origin: String {
        let probe = template.replacingOccurrences(of: "{s}", with: "a").replacingOccurrences(of: "{z}", with: "0")
            .replacingOccurrences(of: "{x}", with: "0").replacingOccurrences(of: "{y}", with: "0")
        guard let parts = URLComponents(string: probe), let scheme = parts.scheme, let host = parts.host else { return "" }
        let hostPart = template.contains("{s}.") ? "*." + host.split(separator: ".").dropFirst().joined(separator: ".") : host
        return "\(scheme)://\(hostPart)" + (parts.port.map { ":\($0)" } ?? "")
    }
}
