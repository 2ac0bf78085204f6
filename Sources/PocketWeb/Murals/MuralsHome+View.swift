extension MuralsHome {
    /// The main screen: the map, the status line, the All / Favourites filter and the murals by
    /// distance, each with its favourite star; murals/app.js enhances it, and it works without it.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var actions: HTML {
            """
            <form class="murals-refresh" method="post" action="\(model.refreshAction)">\(Components.csrf(pageContext))\
            <input type="hidden" name="return" value="\(model.returnTo)"><button class="bar-button" type="submit" id="murals-refresh">Refresh</button></form>
            """
        }

        var body: HTML {
            let csrf = Components.csrf(pageContext)
            return """
            <div class="murals" id="murals" data-module="\(model.map.module)" data-walk="\(model.walkJSON)" data-trail="\(model.trailJSON)" \
            data-visited="\(model.visitedAction)" data-keep="\(model.keepList)" data-changes="\(model.changesAction)" data-stale-pages="\(MuralsRoute.listPagesAttribute)" data-show="\(model.filterValue)" data-start="\(model.startLatitude),\(model.startLongitude)" data-at="\(model.positionParam)">
            \(Self.map(model.map))
            <section class="murals__list" id="murals-list-pane" aria-label="Murals by distance">
            \(Self.status(model.status))
            <p class="murals-location-note" id="murals-location-note" role="status" hidden></p>
            \(Self.keep)
            \(filter)
            <h2 class="list-section__header murals-caption"><span id="murals-distance-caption">\(model.distanceCaption)</span> · <span id="murals-count">\(model.countText)</span></h2>
            \(if: model.cells.isEmpty, "<p class=\"murals-empty\" id=\"murals-empty\">\(model.emptyText)</p>\n")\
            <ul class="list murals-list" id="murals-list" role="list">
            \(each: model.cells, { Self.cell($0, csrf: csrf) })\
            </ul>
            </section>
            </div>
            \(Self.simulateSheet)
            """
        }

        var toolbar: HTML {
            """
            <footer class="toolbar murals-toolbar" id="murals-toolbar">
            <button class="bar-button murals-js" type="button" id="murals-locate">Use My Location</button>
            <button class="bar-button murals-js" type="button" id="murals-simulate-button" commandfor="murals-simulate" command="show-modal">Simulate</button>
            <a class="bar-button js-hidden" href="\(model.filterAction)?at=\(model.startLatitude),\(model.startLongitude)\(if: model.showsFavourites, "&amp;show=favourites")" id="murals-near">Near New Brighton</a>
            <span class="toolbar__flex"></span>
            <a class="bar-button" href="\(model.trailHref)" id="murals-trail-button" aria-pressed="false">Trail</a>
            </footer>
            """
        }

        /// Where murals/app.js puts the map, or why there is none.
        private static func map(_ map: MuralsMapConfig) -> HTML {
            """
            <section class="murals__map" aria-label="Map">
            <div class="murals-map" id="murals-map" data-centre="\(map.centreLatitude),\(map.centreLongitude)"\
            \(unwrap: map.library, { " data-leaflet-js=\"\($0.script)\" data-leaflet-css=\"\($0.stylesheet)\" data-tiles=\"\(map.tiles)\" data-tile-placeholder=\"\(map.placeholder)\"" })>
            \(if: map.library != nil, """
            <p class="murals-map__note js-hidden" id="murals-map-nojs">The map needs JavaScript; the list works without it.</p>
            """, else: """
            <p class="murals-map__note" id="murals-map-missing">\(map.missingText)</p>
            """)
            </div>
            <p class="murals-map__chip" id="murals-trail-summary" role="status" hidden></p>
            <p class="murals-map__chip murals-map__refused" id="murals-map-refused" role="status" hidden>\
            The map’s tile server refused parts of the map (HTTP <span data-status></span>), so they stay blank; the list still works. \
            The owner can choose another tile server with POCKET_MURALS_TILES (README: Murals, Map tiles).</p>
            </section>
            """
        }

        private static func status(_ status: MuralsSyncStatus) -> HTML {
            """
            <p class="murals-status" id="murals-status">\
            \(if: status.isDemo, "<span class=\"murals-badge\" id=\"murals-demo\">\(status.demoText)</span> ")\
            \(if: status.isOffline, "<span class=\"murals-status__offline\" id=\"murals-offline\" title=\"\(status.problem)\">\(status.offlineText)</span> · ")\
            <span id="murals-updated">\(status.updatedText)</span></p>
            """
        }

        /// All / Favourites: a GET form (pocket.js submits it on change), keeping the position.
        private var filter: HTML {
            """
            <form class="murals-filter" method="get" action="\(model.filterAction)" data-autosubmit data-transition="none">
            \(if: model.hasPosition, "<input type=\"hidden\" name=\"at\" value=\"\(model.positionParam)\">\n")\
            <fieldset class="segmented" id="murals-filter"><legend class="visually-hidden">Show</legend>
            \(each: model.filters, { """
            <label class="segmented__item"><input type="radio" name="show" value="\($0.value)" id="\($0.id)"\(flag: "checked", $0.checked)><span>\($0.label)</span></label>
            """ })
            </fieldset>
            <button class="button button--tinted js-hidden" type="submit">Show</button>
            </form>
            """
        }

        /// A mural: its link (thumbnail, title, artist, distance) and its star. The data attributes
        /// let murals/app.js re-order and re-measure the list as the visitor moves.
        private static func cell(_ cell: Model.Cell, csrf: HTML) -> HTML {
            """
            <li class="cell murals-cell\(if: cell.visited, " is-visited")\(if: cell.favourite.isFavourite, " is-favourite")" id="mural-\(cell.id)" data-id="\(cell.id)" \
            data-lat="\(cell.latitude)" data-lon="\(cell.longitude)" data-metres="\(cell.metres)" data-title="\(cell.title)" data-artist="\(cell.artist)" data-href="\(cell.href)">
            <a class="cell__main murals-cell__main" href="\(cell.href)">
            \(unwrap: cell.thumbnailURL, { """
            <img class="murals-thumb" src="\($0)" alt="" loading="lazy" decoding="async" width="64" height="64">
            """ }, else: """
            <span class="murals-thumb murals-thumb--none" aria-hidden="true"></span>
            """)
            <span class="cell__text"><span class="cell__title murals-cell__title">\(cell.title)</span><span class="cell__subtitle murals-cell__artist">\(cell.artist)</span>\
            <span class="murals-visited">Visited</span></span>
            <span class="cell__detail murals-distance" data-distance>\(cell.distanceText)</span>
            </a>
            \(cell.favourite.form(csrf: csrf))
            </li>

            """
        }

        /// "Keep offline": murals/app.js saves every mural's page and pictures on the phone. Without
        /// JavaScript there is nothing to save them with, so it is not shown.
        private static let keep: HTML = """
            <div class="murals-keep murals-js" id="murals-keep">\
            <button class="button button--tinted murals-keep__button" type="button" id="murals-keep-button">Keep Offline</button>\
            <span class="murals-keep__status" id="murals-keep-status" role="status" aria-live="polite"></span></div>
            """

        /// "Simulate Location", as the simulator's menu offers it.
        private static let simulateSheet: HTML = """
            <dialog class="action-sheet" id="murals-simulate" aria-labelledby="murals-simulate-title">
            <div class="action-sheet__group">
            <p class="action-sheet__title" id="murals-simulate-title">Simulate Location</p>
            <p class="action-sheet__message">Like the simulator’s location menu: stand in New Brighton, or replay the recorded walk.</p>
            <button type="button" class="action-sheet__button" data-simulate="fixed" commandfor="murals-simulate" command="close">New Brighton</button>
            <button type="button" class="action-sheet__button" data-simulate="walk" data-speed="1" commandfor="murals-simulate" command="close">Walk at 1×</button>
            <button type="button" class="action-sheet__button" data-simulate="walk" data-speed="5" commandfor="murals-simulate" command="close">Walk at 5×</button>
            <button type="button" class="action-sheet__button" data-simulate="walk" data-speed="20" commandfor="murals-simulate" command="close">Walk at 20×</button>
            <button type="button" class="action-sheet__button action-sheet__button--destructive" data-simulate="off" commandfor="murals-simulate" command="close">Stop Simulating</button>
            </div>
            <div class="action-sheet__group"><button type="button" class="action-sheet__button action-sheet__button--cancel" commandfor="murals-simulate" command="close">Cancel</button></div>
            </dialog>
            """
    }
}

extension MuralsFavouriteForm {
    /// The star as a form that posts without JavaScript (murals/app.js sends it in place). The list's
    /// cells and the mural's page share it; the page's star also has an `id`.
    func form(csrf: HTML, id: String? = nil) -> HTML {
        """
        <form class="murals-star-form" method="post" action="\(action)" data-favourite="\(muralID)" data-page="\(page)">\(csrf)\
        <input type="hidden" name="favourite" value="\(newValue)"><input type="hidden" name="return" value="\(returnTo)">\
        <button class="murals-star" type="submit"\(attribute: "id", id) aria-label="\(label)" aria-pressed="\(if: isFavourite, "true", else: "false")">\
        <span class="murals-star__icon" aria-hidden="true"></span></button></form>
        """
    }
}
