import Hummingbird

/// A question asked before a destructive action: shown as an in-page `<dialog>` when
/// JavaScript is on, and as its own page (the link's target) when it is not.
public struct Confirmation: Sendable, Equatable {
    /// The dialog's id on the page that offers it.
    public let id: String
    /// The question, e.g. "Reset Alabama?".
    public let title: String
    /// What will happen.
    public let message: String
    /// Where the confirming button posts.
    public let action: String
    /// The label of the confirming button: a verb for what it does ("Reset"), never "Yes".
    public let confirmLabel: String
    /// The label of the cancelling button, "Cancel" as on iOS.
    public let cancelLabel: String
    /// Whether confirming destroys something (red button).
    public let destructive: Bool
    /// A sound to play when confirmed, if any.
    public let sound: String?
    /// Where the cancelling button leads on the stand-alone page.
    public let cancelHref: String

    /// Creates a confirmation.
    public init(id: String, title: String, message: String, action: String, confirmLabel: String, cancelLabel: String = "Cancel", destructive: Bool = false, sound: String? = nil, cancelHref: String) {
        self.id = id
        self.title = title
        self.message = message
        self.action = action
        self.confirmLabel = confirmLabel
        self.cancelLabel = cancelLabel
        self.destructive = destructive
        self.sound = sound
        self.cancelHref = cancelHref
    }
}

extension PageRenderer {
    /// The stand-alone page for a confirmation (the no-JavaScript path of an alert).
    public func confirmationPage(_ confirmation: Confirmation, back: BackLink, app: String?, context: PocketRequestContext) throws -> Response {
        try page("shell/confirm", frame: PageFrame(title: confirmation.title, back: back, app: app), model: confirmation, context: context)
    }
}
