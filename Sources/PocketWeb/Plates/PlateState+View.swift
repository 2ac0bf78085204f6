extension PlateState {
    /// A state's page: its plate (or why it cannot be shown), whether it is spotted, and the
    /// button or link that changes that. It shows in the split view's detail pane.
    struct Fragment: FragmentView {
        let model: Model
        let pageContext: PageContext

        var html: HTML {
            """
            <figure class="plate">
            \(if: model.hasImage, """
            <img class="plate__image" src="\(model.imageURL)" alt="\(model.imageAlt)" id="plate-image">
            """, else: """
            <div class="plate__missing" id="plate-missing" role="note"\(unwrap: model.refreshAfter, { " data-refresh-after=\"\($0)\"" })>\
            <span class="plate__missing-code" aria-hidden="true">\(model.code)</span><p>\(model.imageProblem)</p></div>
            """)
            <figcaption class="plate__caption">\(model.nickname)</figcaption>
            </figure>
            <section class="list-section" aria-label="Spotting">
            <div class="list" id="plate-spotting">
            \(unwrap: model.spotted, { PlateState.spotted($0, model: model) }, else: PlateState.notSpotted(model, pageContext: pageContext))
            </div>
            </section>
            \(unwrap: model.confirmation, { Components.alertDialog($0, pageContext: pageContext) })
            <template id="plate-spotting-spotted">\(PlateState.spotted(Model.spottedNow, model: model))</template>
            <template id="plate-spotting-white">\(PlateState.notSpotted(model, pageContext: pageContext))</template>
            """
        }
    }

    private static func spotted(_ spotted: Model.Spotted, model: Model) -> HTML {
        """
        <div class="cell cell--bg-green"><div class="cell__main"><span class="cell__text">\
        <span class="cell__title" id="plate-spotted"\(attribute: "data-time-text", spotted.pattern)>\(spotted.text)</span>\
        \(unwrap: spotted.place, { place in """
        <span class="cell__subtitle"><a href="\(place.mapURL)" rel="noopener noreferrer" target="_blank">\(place.text)</a></span>
        """ })\
        </span></div></div>
        <div class="cell"><a class="cell__main" href="\(model.unspotHref)" data-dialog="\(model.unspot.id)">\
        <span class="cell__text"><span class="cell__title cell__title--destructive">Reset \(model.name)…</span></span></a></div>
        """
    }

    private static func notSpotted(_ model: Model, pageContext: PageContext) -> HTML {
        """
        <div class="cell"><div class="cell__main"><span class="cell__text"><span class="cell__title" id="plate-spotted">Not spotted on this trip yet</span></span></div></div>
        <form class="cell" method="post" action="\(model.spotAction)"\(flag: "data-geolocate", model.recordsLocation)>\(Components.csrf(pageContext))\
        <input type="hidden" name="return" value="\(model.returnTo)"><div class="cell__main">\
        <button class="button button--large" type="submit"\(attribute: "data-sound", model.spotSound)>I Spotted \(model.name)</button></div></form>
        """
    }
}
