import Foundation
import Remote

/// "My TV": the status display, power switch, presets, volume slider, keypad and channel rocker.
enum RemoteTV {
    /// A round keypad key.
    struct Key: Sendable {
        let id: String
        let digit: Int
        let action: String
        /// Keys 1–9 sit in the grid's flow; 0 is centred under 8, as on a phone keypad.
        let isZero: Bool
    }

    /// A favourite-channel segment.
    struct Preset: Sendable {
        let id: String
        let label: String
        let channel: String
        let action: String
        /// The set is on this preset's channel.
        let isCurrent: Bool
        let name: String
    }

    /// Everything the page is made from, and nothing else: `RemotePages` keeps each page rendered
    /// under it (`PageMemo`), so a remote read again between presses is neither rendered nor
    /// compressed again. The clock enters only through the half-typed digit's time left.
    /// Not the snapshot's `updatedAt`, which the page does not show: a set never pressed has none
    /// stored and is read with the present time, which would make every read a new key.
    struct Shown: Hashable, Sendable {
        let tv: Television
        let notice: String?
        let revision: Int64
        /// Milliseconds until the store drops the pending digit, with a little margin; nil when none is pending.
        let pendingMilliseconds: Int?
        let flipIn: Bool

        init(snapshot: TelevisionSnapshot, now: Date, flipIn: Bool) {
            tv = snapshot.device
            notice = snapshot.notice
            revision = snapshot.revision
            // A little past the lifetime, so the re-read lands after the store has let go of the digit.
            pendingMilliseconds = snapshot.device.pendingDigitTimeLeft(at: now).map { Int(($0 * 1000).rounded(.up)) + 250 }
            self.flipIn = flipIn
        }
    }

    /// The TV remote as this phone sees it: the shared set, plus this phone's own half-typed channel.
    struct Model: Sendable {
        let isOn: Bool
        let powerText: String
        let volume: Int
        let channelText: String
        let channelName: String
        let isPending: Bool
        /// Milliseconds until the store drops the pending digit, after which pocket.js re-reads the page
        /// (`data-refresh-after`) so the "4-" goes as it would on a real set.
        let pendingMilliseconds: Int?
        let notice: String?
        let keys: [Key]
        let presets: [Preset]
        let powerAction: String
        let volumeAction: String
        let channelUpAction: String
        let channelDownAction: String
        let favouritesHref: String
        let eventsHref: String
        let flipIn: Bool
        let toolbar: RemoteToolbar

        init(snapshot: TelevisionSnapshot, now: Date, flipIn: Bool) {
            self.init(Shown(snapshot: snapshot, now: now, flipIn: flipIn))
        }

        init(_ shown: Shown) {
            let tv = shown.tv
            isOn = tv.isOn
            powerText = tv.isOn ? "On" : "Off"
            volume = tv.volume
            channelText = tv.display
            isPending = tv.pendingDigit != nil
            pendingMilliseconds = shown.pendingMilliseconds
            channelName = tv.pendingDigit.map { "\($0), waiting for the second digit" } ?? tv.channel.description
            notice = shown.notice
            keys = (Array(1...9) + [0]).map { digit in
                Key(id: "tv-key-\(digit)", digit: digit, action: RemoteRoute.tvDigit.href(digit), isZero: digit == 0)
            }
            presets = tv.favourites.enumerated().map { index, favourite in
                Preset(
                    id: "tv-preset-\(index)",
                    label: favourite.label,
                    channel: favourite.channel.description,
                    action: RemoteRoute.tvFavourite.href(index),
                    isCurrent: tv.pendingDigit == nil && favourite.channel == tv.channel,
                    name: "\(favourite.label), channel \(favourite.channel)"
                )
            }
            powerAction = RemoteRoute.tvPower.href()
            volumeAction = RemoteRoute.tvVolume.href()
            channelUpAction = RemoteRoute.tvChannelUp.href()
            channelDownAction = RemoteRoute.tvChannelDown.href()
            favouritesHref = RemoteRoute.favourites.href()
            eventsHref = RemoteRoute.eventsHref(view: .tv, since: shown.revision)
            flipIn = shown.flipIn
            toolbar = RemoteToolbar(showing: .tv)
        }
    }
}

/// The remotes' bottom toolbar: the Screen page on the left, the switch to the other remote on the right.
struct RemoteToolbar: Sendable {
    /// The other remote; the browser sends this page as the referrer, which is how it knows to flip.
    let switchHref: String
    /// Names the other remote ("DVR" on the TV remote), as the spec asks.
    let switchLabel: String
    let screenHref: String

    init(showing device: RemoteDevice) {
        switchHref = RemoteRoute.remoteHref(device.other)
        switchLabel = device.other == .tv ? "TV" : "DVR"
        screenHref = RemoteRoute.screen.href()
    }
}
