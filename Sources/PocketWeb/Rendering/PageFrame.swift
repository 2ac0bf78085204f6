/// What the shared layout needs to know about a page: its title and where "back" goes.
public struct PageFrame: Sendable, Hashable {
    /// The navigation bar title (also the document title).
    public let title: String
    /// The back button, labelled with the previous screen's title.
    public var back: BackLink?
    /// Whether the title is shown as an iOS large title under the bar.
    public var largeTitle: Bool
    /// An extra class on the screen, for app-specific styling hooks.
    public var screenClass: String
    /// The app whose stylesheet (`css/apps/<app>.css`) the page also needs, if any.
    public var app: String?

    /// The document title: the page title followed by the product name, or just "Pocket" at home.
    public let documentTitle: String

    /// Creates a frame.
    public init(title: String, back: BackLink? = nil, largeTitle: Bool = false, screenClass: String = "", app: String? = nil) {
        self.title = title
        self.documentTitle = title == "Pocket" ? title : "\(title) · Pocket"
        self.back = back
        self.largeTitle = largeTitle
        self.screenClass = screenClass
        self.app = app
    }
}

/// A navigation bar back button.
public struct BackLink: Sendable, Hashable {
    /// The previous screen's title.
    public var label: String
    /// Where it leads.
    public var href: String

    /// Creates a back link.
    public init(label: String, href: String) {
        self.label = label
        self.href = href
    }
}

/// What every page's layout needs besides the page itself (the browser's "chrome" is not meant): asset links, the CSRF token, who is signed in, the version.
public struct PageContext: Sendable, Hashable {
    /// The browser session's CSRF token, for forms and the meta tag.
    public internal(set) var csrfToken: String
    /// Who is signed in on this device, for the outbox: changes are bound to the device that
    /// made them (see `Outbox`). Nil for a stranger.
    public internal(set) var signedIn: OutboxOwner?
    /// Name of the hidden field forms carry the token in.
    public let csrfField = CSRFMiddleware.fieldName
    /// `/static/css/pocket.css?v=…`
    public let stylesheet: String
    /// `/static/js/pocket.js?v=…`
    public let script: String
    /// SVG favicon.
    public let favicon: String
    /// PNG favicon for browsers without SVG icons.
    public let faviconPNG: String
    /// 180×180 icon for iOS home screens.
    public let appleTouchIcon: String
    /// The page's app stylesheet, when it has one.
    public internal(set) var appStylesheet: String?
    /// Every module the page will run, as versioned URLs (`ModuleGraph`): `pocket.js`'s graph and
    /// its app module's, named up front so the browser fetches them in one round.
    public internal(set) var modulePreloads: [String] = []
    /// The stylesheets' texts, when the page carries them inside itself (a navigation without the
    /// service worker, `PageRenderer.pageContext(for:app:)`); nil: the page links them.
    var inlineStyles: InlineStyles?
    /// Whether the module script comes after the content rather than in the head: on a page the
    /// service worker answers, whose modules come from its cache at once, so compiling them does
    /// not hold the first paint back (a first visit's modules cross the network, and start sooner
    /// from the head).
    var scriptAfterContent = false
    /// Pocket's version.
    public let version: String
    /// The import map's JSON (see `ImportMap`), written into the page as it is.
    let importMap: String
}

/// The signed-in device and person a page names, so the phone's outbox binds each change to
/// them and never sends one person's changes in another's session.
public struct OutboxOwner: Sendable, Hashable {
    /// The device's tag (`Device.tag`).
    public let device: String
    /// The person's id.
    public let person: Int64
    /// The person's name, for saying whose changes were set aside.
    public let name: String
}
