import Foundation

/// The in-memory cache layers a benchmark can build as pass-throughs (`Caches`), so `bench/pages.sh`
/// can serve one release build with and without a layer side by side and measure what that layer
/// buys: a cache stays only while removing it measurably costs.
public enum CacheLayer: String, CaseIterable, Sendable {
    /// `PageMemo` (PocketWeb): rendered pages.
    case pageMemo = "PageMemo"
    /// `ScreenMemo` (Conference): each screen's answer, kept with its sci-core file.
    case screenMemo = "ScreenMemo"
    /// `BoundedMemo`s other than `PageMemo`'s: the Murals list's models and its "Updated" line's dates.
    case boundedMemo = "BoundedMemo"
    /// `SignInCache`: the session, device and person behind each signed-in request.
    case signInCache = "SignInCache"
    /// `MuralsMemo`: the murals, sync state and each person's stars and visits.
    case muralsMemo = "MuralsMemo"
    /// `PlatesMemo`: each person's game and trips.
    case platesMemo = "PlatesMemo"
    /// `ConverterDatabase`'s memo: each person's converter state.
    case converterMemo = "ConverterMemo"
    /// `ConferenceStateDatabase`'s memo: the installed file's record and each person's recent and bookmarked talks.
    case conferenceStateMemo = "ConferenceStateMemo"
    /// Every `CommitCache`: `SignInCache` and the four stores' memos above together.
    case commitCache = "CommitCache"
    /// The Conference digest (`CoreDigest`): screens read their counts and orderings from the file.
    case digest = "Digest"

    /// The layers `names` (comma-separated, as `pocket-bench serve --without` takes them), or nil if one is
    /// not a layer's name. Blank entries are ignored.
    public static func layers(named names: String) -> Set<CacheLayer>? {
        var layers: Set<CacheLayer> = []
        for raw in names.split(separator: ",") {
            let name = raw.trimmingCharacters(in: .whitespaces)
            if name.isEmpty { continue }
            guard let layer = allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
            layers.insert(layer)
        }
        return layers
    }
}

/// Which cache layers keep what they are given, chosen when the stores and pages are made.
/// Pocket keeps every layer (`Caches.all`, every constructor's default); only the page benchmark
/// (`pocket-bench serve --without`, run by `bench/pages.sh`) builds Pocket with some layers as
/// pass-throughs, so it can serve one build with and without a layer side by side and measure
/// what that layer buys. Nothing asks a process-wide switch on a lookup: a cache made as a
/// pass-through keeps nothing from the start.
public struct Caches: Sendable {
    /// Every layer keeps: what Pocket runs with.
    public static let all = Caches(passThrough: [])

    /// The layers that keep nothing.
    public let passThrough: Set<CacheLayer>

    /// Every layer keeps but those in `passThrough`.
    public init(passThrough: Set<CacheLayer>) {
        self.passThrough = passThrough
    }

    /// Whether `layer` keeps what it is given. `CommitCache` covers `SignInCache` and the stores' memos.
    public func keeps(_ layer: CacheLayer) -> Bool {
        if passThrough.contains(layer) { return false }
        switch layer {
        case .signInCache, .muralsMemo, .platesMemo, .converterMemo, .conferenceStateMemo:
            return !passThrough.contains(.commitCache)
        default:
            return true
        }
    }

    /// `watch` if `layer` keeps, else none: a `CommitCache` without a watch keeps nothing.
    public func watch(_ watch: CommitWatch, for layer: CacheLayer) -> CommitWatch? {
        keeps(layer) ? watch : nil
    }
}
