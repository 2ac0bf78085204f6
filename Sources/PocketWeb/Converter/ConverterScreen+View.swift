extension ConverterScreen {
    /// The converter as one form: every control posts the whole screen, so it works without
    /// JavaScript and pocket.js only has to submit it. Field names come from `ConverterForm`,
    /// so the page and the form's reader cannot disagree.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        private typealias Field = ConverterForm.Field

        var actions: HTML {
            """
            \(unwrap: model.copyText, { copyText in """
            <button class="bar-button converter-copy" type="button" id="converter-copy" data-copy="\(copyText)" data-copied="\(model.copiedMessage)" aria-label="Copy the result, \(copyText)">Copy</button>
            """ })
            """
        }

        var body: HTML {
            """
            <form class="converter" id="converter" method="post" action="\(ConverterRoute.change.href())" data-autosubmit data-transition="none"\
            \(unwrap: model.offline, { offline in " data-module=\"\(offline.module)\" data-catalog=\"\(offline.catalog)\" data-state-url=\"\(offline.stateURL)\" data-owner=\"\(offline.owner)\" data-saved-at=\"\(offline.savedAt)\" data-state=\"\(offline.stateJSON)\"" })>
            \(Components.csrf(pageContext))
            <fieldset class="segmented converter__categories" id="converter-categories"><legend class="visually-hidden">Category</legend>
            \(each: model.categories, { Self.radio($0, name: Field.category, itemClass: "segmented__item") })
            <details class="segmented__more" id="converter-more" data-popover\(flag: "data-chosen", model.moreChosen)>
            <summary class="segmented__more-toggle" id="converter-more-toggle" aria-label="More categories\(if: model.moreChosen, ": \(model.moreLabel) chosen")"><span>\(model.moreLabel)</span></summary>
            <div class="segmented__menu" id="converter-more-menu">
            \(each: model.moreCategories, { Self.radio($0, name: Field.category, itemClass: "segmented__menu-item") })
            </div>
            </details>
            </fieldset>
            <p class="js-hidden converter__fallback"><button class="button button--tinted" type="submit" id="converter-apply">Convert</button></p>
            <div class="converter__body">
            <div class="converter__display">
            <div class="wheel-picker converter__wheels">
            <div class="wheel" data-wheel role="radiogroup" aria-label="From unit" tabindex="-1" id="converter-from-wheel">\(each: model.fromUnits, { Self.wheelRow($0, name: Field.from) })</div>
            <button class="converter__swap" type="submit" name="\(Field.swap)" value="1" id="converter-swap" data-key="s S" aria-label="Swap units" title="Swap units"><span aria-hidden="true">⇄</span></button>
            <div class="wheel" data-wheel role="radiogroup" aria-label="To unit" tabindex="-1" id="converter-to-wheel">\(each: model.toUnits, { Self.wheelRow($0, name: Field.to) })</div>
            </div>
            <div class="converter__values" id="converter-values">
            <p class="converter__value"><output class="converter__number converter__number--\(model.from.size)" id="converter-from">\(model.from.text)</output>\
            <span class="converter__symbol" id="converter-from-symbol" aria-hidden="true">\(model.from.symbol)</span><span class="visually-hidden"> \(model.from.unitName)</span></p>
            <p class="converter__relation" id="converter-relation"><span aria-hidden="true">\(model.relation)</span><span class="visually-hidden">\(model.relationSpoken)</span></p>
            <p class="converter__value"><output class="converter__number converter__number--\(model.to.size)" id="converter-to" aria-live="polite">\(model.to.text)</output>\
            <span class="converter__symbol" id="converter-to-symbol" aria-hidden="true">\(model.to.symbol)</span><span class="visually-hidden"> \(model.to.unitName)</span></p>
            </div>
            <p class="converter__message\(unwrap: model.message, { _ in " converter__message--\(model.messageKind)" })" id="converter-message" role="status">\(model.message ?? "")</p>
            \(if: model.showsConventions, conventions)
            </div>
            <div class="converter__keypad" role="group" aria-label="Keypad">
            \(each: model.keys, Self.key)
            </div>
            </div>
            </form>
            """
        }

        /// The data convention segments and what the chosen one means (Data only).
        private var conventions: HTML {
            """
            <div class="converter__convention">
            <fieldset class="segmented converter__conventions" id="converter-conventions" aria-describedby="converter-convention-caption"><legend class="visually-hidden">Data sizes</legend>
            \(each: model.conventions, { Self.radio($0, name: Field.convention, itemClass: "segmented__item") })
            </fieldset>
            <p class="converter__caption" id="converter-convention-caption">\(model.conventionCaption)</p>
            </div>
            """
        }

        /// A category or convention segment (or a row of the "More" menu).
        private static func radio(_ choice: Choice, name: String, itemClass: String) -> HTML {
            """
            <label class="\(itemClass)"><input type="radio" name="\(name)" value="\(choice.value)" id="\(choice.id)"\(flag: "checked", choice.checked)><span>\(choice.label)</span></label>
            """
        }

        /// A unit on one of the wheels.
        private static func wheelRow(_ choice: Choice, name: String) -> HTML {
            """
            <label class="wheel__item\(if: choice.isLong, " converter__long")"><input type="radio" name="\(name)" value="\(choice.value)"\(flag: "checked", choice.checked)><span>\(choice.label)</span></label>
            """
        }

        private static func key(_ key: Key) -> HTML {
            """
            <button class="converter__key converter__key--\(key.kind)\(if: key.wide, " converter__key--wide")" type="submit" name="\(Field.key)" value="\(key.value)" id="\(key.id)" \
            data-key="\(key.shortcuts)" aria-label="\(key.spoken)"\(unwrap: key.disabledReason, { " disabled title=\"\($0)\"" })>\(key.label)</button>
            """
        }
    }
}
