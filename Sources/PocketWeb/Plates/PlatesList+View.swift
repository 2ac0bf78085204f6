extension PlatesList {
    /// The list's markup, which the list page and (beside the state, on an iPad) every state's page
    /// show. It is the heaviest markup in Pocket (50 cells, each a form or a link with its alert),
    /// so it is written straight into one `HTML`, with the CSRF field built once.
    struct Fragment: FragmentView {
        let model: Model
        let pageContext: PageContext

        var html: HTML {
            let csrf = Components.csrf(pageContext)
            let sections = model.sections
            return """
            \(if: model.complete, """
            <p class="plates-celebration" role="status"><span class="plates-celebration__confetti" aria-hidden="true"></span>All \(model.total) states! What a trip.</p>
            """)
            <section class="list-section" aria-label="Game">
            <ul class="list" role="list">
            <li class="cell"><a class="cell__main" href="\(model.mapHref)"><span class="cell__text"><span class="cell__title">Map</span></span><span class="cell__detail" data-score-text="\(model.mapDetail.pattern)">\(model.mapDetail.text)</span><span class="cell__chevron" aria-hidden="true"></span></a></li>
            <li class="cell"><a class="cell__main" href="\(model.tripsHref)"><span class="cell__text"><span class="cell__title">Trips</span></span><span class="cell__detail" data-finished-text="\(model.tripsDetail.pattern)">\(model.tripsDetail.text)</span><span class="cell__chevron" aria-hidden="true"></span></a></li>
            </ul>
            \(PlatesList.settings(model, csrf: csrf))
            </section>
            <div class="indexed">
            <div class="indexed__sections" data-keep-focus>
            \(each: sections, { PlatesList.section($0, model: model, csrf: csrf) })\
            </div>
            <details class="section-index" data-popover><summary class="section-index__toggle" aria-label="Section index: jump to a letter">A–Z</summary>\
            <nav class="section-index__letters" aria-label="Section index">\(each: sections, { "<a href=\"#\($0.anchor)\">\($0.letter)</a>" })</nav></details>
            </div>
            \(each: sections, { PlatesList.alerts($0, pageContext: pageContext) })\
            \(Components.alertDialog(model.resetGame, pageContext: pageContext))
            \(PlatesList.templates(model, pageContext: pageContext, csrf: csrf))
            """
        }
    }

    /// What plates/app.js adds when a state is spotted or un-spotted on the phone, once per page
    /// rather than once per state: a cell's two controls and the un-spot alert, rendered by the
    /// same functions as the server's own cells with nothing of a state in them. The script
    /// fills a copy from the cell's data attributes (`cell(_:…)`).
    private static func templates(_ model: Model, pageContext: PageContext, csrf: HTML) -> HTML {
        """
        <template id="plates-cell-white">\(spotForm(.template, model: model, csrf: csrf))</template>
        <template id="plates-cell-spotted">\(unspotLink(.template))</template>
        <template id="plates-unspot-alert">\(Components.alertDialog(model.unspotAlert, pageContext: pageContext))</template>
        """
    }

    /// The sounds and location switches: a real form (pocket.js submits it on change).
    private static func settings(_ model: Model, csrf: HTML) -> HTML {
        """
        <form class="list" method="post" action="\(model.settingsAction)" data-autosubmit>
        \(csrf)
        <input type="hidden" name="return" value="\(model.returnTo)">
        <div class="cell"><label class="cell__main"><span class="cell__text"><span class="cell__title">Sounds</span></span>\
        <input class="switch" type="checkbox" role="switch" name="sounds" id="plates-sounds"\(flag: "checked", model.soundsOn)></label></div>
        <div class="cell"><label class="cell__main"><span class="cell__text"><span class="cell__title">Record where</span><span class="cell__subtitle">Save your location with each plate</span></span>\
        <input class="switch" type="checkbox" role="switch" name="location" id="plates-location"\(flag: "checked", model.recordsLocation)></label></div>
        <div class="cell js-hidden"><div class="cell__main"><button class="button button--tinted" type="submit">Save Settings</button></div></div>
        </form>
        """
    }

    private static func section(_ section: Model.Section, model: Model, csrf: HTML) -> HTML {
        """
        <section class="list-section list-section--compact" id="\(section.anchor)" aria-labelledby="\(section.anchor)-h">
        <h2 class="list-section__header" id="\(section.anchor)-h">\(section.letter)</h2>
        <ul class="list" role="list">
        \(each: section.cells, { cell($0, model: model, csrf: csrf) })\
        </ul>
        </section>

        """
    }

    /// A state: a form that spots it, or (spotted) a link to its un-spot alert; and its info button.
    /// The cell carries what plates/app.js needs to show it the other way from the list's templates:
    /// its addresses, name, nickname, the labels of both controls and its alert's id.
    private static func cell(_ cell: Model.Cell, model: Model, csrf: HTML) -> HTML {
        """
        <li class="cell\(if: cell.spotted, " cell--bg-green cell--spotted")\(if: cell.isSelected, " plates-cell--selected")" id="\(cell.anchor)" data-state="\(cell.code)"\
         data-name="\(cell.name)" data-nickname="\(cell.nickname)" data-spot="\(cell.spotAction)" data-unspot="\(cell.unspotHref)"\
         data-label-white="\(cell.labelWhite)" data-label-spotted="\(cell.labelSpotted)"\
         data-alert="\(cell.unspot.id)"\
        \(attribute: "aria-current", cell.isSelected ? "true" : nil)>
        \(if: cell.spotted, unspotLink(cell), else: spotForm(cell, model: model, csrf: csrf))
        <a class="cell__info" href="\(cell.infoHref)" aria-label="\(cell.infoLabel)"><span class="symbol symbol--info" aria-hidden="true"></span></a>
        </li>

        """
    }

    private static func spotForm(_ cell: Model.Cell, model: Model, csrf: HTML) -> HTML {
        """
        <form class="cell__form" method="post" action="\(cell.spotAction)"\(flag: "data-geolocate", model.recordsLocation)>\(csrf)\
        <button class="cell__main" type="submit"\(attribute: "data-sound", model.spotSound) aria-label="\(cell.labelWhite)">\
        <span class="cell__text"><span class="cell__title">\(cell.name)</span><span class="cell__subtitle">\(cell.nickname)</span></span></button></form>
        """
    }

    private static func unspotLink(_ cell: Model.Cell) -> HTML {
        """
        <a class="cell__main" href="\(cell.unspotHref)" data-dialog="\(cell.unspot.id)" aria-label="\(cell.labelSpotted)">\
        <span class="cell__text"><span class="cell__title">\(cell.name)</span><span class="cell__subtitle">\(cell.nickname)</span></span>\
        <span class="cell__badge" aria-hidden="true"></span></a>
        """
    }

    /// The un-spot alerts of a section's spotted states, after the list so they sit outside its forms.
    private static func alerts(_ section: Model.Section, pageContext: PageContext) -> HTML {
        "\(each: section.cells, { "\(unwrap: $0.confirmation, { Components.alertDialog($0, pageContext: pageContext) })" })"
    }
}
