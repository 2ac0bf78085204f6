import Foundation
import Remote

/// "Screen": the simulated TV set and the DVR under it, for a laptop or a TV's browser. Each panel is
/// also an SSE `patch` fragment, re-sent whenever a remote changes its device.
enum RemoteScreen {
    /// The TV's picture: the channel with its on-screen display, or "No signal" when off.
    struct TVPanel: Sendable {
        let isOn: Bool
        let channel: String
        let favourite: String?
        /// One of twelve colour schemes, so changing channel visibly changes the picture.
        let hue: Int
        let notice: String?
        /// The volume bar, shown (and faded out by CSS) only in the patch sent for a volume change.
        let showsVolume: Bool
        let volume: Int
        let description: String

        init(television: Television, notice: String?, showsVolume: Bool) {
            isOn = television.isOn
            channel = television.display
            favourite = television.pendingDigit == nil ? television.favourites.first { $0.channel == television.channel }?.label : nil
            hue = television.channel.number % 12
            self.notice = notice
            self.showsVolume = showsVolume && television.isOn
            volume = television.volume
            if television.isOn {
                description = "Channel \(television.channel)" + (favourite.map { ", \($0)" } ?? "") + ", volume \(television.volume)"
            } else {
                description = "The TV is off: no signal"
            }
        }
    }

    /// The DVR's front panel: state symbol and name, and the running counters.
    struct DVRPanel: Sendable {
        let isOn: Bool
        let stateTitle: String
        let icon: String
        let isRecording: Bool
        let clock: RemoteClock
        let notice: String?

        init(snapshot: DVRSnapshot, now: Date) {
            let dvr = snapshot.dvr(at: now)
            isOn = dvr.isOn
            stateTitle = dvr.isOn ? dvr.state.title : "Off"
            icon = dvr.isOn ? dvr.state.button.icon : "power"
            isRecording = dvr.isOn && dvr.state.isRecording
            clock = RemoteClock(dvr: dvr, id: "screen-dvr-clock")
            notice = snapshot.notice
        }
    }

    /// Both panels as the page first shows them; the event stream keeps them current.
    struct Model: Sendable {
        let tv: TVPanel
        let dvr: DVRPanel
        let eventsHref = RemoteRoute.eventsHref(view: .screen)
        let resetHref = RemoteRoute.reset.href()
        let reset = RemoteScreen.resetConfirmation
        let tvHref = RemoteRoute.tv.href()
        let dvrHref = RemoteRoute.dvr.href()
    }

    /// Both devices back to the factory state; asked first, because favourites are lost.
    static let resetConfirmation = Confirmation(
        id: "remote-reset",
        title: "Reset Both Devices?",
        message: "The TV and the DVR go back to their factory settings: off, channel 01, volume 50, the default favourites and nothing recorded.",
        action: RemoteRoute.reset.href(),
        confirmLabel: "Reset",
        cancelLabel: "Cancel",
        destructive: true,
        cancelHref: RemoteRoute.screen.href()
    )
}
