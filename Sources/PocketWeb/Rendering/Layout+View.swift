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

/// The shared page layout: head, navigation bar, content and toolbar.
enum Layout {
    /// The whole document for `view`.
    static func document(frame: PageFrame, pageContext: PageContext, view: some PageView) -> HTML {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
        <meta name="color-scheme" content="light dark">
        <meta name="theme-color" content="#f2f2f7" media="(prefers-color-scheme: light)">
        <meta name="theme-color" content="#000000" media="(prefers-color-scheme: dark)">
        <meta name="apple-mobile-web-app-capable" content="yes">
        <meta name="mobile-web-app-capable" content="yes">
        <meta name="apple-mobile-web-app-status-bar-style" content="default">
        <meta name="apple-mobile-web-app-title" content="Pocket">
        <meta name="csrf-token" content="\(pageContext.csrfToken)">
        \(unwrap: pageContext.signedIn, { "<meta name=\"pocket-device\" content=\"\($0.device)\" data-person=\"\($0.person)\" data-name=\"\($0.name)\">" })
        <meta name="pocket-sw" content="/sw.js">
        <title>\(frame.documentTitle)</title>
        <link rel="manifest" href="/manifest.webmanifest">
        <link rel="icon" href="\(pageContext.favicon)" type="image/svg+xml">
        <link rel="icon" href="\(pageContext.faviconPNG)" type="image/png" sizes="32x32">
        <link rel="apple-touch-icon" href="\(pageContext.appleTouchIcon)">
        <link rel="stylesheet" href="\(pageContext.stylesheet)">
        \(unwrap: pageContext.appStylesheet, { "<link rel=\"stylesheet\" href=\"\($0)\">" })
        <script type="importmap">\(HTML(trusted: pageContext.importMap))</script>
        \(each: pageContext.modulePreloads, { "<link rel=\"modulepreload\" href=\"\($0)\">\n" })\
        <script type="module" src="\(pageContext.script)"></script>
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
        </body>
        </html>

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
