extension MuralsTrail {
    /// The trail as a page, for browsers without JavaScript (the map draws it otherwise): the
    /// stops in walking order, and a way to forget which murals were visited.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var body: HTML {
            """
            <p class="content__intro" id="murals-trail-summary-page">\(model.summary). \(model.startCaption)</p>
            \(if: model.stops.isEmpty, """
            <p class="murals-empty" id="murals-trail-empty">There are no murals to walk to. Show all murals, or mark some favourites.</p>
            """, else: """
            <section class="list-section" aria-label="Stops in walking order">
            <ol class="list murals-trail" id="murals-trail-stops" role="list">
            \(each: model.stops, Self.stop)
            </ol>
            <p class="list-section__footer">Total \(model.lengthText), in a straight line between stops: nearest first, then shortened by swapping legs (2-opt).</p>
            </section>
            """)
            \(if: model.hasVisited, """
            <form class="list" method="post" action="\(model.clearAction)">\(Components.csrf(pageContext))<input type="hidden" name="return" value="\(model.returnTo)">\
            <div class="cell"><button class="cell__main" type="submit" id="murals-clear-visited"><span class="cell__text">\
            <span class="cell__title cell__title--destructive">Forget Visited Murals</span></span></button></div></form>
            """)
            """
        }

        private static func stop(_ stop: Stop) -> HTML {
            """
            <li class="cell\(if: stop.visited, " is-visited")"><a class="cell__main" href="\(stop.href)"><span class="murals-trail__number" aria-hidden="true">\(stop.number)</span>\
            <span class="cell__text"><span class="cell__title">\(stop.title)</span><span class="cell__subtitle">\(stop.artist)</span><span class="murals-visited">Visited</span></span>\
            <span class="cell__detail">\(stop.legText)</span><span class="cell__chevron" aria-hidden="true"></span></a></li>
            """
        }
    }
}
