extension PlatesTrips {
    /// The trip history: the trip being played, the finished ones, and New Trip with its alert.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var body: HTML {
            """
            \(unwrap: model.current, { current in """
            <section class="list-section" aria-labelledby="trips-current">
            <h2 class="list-section__header" id="trips-current">Now</h2>
            <ul class="list" role="list">\(Self.row(current))</ul>
            </section>

            """ })\
            <section class="list-section" aria-labelledby="trips-history">
            <h2 class="list-section__header" id="trips-history">History</h2>
            \(if: model.finished.isEmpty, """
            <p class="list-section__footer">Finished trips appear here when you start a new one.</p>
            """, else: """
            <ul class="list" role="list" id="trips-finished">
            \(each: model.finished, Self.row)
            </ul>
            """)
            </section>
            <p\(unwrap: model.module, \.attributes)><a class="button button--large" href="\(model.newTripHref)" data-dialog="\(model.newTrip.id)" id="plates-new-trip">New Trip</a></p>
            \(Components.alertDialog(model.newTrip, pageContext: pageContext))
            """
        }

        /// A trip; only the current one's score changes when the phone spots a plate (plates/app.js).
        private static func row(_ row: Model.Row) -> HTML {
            """
            <li class="cell"><a class="cell__main" href="\(row.href)"><span class="cell__text"><span class="cell__title">\(row.title)</span>\
            <span class="cell__subtitle">\(row.subtitle)</span></span><span class="cell__detail"\(attribute: "data-score-text", row.isCurrent ? row.score.pattern : nil)>\(row.score.text)</span>\
            <span class="cell__chevron" aria-hidden="true"></span></a></li>
            """
        }
    }

    /// One trip: the states spotted on it, oldest first, each leading to its state.
    struct DetailView: PageView {
        let model: Detail
        let pageContext: PageContext

        var body: HTML {
            """
            <section class="list-section" aria-labelledby="trip-heading">
            <h2 class="list-section__header" id="trip-heading">\(model.subtitle) · \(model.scoreText)</h2>
            \(if: model.rows.isEmpty, """
            <p class="list-section__footer">No plates were spotted on this trip.</p>
            """, else: """
            <ul class="list" role="list">\(each: model.rows, Self.row)</ul>
            """)
            </section>
            """
        }

        private static func row(_ row: Detail.Row) -> HTML {
            """
            <li class="cell"><a class="cell__main" href="\(row.href)"><span class="cell__text"><span class="cell__title">\(row.name)</span></span>\
            <span class="cell__detail">\(row.when)</span><span class="cell__chevron" aria-hidden="true"></span></a></li>
            """
        }
    }
}
