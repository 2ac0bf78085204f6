import Foundation
import Remote

/// "My DVR": the status display, power switch and transport buttons, with the action sheet that
/// explains a refused press and the alert that confirms a forced one.
enum RemoteDVR {
    /// A transport button.
    struct Transport: Sendable {
        let id: String
        let title: String
        let icon: String
        let action: String
        /// The DVR is in this button's state (shown lit, `aria-pressed`).
        let isCurrent: Bool
        let isRecord: Bool
    }

    /// The action sheet shown for a refused press: a warning, then Force or Cancel.
    struct Sheet: Sendable {
        let title: String
        let message: String
        let forceTitle: String
        let forceAction: String
        let cancelTitle = Refusal.cancelTitle
        let cancelHref: String
    }

    /// The alert confirming that a forced press stopped the current operation.
    struct Alert: Sendable {
        let title: String
        let message: String
        let okHref: String
    }

    /// Buttons in the order the remote shows them: skim and play on top, pause, stop and record below.
    static let layout: [DVRButton] = [.fastRewind, .play, .fastForward, .pause, .stop, .record]

    /// The DVR remote as one request sees it: the counters run to `now`, and a sheet or alert
    /// shows only while it still applies.
    struct Model: Sendable {
        let isOn: Bool
        let powerText: String
        let stateTitle: String
        let stateIcon: String
        let clock: RemoteClock
        let buttons: [Transport]
        let sheet: Sheet?
        let alert: Alert?
        /// A sheet or alert is showing: the remote behind it is inert.
        let isBlocked: Bool
        let notice: String?
        let powerAction: String
        let eventsHref: String
        let flipIn: Bool
        let toolbar: RemoteToolbar

        /// `confirm` is the refused button whose sheet to show; `forced` the refusal an alert confirms.
        /// A sheet that no longer applies (another phone changed the state meanwhile) is simply not shown.
        init(snapshot: DVRSnapshot, now: Date, confirm: DVRButton?, forced: Refusal?, flipIn: Bool) {
            let dvr = snapshot.dvr(at: now)
            isOn = dvr.isOn
            powerText = dvr.isOn ? "On" : "Off"
            stateTitle = dvr.isOn ? dvr.state.title : "Off"
            stateIcon = dvr.isOn ? dvr.state.button.icon : "power"
            clock = RemoteClock(dvr: dvr, id: "dvr-clock")
            buttons = RemoteDVR.layout.map { button in
                Transport(
                    id: "dvr-\(button.slug)",
                    title: button.title,
                    icon: button.icon,
                    action: RemoteRoute.dvrPress.href(button),
                    isCurrent: dvr.isOn && dvr.state == button.target,
                    isRecord: button == .record
                )
            }
            var sheet: Sheet?
            if let confirm, case .needsConfirmation(let refusal) = dvr.outcome(of: confirm) {
                sheet = Sheet(
                    title: refusal.button.title,
                    message: refusal.warning,
                    forceTitle: refusal.forceTitle,
                    forceAction: RemoteRoute.dvrForce.href(refusal.button),
                    cancelHref: RemoteRoute.dvr.href()
                )
            }
            // The alert follows a force; a sheet asked for at the same time would be a hand-made URL, and wins.
            let alert = sheet == nil ? forced.map { refusal in
                Alert(title: refusal.from == .stopped ? "Nothing to Stop" : "Operation Stopped", message: refusal.forcedMessage, okHref: RemoteRoute.dvr.href())
            } : nil
            self.sheet = sheet
            self.alert = alert
            isBlocked = sheet != nil || alert != nil
            notice = snapshot.notice
            powerAction = RemoteRoute.dvrPower.href()
            eventsHref = RemoteRoute.eventsHref(view: .dvr, since: snapshot.revision)
            self.flipIn = flipIn
            toolbar = RemoteToolbar(showing: .dvr)
        }
    }
}

/// The DVR's counters, rendered on the remote and on the Screen page and re-sent every second while
/// they run (an SSE `patch` replaces the element with this id).
struct RemoteClock: Sendable {
    let id: String
    let position: String
    let recording: String
    let hasRecording: Bool
    let isOn: Bool

    init(dvr: DVR, id: String) {
        self.id = id
        position = Self.format(dvr.position)
        recording = Self.format(dvr.recordingLength)
        hasRecording = dvr.recordingLength > 0 || dvr.state.isRecording
        isOn = dvr.isOn
    }

    /// "0:07", "12:34" or "1:02:03": whole seconds, as a DVR's front panel counts.
    static func format(_ seconds: TimeInterval) -> String {
        let total = seconds.isFinite ? max(0, Int(seconds.rounded(.down))) : 0
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }
}

extension DVRButton {
    /// The symbol's id in the remote's icon sprite (`RemoteIcons.sprite`).
    var icon: String { slug }
}
