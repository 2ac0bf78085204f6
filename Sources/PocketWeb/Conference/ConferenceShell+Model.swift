import Conference
import Foundation

/// What every Conference screen shows around its content: the tab bar and the sample-data banner.
struct ConferenceShell: Sendable, Hashable {
    /// One tab of the tab bar.
    struct Tab: Sendable, Hashable {
        let label: String
        let href: String
        let icon: String
        let current: Bool
    }

    /// The note that the data is only the built-in sample, with the one-tap way to the full database.
    struct Banner: Sendable, Hashable {
        let text: String
        let actionLabel: String
        let actionHref: String
        /// The event stream that re-renders the screen when the running manifest check ends, so the
        /// banner goes from "asking" to the size or the failure without a tap; nil when none runs.
        let liveHref: String?
    }

    /// The five sections, in tab-bar order.
    enum Section: String, CaseIterable, Sendable, Hashable {
        case conferences, citations, speakers, search, settings

        var label: String {
            switch self {
            case .conferences: return "Conferences"
            case .citations: return "Citations"
            case .speakers: return "Speakers"
            case .search: return "Search"
            case .settings: return "Settings"
            }
        }

        var href: String {
            switch self {
            case .conferences: return ConferenceRoute.conferences.href()
            case .citations: return ConferenceRoute.volumes.href()
            case .speakers: return ConferenceRoute.speakers.href()
            case .search: return ConferenceRoute.searchHref(nil)
            case .settings: return ConferenceRoute.settings.href()
            }
        }
    }

    let tabs: [Tab]
    let banner: Banner?

    /// The shell for a screen in `section`; `offer` is the download on offer, if any,
    /// `unreachable` whether the manifest's server could not be reached the last time it was asked,
    /// and `checking` the events of the check asking it now (nil when none runs).
    init(section: Section, isSample: Bool, offer: UpdateOffer?, unreachable: Bool = false, checking: String? = nil) {
        tabs = Section.allCases.map { Tab(label: $0.label, href: $0.href, icon: $0.rawValue, current: $0 == section) }
        if isSample {
            // The size when the manifest gave it; else say why there is none, rather than offer a download of unknown size.
            let action = offer.map { "Download the full database (\(ConferenceFormat.bytes($0.downloadSize)))" }
                ?? (checking != nil ? "Install the full database (asking its server now)"
                    : unreachable ? "Install the full database (its server cannot be reached now)" : "Install the full database")
            // On Settings itself the banner points down the page, to the download button.
            let href = section == .settings ? (offer == nil ? "#conference-updates" : "#conference-offer") : ConferenceRoute.settings.href()
            // Settings has an event stream of its own.
            banner = Banner(text: "Sample data: only the April and October 2025 conferences are here.", actionLabel: action, actionHref: href,
                            liveHref: section == .settings || offer != nil ? nil : checking)
        } else {
            banner = nil
        }
    }
}

/// A download the manifest offers: no full database is installed, or this one is different.
struct UpdateOffer: Sendable, Hashable {
    let version: String
    let downloadSize: Int64

    init(_ manifest: SCIManifest) {
        version = manifest.version
        downloadSize = manifest.downloadSize
    }
}

/// Formatting shared by the Conference screens.
enum ConferenceFormat {
    /// "812 bytes", "12.3 KB", "45.9 MB" (decimal units, as download sizes are usually given).
    static func bytes(_ count: Int64) -> String {
        if count < 1000 { return count == 1 ? "1 byte" : "\(count) bytes" }
        if count < 1_000_000 { return String(format: "%.1f KB", Double(count) / 1e3) }
        if count < 1_000_000_000 { return String(format: "%.1f MB", Double(count) / 1e6) }
        return String(format: "%.2f GB", Double(count) / 1e9)
    }

    /// "1 talk", "12 talks".
    static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        number == 1 ? "1 \(singular)" : "\(number) \(plural ?? singular + "s")"
    }

    /// "about 12 s left", "about 3 min left".
    static func remaining(_ seconds: Double) -> String? {
        guard seconds.isFinite, seconds >= 0 else { return nil }
        if seconds < 60 { return "about \(max(1, Int(seconds.rounded(.up)))) s left" }
        return "about \(Int((seconds / 60).rounded(.up))) min left"
    }

    private static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                                 "September", "October", "November", "December"]

    /// "2025-04-05" (or with a time after it) → "April 5, 2025"; anything else is shown as it is.
    static func date(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        let parts = text.prefix(10).split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(day)
        else { return text }
        return "\(months[month - 1]) \(day), \(year)"
    }
}
