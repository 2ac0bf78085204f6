import Foundation

/// Why a transport button was refused, with the copy for the action sheet that offers to force it.
///
/// Only the pair is stored; the strings are derived, so a refusal can never say one thing and force another.
public struct Refusal: Hashable, Sendable {
    /// The button that was pressed.
    public let button: DVRButton
    /// The state the DVR was in, whose operation forcing will stop.
    public let from: DVRState

    /// Made only by `DVR.press`, so every refusal names a pair the rules actually refuse.
    init(button: DVRButton, from: DVRState) {
        self.button = button
        self.from = from
    }

    /// The state forcing will end in.
    public var to: DVRState { button.target }

    /// The action sheet's message: what is wrong, then the question its destructive button answers.
    public var warning: String {
        let problem = "Can't \(button.verb) while \(from.participle)."
        guard let stopping = from.stopPhrase else {
            return "\(problem) \(button.verb.capitalizedFirst) anyway?"
        }
        return "\(problem) \(stopping) and \(button.verb)?"
    }

    /// The action sheet's destructive button, in iOS title case.
    public var forceTitle: String {
        guard let stopping = from.stopPhrase else {
            return "\(button.title) Anyway"
        }
        return "\(stopping.titleCased) and \(button.title)"
    }

    /// The alert shown after forcing, naming what was stopped and what runs now.
    public var forcedMessage: String {
        let now = "Now \(to.participle)."
        guard let activity = from.activity else {
            return "The DVR was already stopped. \(now)"
        }
        return "\(activity) was stopped. \(now)"
    }

    /// The action sheet's cancel button; cancelling changes nothing.
    public static let cancelTitle = "Cancel"
}

extension DVRButton {
    /// Lowercase verb for sentences ("fast forward").
    fileprivate var verb: String { title.lowercased() }
}

extension DVRState {
    /// Lowercase form after "while" and "Now" ("while paused", "Now fast forwarding").
    fileprivate var participle: String { title.lowercased() }

    /// The operation as a sentence subject ("Pausing"); nil when stopped, because there is nothing to stop.
    fileprivate var activity: String? {
        switch self {
        case .stopped: nil
        case .playing: "Playing"
        case .paused: "Pausing"
        case .fastForwarding: "Fast forwarding"
        case .fastRewinding: "Fast rewinding"
        case .recording: "Recording"
        }
    }

    /// "Stop pausing"; nil when stopped, because there is nothing to stop.
    fileprivate var stopPhrase: String? {
        activity.map { "Stop \($0.lowercased())" }
    }
}

extension String {
    /// "fast forward" → "Fast forward", for a verb that opens a sentence.
    fileprivate var capitalizedFirst: String {
        prefix(1).uppercased() + dropFirst()
    }

    /// "Stop fast forwarding" → "Stop Fast Forwarding", for iOS button titles.
    fileprivate var titleCased: String {
        split(separator: " ").map { String($0).capitalizedFirst }.joined(separator: " ")
    }
}
