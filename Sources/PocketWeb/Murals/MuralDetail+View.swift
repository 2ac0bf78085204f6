extension MuralDetail {
    /// A mural's page: the swipe gallery (each picture opening full screen in its own dialog),
    /// title, artist, star, distance, directions and the service's words about it.
    struct View: PageView {
        let model: Model
        /// murals/app.js, which keeps the distance current as the visitor moves.
        let module: String
        let pageContext: PageContext

        var body: HTML {
            """
            <article class="mural" id="mural" data-module="\(module)" data-changes="\(model.changesAction)" data-stale-pages="\(MuralsRoute.listPagesAttribute)" data-id="\(model.id)" data-lat="\(model.latitude)" data-lon="\(model.longitude)">
            \(if: model.pictures.isEmpty, """
            <p class="mural__no-picture" id="mural-no-picture">The murals service has no pictures of this mural yet.</p>
            """, else: gallery)
            <section class="list-section" aria-label="About this mural">
            <div class="list">
            <div class="cell"><div class="cell__main"><span class="cell__text"><span class="cell__title mural__title" id="mural-title">\(model.title)</span>\
            <span class="cell__subtitle" id="mural-artist">\(model.artist)</span>\(if: model.visited, "<span class=\"murals-visited mural__visited\">Visited</span>")</span>
            \(model.favourite.form(csrf: Components.csrf(pageContext), id: "mural-favourite"))
            </div></div>
            <div class="cell"><div class="cell__main"><span class="cell__text"><span class="cell__title">Distance</span>\
            <span class="cell__subtitle" id="mural-distance-caption">\(model.distanceCaption)</span></span><span class="cell__detail" id="mural-distance">\(model.distanceText)</span></div></div>
            <div class="cell"><a class="cell__main" href="\(model.directions.href)" id="mural-directions" target="_blank" rel="noopener noreferrer" \
            data-apple-agents="\(MuralDetail.MapsPlatform.appleAgents.joined(separator: " "))" data-apple-href="\(model.appleDirections.href)" \
            data-apple-label="\(model.appleDirections.label)" data-other-href="\(model.otherDirections.href)" data-other-label="\(model.otherDirections.label)">\
            <span class="cell__text"><span class="cell__title">\(model.directions.label)</span></span><span class="cell__chevron" aria-hidden="true"></span></a></div>
            </div>
            </section>
            \(if: !model.info.isEmpty, """
            <section class="list-section" aria-labelledby="mural-info-h">
            <h2 class="list-section__header" id="mural-info-h">About</h2>
            <div class="list mural__info" id="mural-info">\(each: model.info, { "<p>\($0)</p>" })</div>
            </section>
            """)
            </article>
            \(each: model.pictures, Self.viewer)
            """
        }

        private var gallery: HTML {
            """
            <div class="mural-gallery" id="mural-gallery" role="region" aria-label="Pictures of \(model.title)" tabindex="0">
            \(each: model.pictures, { picture in """
            <button type="button" class="mural-gallery__item" commandfor="\(picture.dialogID)" command="show-modal" aria-label="\(picture.label)">\
            <img class="mural-gallery__image" src="\(picture.src)" alt="\(picture.alt)" loading="lazy" decoding="async" width="400" height="300"></button>
            """ })
            </div>
            <p class="mural-gallery__caption" id="mural-gallery-caption">\(model.pictureCountText)\(if: model.pictures.count > 1, " · swipe for more") · tap for full screen</p>
            """
        }

        /// A picture full screen: a light-dismiss dialog the gallery's button opens.
        private static func viewer(_ picture: Model.Picture) -> HTML {
            """
            <dialog class="mural-viewer" id="\(picture.dialogID)" aria-label="\(picture.alt)" data-light-dismiss>
            <img class="mural-viewer__image" src="\(picture.src)" alt="\(picture.alt)" loading="lazy" decoding="async">
            <button type="button" class="mural-viewer__close button" commandfor="\(picture.dialogID)" command="close">Done</button>
            </dialog>

            """
        }
    }
}
