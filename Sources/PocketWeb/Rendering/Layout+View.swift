/// A page's view: what it puts into the shared layout. Each page's view lives beside its
/// `+Model` in its app's folder and is built from the model and the request's `PageContext`.
protocol PageView {
    /// The page's content, inside `<main>`.
    var body: HTML { get }
    /// A bottom toolbar or tab bar, after `<main>`; nothing by default.
    var toolbar: HTML { get }
    /// Buttons at the trailing end of the navigation bar; nothing by default.
    var actions: HTML { get }
}

extension PageView {
    var toolbar: HTML { .empty }
    var actions: HTML { .empty }
}

/// A part that more than one page shows (the Plates list beside a state, a talk beside its list,
/// the Conference banner and tab bar), written the way a page's view is: a struct named
/// `…Fragment` in the extension of the part's model, made from the model (and the request's
/// `PageContext` when it holds a form), interpolated into a view as `\(SomePart.Fragment(…))`. Pages are `PageView`s and parts
/// are `FragmentView`s, so markup is built one of these two ways.
protocol FragmentView {
    /// The part's markup.
    var html: HTML { get }
}

extension HTML.Interpolation {
    /// A part, as its markup.
    mutating func appendInterpolation(_ fragment: some FragmentView) {
        appendInterpolation(fragment.html)
    }
}

/// The shared page layout: head, navigation bar, content and toolbar. Every document Pocket's
/// pages are shown in is written here, the plain-HTTP trust page's included (`Head.plain`).
enum Layout {
    /// What a document's head loads besides what every page has (the design system's stylesheet,
    /// the icons, one module script).
    enum Head {
        /// A page of Pocket: its client (service worker, outbox, CSRF token, the import map and
        /// module preloads), the web app metadata and the page's app stylesheet.
        case pocket(PageContext)
        /// A page of the plain-HTTP trust listener: Pocket's look and the page's own stylesheet
        /// and script, without Pocket's client (pocket.js would register the service worker and
        /// send the outbox, neither of which belongs on plain HTTP) or the web app metadata.
        case plain(PlainLinks)

        /// Pocket's client's values, or nil on plain HTTP.
        var client: PageContext? {
            if case .pocket(let pageContext) = self { pageContext } else { nil }
        }

        /// The links every document has, and the page's own stylesheet and script.
        var links: PlainLinks {
            switch self {
            case .pocket(let pageContext):
                PlainLinks(stylesheet: pageContext.stylesheet, pageStylesheet: pageContext.appStylesheet, script: pageContext.script,
                           favicon: pageContext.favicon, faviconPNG: pageContext.faviconPNG, appleTouchIcon: pageContext.appleTouchIcon)
            case .plain(let links):
                links
            }
        }
    }

    /// The versioned links of a document's head (`Head.plain`'s whole head).
    struct PlainLinks: Sendable, Equatable {
        /// The design system, `css/pocket.css`.
        let stylesheet: String
        /// The page's own stylesheet, when it has one.
        let pageStylesheet: String?
        /// The page's one module script.
        let script: String
        /// SVG favicon.
        let favicon: String
        /// PNG favicon for browsers without SVG icons.
        let faviconPNG: String
        /// 180×180 icon for iOS home screens.
        let appleTouchIcon: String
    }

    /// The whole document for `view`, a page of Pocket.
    static func document(frame: PageFrame, pageContext: PageContext, view: some PageView) -> HTML {
        document(frame: frame, head: .pocket(pageContext), view: view)
    }

    /// The whole document for `view`, with `head`'s links.
    static func document(frame: PageFrame, head: Head, view: some PageView) -> HTML {
        let links = head.links
        let script: HTML = "<script type=\"module\" src=\"\(links.script)\"></script>\n"
        let scriptAfterContent = head.client?.scriptAfterContent == true
        return """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
        <meta name="color-scheme" content="light dark">
        \(unwrap: head.client, clientMeta, else: "<meta name=\"referrer\" content=\"no-referrer\">\n")\
        <title>\(frame.documentTitle)</title>
        \(if: head.client != nil, manifestLink)\
        <link rel="icon" href="\(links.favicon)" type="image/svg+xml">
        <link rel="icon" href="\(links.faviconPNG)" type="image/png" sizes="32x32">
        <link rel="apple-touch-icon" href="\(links.appleTouchIcon)">
        \(stylesheet(links.stylesheet, inline: head.client?.inlineStyles))\
        \(unwrap: links.pageStylesheet, { stylesheet($0, inline: head.client?.inlineStyles) })\
        \(unwrap: head.client, modules)\
        \(if: !scriptAfterContent, script)\
        </head>
        <body>
        <a class="skip-link" href="#main">Skip to content</a>
        <div class="screen \(frame.screenClass)\(if: frame.largeTitle, " screen--large-title")" data-screen>
        <header class="navbar">
        <div class="navbar__bar">
        <div class="navbar__leading">\(unwrap: frame.back, backLink)</div>
        <span class="navbar__inline-title" aria-hidden="true">\(frame.title)</span>
        <div class="navbar__actions">\(view.actions)</div>
        </div>
        <h1 class="navbar__title" tabindex="-1">\(frame.title)</h1>
        </header>
        <main id="main" class="content" tabindex="-1">
        \(view.body)
        </main>
        \(view.toolbar)
        </div>
        <div id="pocket-live" class="visually-hidden" aria-live="polite"></div>
        \(if: scriptAfterContent, script)\
        </body>
        </html>

        """
    }

