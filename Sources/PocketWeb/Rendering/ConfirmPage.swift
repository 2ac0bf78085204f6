import Hummingbird

/// A question asked before a destructive action: shown as an in-page `<dialog>` when
/// JavaScript is on, and as its own page (the link's target) when it is not.
public struct Confirmation: Sendable, Hashable {
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
        page(frame: PageFrame(title: confirmation.title, back: back, app: app), context: context) { ConfirmationView(confirmation: confirmation, pageContext: $0) }
    }
}

/// The stand-alone confirmation page.
struct ConfirmationView: PageView {
    let confirmation: Confirmation
    let pageContext: PageContext

    var body: HTML {
        """
        <section class="alert alert--page" aria-labelledby="confirm-title" aria-describedby="confirm-message">
        <h2 class="alert__title" id="confirm-title">\(confirmation.title)</h2>
        <p class="alert__message" id="confirm-message">\(confirmation.message)</p>
        <form class="alert__actions" method="post" action="\(confirmation.action)">
        \(Components.csrf(pageContext))
        <a class="alert__button alert__button--cancel" href="\(confirmation.cancelHref)" data-nav="back">\(confirmation.cancelLabel)</a>
        <button type="submit" class="alert__button\(if: confirmation.destructive, " alert__button--destructive")"\(attribute: "data-sound", confirmation.sound) data-autofocus>\(confirmation.confirmLabel)</button>
        </form>
        </section>
        """
    }
}
