extension ErrorPage {
    /// The status code, what it means for the person, and (for a 5xx) the request ID to quote.
    struct View: PageView {
        let model: Model

        var body: HTML {
            """
            <section class="empty-state" aria-labelledby="error-code">
            <p class="empty-state__symbol" id="error-code">\(model.code)</p>
            <p class="empty-state__message">\(model.message)</p>
            \(if: model.showRequestID, "<p class=\"empty-state__detail\">Request ID: <code>\(model.requestID)</code></p>")
            <p><a class="button" href="/">Go to the home screen</a></p>
            </section>
            """
        }
    }
}

/// The page the service worker shows, under the address asked for, for a page it has not saved
/// while the server is unreachable. "Try again" is an empty link: the address shown, again.
struct OfflineView: PageView {
    /// Where the person can go that works offline.
    let home: String

    var body: HTML {
        """
        <section class="empty-state" aria-labelledby="offline-title" data-offline-page>
        <p class="empty-state__symbol" id="offline-title">Offline</p>
        <p class="empty-state__message">Pocket can’t reach its server right now. Pages you opened before still work; this one hasn’t been saved yet.</p>
        <p><a class="button" href="" id="offline-retry">Try again</a> <a class="button button--plain" href="\(home)">Home</a></p>
        </section>
        """
    }
}