    /// The web app metadata and what Pocket's client reads from the head: the CSRF token, who is
    /// signed in (for the outbox) and the addresses its scripts use.
    private static func clientMeta(_ pageContext: PageContext) -> HTML {
        """
        <meta name="theme-color" content="#f2f2f7" media="(prefers-color-scheme: light)">
        <meta name="theme-color" content="#000000" media="(prefers-color-scheme: dark)">
        <meta name="apple-mobile-web-app-capable" content="yes">
        <meta name="mobile-web-app-capable" content="yes">
        <meta name="apple-mobile-web-app-status-bar-style" content="default">
        <meta name="apple-mobile-web-app-title" content="Pocket">
        <meta name="csrf-token" content="\(pageContext.csrfToken)">
        \(unwrap: pageContext.signedIn, { "<meta name=\"pocket-device\" content=\"\($0.device)\" data-person=\"\($0.person)\" data-name=\"\($0.name)\">\n" })\
        \(clientRoutes)

        """
    }

    private static let manifestLink: HTML = "<link rel=\"manifest\" href=\"\(ShellRoute.manifest.href())\">\n"

    /// The addresses Pocket's own scripts need on every page, from the routes that serve them, so
    /// no script spells one (`route()` in js/core/dom.js): the service worker (registered, and
    /// asked whether the server is back), the static files' folder (not screens, never swapped in)
    /// and the sign-in page (the offline bar's link when signed out).
    private static let clientRoutes: HTML = """
        <meta name="pocket-routes" data-service-worker="\(ShellRoute.serviceWorker.href())" data-static="\(ShellRoute.asset.folder)" \
        data-sign-in="\(PeopleRoute.signInPage.href())">
        """

    /// The stylesheet at `url`: inside the page when `inline` has its text (`InlineStyles`), the
    /// URL kept beside it so a page swapped in later does not link it again; else a link.
    private static func stylesheet(_ url: String, inline: InlineStyles?) -> HTML {
        guard let text = inline?.text(for: url) else { return "<link rel=\"stylesheet\" href=\"\(url)\">\n" }
        return "<style data-href=\"\(url)\">\(HTML(trusted: text))</style>\n"
    }

    /// The import map and a `modulepreload` for every module the page will run.
    private static func modules(_ pageContext: PageContext) -> HTML {
        """
        <script type="importmap">\(HTML(trusted: pageContext.importMap))</script>
        \(each: pageContext.modulePreloads, { "<link rel=\"modulepreload\" href=\"\($0)\">\n" })
        """
    }

    private static func backLink(_ back: BackLink) -> HTML {
        """
        <a class="navbar__back" href="\(back.href)" data-nav="back"><span class="navbar__chevron" aria-hidden="true"></span>\
        <span class="navbar__back-label">\(back.label)</span></a>
        """
    }
}

/// Pieces many pages share.
enum Components {
    /// The hidden field every form posts its CSRF token in.
    static func csrf(_ pageContext: PageContext) -> HTML {
        "<input type=\"hidden\" name=\"\(pageContext.csrfField)\" value=\"\(pageContext.csrfToken)\">"
    }

    /// An in-page `<dialog>` asking `confirmation`'s question (JavaScript opens it; without
    /// JavaScript the link that would open it leads to the stand-alone confirmation page).
    static func alertDialog(_ confirmation: Confirmation, pageContext: PageContext) -> HTML {
        let id = confirmation.id
        return """
        <dialog class="alert" id="\(id)" aria-labelledby="\(id)-title" aria-describedby="\(id)-message">
        <h2 class="alert__title" id="\(id)-title">\(confirmation.title)</h2>
        <p class="alert__message" id="\(id)-message">\(confirmation.message)</p>
        <form class="alert__actions" method="post" action="\(confirmation.action)">
        \(csrf(pageContext))
        <button type="button" class="alert__button alert__button--cancel" commandfor="\(id)" command="close">\(confirmation.cancelLabel)</button>
        <button type="submit" class="alert__button\(if: confirmation.destructive, " alert__button--destructive")"\(attribute: "data-sound", confirmation.sound)>\(confirmation.confirmLabel)</button>
        </form>
        </dialog>

        """
    }
}
