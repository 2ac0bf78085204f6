import Foundation
import Synchronization

/// The in-memory cache layers a benchmark can turn into pass-throughs (`POCKET_BENCH_WITHOUT`), so
/// `bench/pages.sh` can serve one release build with and without a layer side by side and measure
/// what that layer buys (issue #27: a cache stays only where removing it measurably costs).
public enum CacheLayer: String, CaseIterable, Sendable {
    /// `PageMemo` (PocketWeb): rendered pages.
    case pageMemo = "PageMemo"
    /// `ScreenMemo` (Conference): each screen's answer, kept with its sci-core file.
    case screenMemo = "ScreenMemo"
    /// `BoundedMemo`s other than `PageMemo`'s: the Murals list's model, coordinates and "Updated" line.
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

    /// The layers `names` (comma-separated, as `POCKET_BENCH_WITHOUT` takes them), or nil if one is
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

/// Which cache layers are pass-throughs in this process. For benchmarks only: `pocket serve`
/// sets it once at start-up, before any store is made, from `PocketConfiguration.benchWithout`;
/// each cache asks it on each lookup (one relaxed atomic load), and when its layer is off computes
/// or loads every value and keeps nothing.
public enum BenchCaches {
    private static let off = Atomic<Int>(0)

    /// Makes `layers` pass-throughs (and every other layer a cache again).
    public static func turnOff(_ layers: Set<CacheLayer>) {
        off.store(layers.reduce(0) { $0 | bit($1) }, ordering: .relaxed)
    }

    /// Whether `layer` keeps nothing. `CommitCache` covers `SignInCache` and the stores' memos.
    public static func isOff(_ layer: CacheLayer) -> Bool {
        let mask = off.load(ordering: .relaxed)
        guard mask != 0 else { return false }
        let group = switch layer {
        case .signInCache, .muralsMemo, .platesMemo, .converterMemo, .conferenceStateMemo: bit(.commitCache)
        default: 0
        }
        return mask & (bit(layer) | group) != 0
    }

    private static func bit(_ layer: CacheLayer) -> Int {
        1 << (CacheLayer.allCases.firstIndex(of: layer) ?? 0)
    }
}
