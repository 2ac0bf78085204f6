extension Design {
    /// The living style guide: every component of the design system with sample data.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var actions: HTML { "<a class=\"bar-button\" href=\"/\" aria-label=\"Home\">Done</a>" }

        var body: HTML {
            """
            <p class="content__intro">Every component of Pocket’s design system, modelled on the iOS Human Interface Guidelines. Apps build their screens from these pieces.</p>

            <section class="demo list-section" id="demo-navbar" data-component="navbar" aria-labelledby="h-navbar">
            <h2 class="list-section__header" id="h-navbar">Navigation bar</h2>
            <div class="demo__frame">
            <div class="navbar navbar--demo">
            <div class="navbar__bar">
            <div class="navbar__leading"><a class="navbar__back" href="/" data-nav="back"><span class="navbar__chevron" aria-hidden="true"></span><span class="navbar__back-label">Conferences</span></a></div>
            <span class="navbar__inline-title">April 2025</span>
            <div class="navbar__actions"><a class="bar-button" href="#demo-navbar">Edit</a><button type="button" class="bar-button bar-button--icon" aria-label="Add"><span class="symbol symbol--plus" aria-hidden="true"></span></button></div>
            </div>
            </div>
            <p class="demo__caption">Title, back button labelled with the previous title, right bar buttons. The large title of this page is the other style.</p>
            </div>
            </section>

            <section class="demo list-section" id="demo-list" data-component="list" aria-labelledby="h-list">
            <h2 class="list-section__header" id="h-list">Inset grouped list</h2>
            <ul class="list" role="list">
            <li class="cell"><a class="cell__main" href="#demo-list"><span class="cell__text"><span class="cell__title">Title only</span></span><span class="cell__chevron" aria-hidden="true"></span></a></li>
            <li class="cell"><a class="cell__main" href="#demo-list"><span class="cell__text"><span class="cell__title">Title and subtitle</span><span class="cell__subtitle">Subtitle in the secondary label colour</span></span><span class="cell__chevron" aria-hidden="true"></span></a></li>
            <li class="cell"><a class="cell__main" href="#demo-list"><span class="cell__text"><span class="cell__title">Right detail</span></span><span class="cell__detail">42 talks</span><span class="cell__chevron" aria-hidden="true"></span></a></li>
            <li class="cell"><a class="cell__main" href="#demo-list"><img class="cell__thumb" src="/static/icons/pocket.svg" alt="" width="40" height="40"><span class="cell__text"><span class="cell__title">Thumbnail</span><span class="cell__subtitle">An image at the leading edge</span></span><span class="cell__chevron" aria-hidden="true"></span></a></li>
            <li class="cell"><div class="cell__main"><span class="cell__text"><span class="cell__title">Detail disclosure</span><span class="cell__subtitle">The info button is its own target</span></span></div><a class="cell__info" href="#demo-list" aria-label="More about detail disclosure"><span class="symbol symbol--info" aria-hidden="true"></span></a></li>
            <li class="cell cell--bg-green"><div class="cell__main"><span class="cell__text"><span class="cell__title">Custom background</span><span class="cell__subtitle">For marked rows, e.g. a spotted plate</span></span><span class="cell__detail">Spotted</span></div></li>
            <li class="cell cell--bg-accent"><div class="cell__main"><span class="cell__text"><span class="cell__title">Accent background</span></span></div></li>
            <li class="cell"><div class="cell__main"><span class="cell__text"><span class="cell__title cell__title--destructive">Destructive action</span></span></div></li>
            </ul>
            <p class="list-section__footer">Section footers explain the section in the secondary label colour.</p>
            </section>

            <section class="demo list-section" id="demo-section-index" data-component="section-index" aria-labelledby="h-index">
            <h2 class="list-section__header" id="h-index">Section index</h2>
            <div class="demo__scroller" tabindex="0" aria-label="Alphabet list">
            <div class="indexed">
            <div class="indexed__sections">
            \(each: model.letters, letterSection)</div>
            <details class="section-index" data-popover><summary class="section-index__toggle" aria-label="Section index: jump to a letter">A–Z</summary><nav class="section-index__letters" aria-label="Section index">\(each: model.letters, { "<a href=\"#\($0.anchor)\">\($0.letter)</a>" })</nav></details>
            </div>
            </div>
            </section>

            <section class="demo list-section" id="demo-controls" data-component="controls" aria-labelledby="h-controls">
            <h2 class="list-section__header" id="h-controls">Controls</h2>
            <form class="list" action="/design" method="get" data-no-swap>
            <div class="cell" id="demo-segmented" data-component="segmented"><div class="cell__main cell__main--stack">
            <fieldset class="segmented"><legend class="visually-hidden">Range</legend>
            \(each: model.segments, { option($0, name: "range", itemClass: "segmented__item") })
            </fieldset>
            </div></div>
            <div class="cell" id="demo-switch" data-component="switch"><label class="cell__main"><span class="cell__text"><span class="cell__title">Switch</span></span><input class="switch" type="checkbox" role="switch" name="notify" checked></label></div>
            <div class="cell" id="demo-slider" data-component="slider"><div class="cell__main">
            <label class="cell__title" for="volume">Slider</label>
            <input class="slider" id="volume" type="range" name="volume" min="0" max="100" value="60">
            <output class="cell__detail" for="volume" data-unit="%">60%</output>
            </div></div>
            <div class="cell" id="demo-stepper" data-component="stepper"><div class="cell__main">
            <label class="cell__text cell__title" for="copies">Stepper</label>
            <div class="stepper" data-stepper><button type="button" class="stepper__button" data-step="-1" aria-label="Decrease"><span aria-hidden="true">−</span></button><input class="stepper__value" id="copies" type="number" name="copies" min="0" max="10" value="3" inputmode="numeric"><button type="button" class="stepper__button" data-step="1" aria-label="Increase"><span aria-hidden="true">+</span></button></div>
            </div></div>
            </form>
            </section>

            <section class="demo list-section" id="demo-wheel" data-component="wheel" aria-labelledby="h-wheel">
            <h2 class="list-section__header" id="h-wheel">Wheel picker</h2>
            <div class="list">
            <div class="wheel-picker">
            <div class="wheel" data-wheel role="radiogroup" aria-label="Hour" tabindex="-1">\(each: model.wheelHours, { option($0, name: "hour", itemClass: "wheel__item") })</div>
            <div class="wheel wheel--wide" data-wheel role="radiogroup" aria-label="Unit" tabindex="-1">\(each: model.wheelUnits, { option($0, name: "unit", itemClass: "wheel__item") })</div>
            </div>
            </div>
            <p class="list-section__footer">Scroll or use the arrow keys; the centred row is chosen.</p>
            </section>

            <section class="demo list-section" id="demo-progress" data-component="progress" aria-labelledby="h-progress">
            <h2 class="list-section__header" id="h-progress">Progress view</h2>
            <div class="list"><div class="cell"><div class="cell__main cell__main--stack">
            <label class="cell__subtitle" for="demo-progress-bar">Downloading… \(model.progressPercent)%</label>
            <progress class="progress" id="demo-progress-bar" max="100" value="\(model.progressPercent)">\(model.progressPercent)%</progress>
            <progress class="progress" max="100" aria-label="Waiting">Waiting</progress>
            </div></div></div>
            </section>

            <section class="demo list-section" id="demo-buttons" data-component="buttons" aria-labelledby="h-buttons">
            <h2 class="list-section__header" id="h-buttons">Buttons, alert and action sheet</h2>
            <div class="list"><div class="cell"><div class="cell__main cell__main--wrap">
            <button type="button" class="button" commandfor="demo-alert" command="show-modal" id="open-alert">Show alert</button>
            <button type="button" class="button button--tinted" commandfor="demo-sheet" command="show-modal" id="open-sheet">Show action sheet</button>
            <button type="button" class="button button--plain">Plain</button>
            <button type="button" class="button button--destructive">Delete</button>
            </div></div></div>
            <dialog class="alert" id="demo-alert" aria-labelledby="demo-alert-title" aria-describedby="demo-alert-message" data-component="alert">
            <h2 class="alert__title" id="demo-alert-title">Download the full database?</h2>
            <p class="alert__message" id="demo-alert-message">It is 48 MB. The sample data keeps working until it has been checked.</p>
            <div class="alert__actions">
            <button type="button" class="alert__button alert__button--cancel" commandfor="demo-alert" command="close">Cancel</button>
            <button type="button" class="alert__button" commandfor="demo-alert" command="close">Download</button>
            </div>
            </dialog>
            <dialog class="action-sheet" id="demo-sheet" aria-labelledby="demo-sheet-title" data-component="action-sheet">
            <div class="action-sheet__group">
            <p class="action-sheet__title" id="demo-sheet-title">Power</p>
            <p class="action-sheet__message">Turn off the TV or the DVR.</p>
            <button type="button" class="action-sheet__button" commandfor="demo-sheet" command="close">Turn Off TV</button>
            <button type="button" class="action-sheet__button action-sheet__button--destructive" commandfor="demo-sheet" command="close">Erase Recording</button>
            </div>
            <div class="action-sheet__group"><button type="button" class="action-sheet__button action-sheet__button--cancel" commandfor="demo-sheet" command="close">Cancel</button></div>
            </dialog>
            </section>

            <section class="demo list-section" id="demo-live" data-component="live" aria-labelledby="h-live">
            <h2 class="list-section__header" id="h-live">Live updates</h2>
            <div class="list" data-sse="/design/events"><div class="cell"><div class="cell__main"><span class="cell__text"><span class="cell__title">Server time</span></span>\(Design.clock(time: nil))</div></div></div>
            <p class="list-section__footer">Pushed by the server once a second over Server-Sent Events.</p>
            </section>

            <section class="demo list-section" id="demo-form" data-component="form" aria-labelledby="h-form">
            <h2 class="list-section__header" id="h-form">Fields and forms</h2>
            <form class="list" role="search" action="/design#demo-form" method="get">
            <div class="cell"><div class="cell__main">
            <label class="visually-hidden" for="design-search">Search</label>
            <input class="search-field" id="design-search" type="search" name="q" value="\(model.query)" placeholder="Search" autocomplete="off">
            <button class="button button--tinted" type="submit">Search</button>
            </div></div>
            \(if: model.hasQuery, "<div class=\"cell\"><div class=\"cell__main\"><span class=\"cell__text\"><span class=\"cell__subtitle\">You searched for</span><span class=\"cell__title\" id=\"design-query-echo\">\(model.query)</span></span></div></div>")
            </form>
            <form class="list" action="/design#demo-form" method="post">
            \(Components.csrf(pageContext))
            <div class="cell"><div class="cell__main">
            <label class="cell__title" for="design-message">Message</label>
            <input class="text-field" id="design-message" type="text" name="message" maxlength="200" placeholder="Say something" required>
            <button class="button" type="submit">Send</button>
            </div></div>
            \(unwrap: model.posted, { "<div class=\"cell cell--bg-accent\"><div class=\"cell__main\"><span class=\"cell__text\"><span class=\"cell__subtitle\">The server received</span><span class=\"cell__title\" id=\"design-post-echo\">\($0)</span></span></div></div>" })
            </form>
            <p class="list-section__footer">Text from outside is always escaped. Posting changes nothing; it shows a CSRF-protected round trip.</p>
            </section>

            <section class="demo list-section" id="split" data-component="split" aria-labelledby="h-split">
            <h2 class="list-section__header" id="h-split">Split view</h2>
            <div class="split split--demo\(if: model.selectedDetail != nil, " split--detail")">
            <div class="split__primary">
            <ul class="list" role="list">
            \(each: model.details, detailCell)
            </ul>
            </div>
            <div class="split__detail">
            \(unwrap: model.selectedDetail, { detail in """
            <div class="split__detail-body"><a class="split__back bar-button" href="/design#split" data-nav="back"><span class="navbar__chevron" aria-hidden="true"></span>Planets</a><h3 class="split__title">\(detail.title)</h3><p>\(detail.subtitle).</p></div>
            """ }, else: "<p class=\"split__placeholder\">Select a planet</p>")
            </div>
            </div>
            <p class="list-section__footer">At 768 px and wider the list stays on the left and the detail shows on the right; narrower, the detail replaces the list.</p>
            </section>

            <section class="demo list-section" id="demo-toolbar" data-component="toolbar" aria-labelledby="h-toolbar">
            <h2 class="list-section__header" id="h-toolbar">Toolbar</h2>
            <div class="toolbar toolbar--demo" role="toolbar" aria-label="Demo toolbar">
            <button type="button" class="bar-button">Edit</button>
            <span class="toolbar__flex"></span>
            <span class="toolbar__status">Updated just now</span>
            <span class="toolbar__flex"></span>
            <button type="button" class="bar-button bar-button--icon" aria-label="Share"><span class="symbol symbol--share" aria-hidden="true"></span></button>
            </div>
            <p class="list-section__footer">Flexible spaces push items apart, as in UIKit.</p>
            </section>
            """
        }

        var toolbar: HTML {
            """
            <footer class="toolbar" id="design-toolbar">
            <a class="bar-button" href="#main">Top</a>
            <span class="toolbar__flex"></span>
            <span class="toolbar__status">Pocket \(pageContext.version)</span>
            <span class="toolbar__flex"></span>
            <a class="bar-button" href="/">Home</a>
            </footer>
            """
        }

        private func letterSection(_ letter: Model.Letter) -> HTML {
            """
            <div class="list-section list-section--compact" id="\(letter.anchor)">
            <h3 class="list-section__header">\(letter.letter)</h3>
            <ul class="list" role="list">\(each: letter.words, { "<li class=\"cell\"><div class=\"cell__main\"><span class=\"cell__text\"><span class=\"cell__title\">\($0)</span></span></div></li>" })</ul>
            </div>

            """
        }

        private func option(_ option: Model.Option, name: String, itemClass: String) -> HTML {
            "<label class=\"\(itemClass)\"><input type=\"radio\" name=\"\(name)\" value=\"\(option.value)\"\(flag: "checked", option.checked)><span>\(option.label)</span></label>"
        }

        private func detailCell(_ detail: Model.Detail) -> HTML {
            """
            <li class="cell\(if: detail.selected, " cell--selected")"><a class="cell__main" href="\(detail.href)"\(if: detail.selected, " aria-current=\"page\"")>\
            <span class="cell__text"><span class="cell__title">\(detail.title)</span><span class="cell__subtitle">\(detail.subtitle)</span></span><span class="cell__chevron" aria-hidden="true"></span></a></li>
            """
        }
    }

    /// The server time of the live-updates demo ("—" until the first event), also sent alone as
    /// the event stream's patch.
    static func clock(time: String?) -> HTML {
        "<output class=\"cell__detail\" id=\"design-clock\" aria-live=\"off\">\(time ?? "—")</output>"
    }
}
