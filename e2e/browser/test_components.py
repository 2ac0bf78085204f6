"""3. The style guide's components behave like their iOS counterparts."""

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.keys import Keys

from pocket_helpers import SCHEMES, VIEWPORTS, Checks

PHONE = VIEWPORTS["iphone-portrait"]
IPAD = VIEWPORTS["ipad"]

CHECKED_RADIO = "return document.querySelector(arguments[0] + ' input:checked')?.value ?? null"

# Which wheel row sits in the middle of the wheel, and what state it is in.
CENTRED_JS = """
const wheel = document.querySelectorAll('[data-wheel]')[arguments[0]];
const w = wheel.getBoundingClientRect(), mid = w.top + w.height / 2;
let best = null, dist = Infinity;
for (const item of wheel.querySelectorAll('.wheel__item')) {
  const r = item.getBoundingClientRect(), d = Math.abs(r.top + r.height / 2 - mid);
  if (d < dist) { best = item; dist = d; }
}
const input = best.querySelector('input');
return {value: input.value, label: best.textContent.trim(), checked: input.checked,
        selected: best.classList.contains('is-selected'), offset: dist,
        row: best.getBoundingClientRect().height};
"""


def scroll_into_view(page, css):
    page.js("document.querySelector(arguments[0]).scrollIntoView({block: 'center', behavior: 'instant'})", css)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_segmented_control(page, scheme):
    page.set_scheme(scheme)
    page.open("/design")
    seg = "[data-component=segmented] fieldset.segmented"
    scroll_into_view(page, seg)
    assert page.js(CHECKED_RADIO, seg) == "week"
    span_bg = "return getComputedStyle(document.querySelector(arguments[0])).backgroundColor"
    day_span = f"{seg} input[value=day] + span"
    week_span = f"{seg} input[value=week] + span"
    before_day = page.js(span_bg, day_span)

    page.find(f"{seg} label.segmented__item:has(input[value=day])").click()
    page.wait(f"document.querySelector('{seg} input[value=day]').checked", 10, "clicking Day did not select it")
    assert page.js(CHECKED_RADIO, seg) == "day", "only one segment may be selected"
    page.settle(seg)
    after_day, after_week = page.js(span_bg, day_span), page.js(span_bg, week_span)
    assert after_day != after_week, f"selected and unselected segments look the same ({after_day})"
    assert after_day != before_day, "the Day segment's background did not change when it was selected"


def test_switch(page):
    page.open("/design")
    sel = "[data-component=switch] input.switch[type=checkbox][role=switch]"
    scroll_into_view(page, sel)
    switch = page.find(sel)
    bg = "return getComputedStyle(document.querySelector(arguments[0])).backgroundColor"
    assert switch.is_selected(), "the demo switch starts on"
    on_colour = page.js(bg, sel)

    switch.click()
    page.wait(f"!document.querySelector({sel!r}).checked", 10, "clicking the switch did not turn it off")
    page.settle(sel)
    off_colour = page.js(bg, sel)
    assert off_colour != on_colour, f"the switch looks the same on and off ({on_colour})"

    page.js("document.querySelector(arguments[0]).focus()", sel)
    ActionChains(page.driver).send_keys(Keys.SPACE).perform()
    page.wait(f"document.querySelector({sel!r}).checked", 10, "Space did not toggle the switch back on")


def test_slider_keyboard_updates_output(page):
    page.open("/design")
    sel = "input.slider#volume[type=range]"
    scroll_into_view(page, sel)
    start = int(page.find(sel).get_attribute("value"))
    assert page.text("output[for=volume]") == f"{start}%"
    page.js("document.querySelector(arguments[0]).focus()", sel)
    ActionChains(page.driver).send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT).perform()
    page.wait(f"document.querySelector({sel!r}).valueAsNumber === {start + 2}", 10, "ArrowRight did not move the slider")
    page.wait(f"document.querySelector('output[for=volume]').textContent.trim() === '{start + 2}%'", 10,
              f"output did not follow the slider: {page.text('output[for=volume]')!r}")
    fill = page.js("return document.querySelector(arguments[0]).style.getPropertyValue('--fill')", sel)
    assert fill == f"{start + 2}%", f"--fill should track the value, got {fill!r}"


def test_stepper_steps_and_clamps(page):
    page.open("/design")
    field = "[data-stepper] input#copies[type=number]"
    scroll_into_view(page, field)
    plus = page.find("[data-stepper] button[data-step='1']")
    minus = page.find("[data-stepper] button[data-step='-1']")
    value = lambda: page.js("return document.querySelector(arguments[0]).value", field)  # noqa: E731
    assert value() == "3"
    plus.click()
    assert value() == "4", "+ should add one"
    minus.click()
    minus.click()
    assert value() == "2", "− should subtract one"
    for _ in range(10):
        plus.click()
    assert value() == "10", f"the stepper must stop at its max 10, shows {value()}"
    for _ in range(12):
        minus.click()
    assert value() == "0", f"the stepper must stop at its min 0, shows {value()}"


def test_wheel_picker(page):
    page.open("/design")
    scroll_into_view(page, "#demo-wheel .wheel-picker")
    c = Checks()
    # Initially the checked rows (hour 9, unit Megabytes) are scrolled to the centre and marked.
    page.wait(f"(() => {{ const r = (() => {{ {CENTRED_JS} }})(); return r.checked && r.offset < 2; }})()".replace(
        "arguments[0]", "0"), 10, "the checked hour is not centred in its wheel")
    hour = page.js(CENTRED_JS, 0)
    unit = page.js(CENTRED_JS, 1)
    c.equal(hour["value"], "9", "centred hour")
    c.that(hour["checked"] and hour["selected"], f"centred hour row should be checked and .is-selected: {hour}")
    c.equal(unit["value"], "megabytes", "centred unit")
    c.that(unit["checked"] and unit["offset"] < 2, f"Megabytes should be checked and centred: {unit}")
    c.done()

    # Scrolling the hour wheel by two rows selects 11 once scrolling ends.
    wheel = page.find("[data-wheel][aria-label=Hour]")
    row = hour["row"]
    page.js("""const w = arguments[0]; window.__scrollEnded = false;
               w.addEventListener('scrollend', () => { window.__scrollEnded = true; }, {once: true});""", wheel)
    ActionChains(page.driver).scroll_from_origin(ScrollOrigin.from_element(wheel), 0, int(round(2 * row))).perform()
    page.wait("window.__scrollEnded", 10, "the hour wheel never fired scrollend")
    page.wait("document.querySelector('[data-wheel][aria-label=Hour] input:checked')?.value === '11'", 10,
              f"after scrolling two rows the checked hour is "
              f"{page.js(CHECKED_RADIO, '[data-wheel][aria-label=Hour]')!r}, expected '11'")
    after = page.js(CENTRED_JS, 0)
    assert after["value"] == "11" and after["selected"], f"row 11 should be centred and .is-selected: {after}"
    assert page.js("return document.querySelectorAll('[data-wheel][aria-label=Hour] .is-selected').length") == 1

    # Keyboard: ArrowDown on the focused radio picks the next hour and centres it.
    page.js("document.querySelector('[data-wheel][aria-label=Hour] input:checked').focus()")
    ActionChains(page.driver).send_keys(Keys.ARROW_DOWN).perform()
    page.wait("document.querySelector('[data-wheel][aria-label=Hour] input:checked')?.value === '12'", 10,
              "ArrowDown did not select the next hour")
    page.wait(f"(() => {{ const r = (() => {{ {CENTRED_JS} }})(); return r.value === '12' && r.offset < 2; }})()".replace(
        "arguments[0]", "0"), 10, "the hour chosen with the keyboard was not scrolled to the centre")


def test_section_index_jumps(page):
    page.open("/design")
    scroll_into_view(page, "details.section-index")
    links = page.finds("nav.section-index__letters a")
    assert [a.get_attribute("href").rsplit("#", 1)[-1] for a in links] == [f"section-{chr(c)}" for c in range(65, 91)]
    assert not page.find("nav.section-index__letters").is_displayed(), "the letters show only once the index is opened"
    page.find("details.section-index > summary").click()
    q = page.find("nav.section-index__letters a[href='#section-Q']")
    page.wait("document.querySelector('details.section-index').open", 10, "the index did not open")
    page_y = page.js("return scrollY")
    q.click()
    page.wait("!document.querySelector('details.section-index').open", 10, "choosing a letter did not close the index")
    # The user must actually see the Q section: its header is inside the viewport and not covered by a bar.
    page.wait("""(() => { const h = document.querySelector('#section-Q .list-section__header') ?? document.querySelector('#section-Q');
        const r = h.getBoundingClientRect(); if (r.top < 0 || r.bottom > innerHeight) return false;
        const hit = document.elementFromPoint(r.left + Math.min(r.width / 2, 20), r.top + r.height / 2);
        return !!hit && document.querySelector('#section-Q').contains(hit); })()""", 10,
              f"#section-Q is not visible after clicking Q: its header is at "
              f"y={page.js('return document.querySelector(`#section-Q .list-section__header`).getBoundingClientRect().top'):.0f} "
              f"and covered by {page.js(_COVER_JS)!r}; the page itself scrolled from y={page_y:.0f} to "
              f"y={page.js('return scrollY'):.0f} (navbar bottom at "
              f"{page.js('return document.querySelector(`[data-screen] > header.navbar`).getBoundingClientRect().bottom'):.0f})")


_COVER_JS = """const h = document.querySelector('#section-Q .list-section__header') ?? document.querySelector('#section-Q');
const r = h.getBoundingClientRect(); const e = document.elementFromPoint(r.left + 10, r.top + r.height / 2);
return e ? e.localName + '.' + [...e.classList].join('.') : null;"""


def test_alert_dialog(page):
    page.open("/design")
    scroll_into_view(page, "#open-alert")
    page.find("#open-alert").click()
    page.wait("document.querySelector('#demo-alert').open", 10, "Show alert did not open the alert")
    assert page.js("return document.querySelector('#demo-alert').matches(':modal')"), "the alert must be modal"
    page.settle("#demo-alert")
    assert page.find("#demo-alert").is_displayed()
    ActionChains(page.driver).send_keys(Keys.ESCAPE).perform()
    page.wait("!document.querySelector('#demo-alert').open", 10, "Escape did not close the alert")
    page.wait("document.activeElement?.id === 'open-alert'", 10,
              f"focus should return to #open-alert, is on {page.js('return document.activeElement?.outerHTML.slice(0, 80)')}")


def test_action_sheet(page):
    page.open("/design")
    scroll_into_view(page, "#open-sheet")
    opener = page.find("#open-sheet")
    opener.click()
    page.wait("document.querySelector('#demo-sheet').open", 10, "Show action sheet did not open the sheet")
    assert page.js("return document.querySelector('#demo-sheet').matches(':modal')")
    page.settle("#demo-sheet")
    sheet = page.rect("#demo-sheet .action-sheet__group")
    vh = page.js("return innerHeight")
    assert sheet["top"] > vh / 4, f"the action sheet should rise from the bottom, its top is at {sheet['top']} of {vh}"
    page.find("#demo-sheet .action-sheet__button--cancel").click()
    page.wait("!document.querySelector('#demo-sheet').open", 10, "Cancel did not close the action sheet")

    # A tap on the dimmed backdrop above the sheet dismisses it too.
    opener.click()
    page.wait("document.querySelector('#demo-sheet').open", 10, "the sheet did not open a second time")
    page.settle("#demo-sheet")
    top = page.rect("#demo-sheet .action-sheet__group")["top"]
    x, y = int(page.js("return innerWidth") / 2), int(max(5, top / 2))
    actions = ActionBuilder(page.driver)
    actions.pointer_action.move_to_location(x, y).click()
    actions.perform()
    page.wait("!document.querySelector('#demo-sheet').open", 10, f"tapping the backdrop at ({x}, {y}) did not close the sheet")


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_toolbar_spacers(page, viewport):
    page.set_viewport(*VIEWPORTS[viewport], reload=False)
    page.open("/design")
    c = Checks()
    for bar in ("div.toolbar.toolbar--demo", "footer.toolbar#design-toolbar"):
        scroll_into_view(page, bar)
        boxes = page.js("""const bar = document.querySelector(arguments[0]); const b = bar.getBoundingClientRect();
            const kids = [...bar.children].filter(k => !k.classList.contains('toolbar__flex'));
            const box = (e) => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
            return {bar: box(bar), first: box(kids[0]), last: box(kids[kids.length - 1]), mid: box(kids[1]),
                    flex: [...bar.querySelectorAll(':scope > .toolbar__flex')].map(f => f.getBoundingClientRect().width)};""", bar)
        b, first, last, mid = boxes["bar"], boxes["first"], boxes["last"], boxes["mid"]
        c.that(first["left"] - b["left"] <= 32, f"{bar}: first item should sit at the left edge, {first['left'] - b['left']:.0f}px in")
        c.that(b["right"] - last["right"] <= 32, f"{bar}: last item should sit at the right edge, {b['right'] - last['right']:.0f}px in")
        c.that(first["right"] < mid["left"] and mid["right"] < last["left"], f"{bar}: items overlap or are out of order")
        c.that(len(boxes["flex"]) == 2 and all(w > 0 for w in boxes["flex"]), f"{bar}: flexible spaces take no room: {boxes['flex']}")
        centre = (mid["left"] + mid["right"]) / 2
        c.that(abs(centre - (b["left"] + b["right"]) / 2) < b["right"] - b["left"],
               f"{bar}: status text should sit between the spacers")
    c.done()


def test_split_view_ipad_side_by_side(page):
    page.set_viewport(*IPAD, reload=False)
    page.open("/design?planet=mars#split")
    c = Checks()
    c.that(page.exists("#split div.split.split--detail"), "the split container lacks split--detail with a planet chosen")
    primary, detail = page.find("#split .split__primary"), page.find("#split .split__detail")
    c.that(primary.is_displayed() and detail.is_displayed(), "at iPad width both panes must be shown")
    p, d = page.rect("#split .split__primary"), page.rect("#split .split__detail")
    c.that(p["right"] <= d["left"] + 0.5, f"primary ({p['left']:.0f}..{p['right']:.0f}) should be left of detail ({d['left']:.0f}..)")
    c.that(abs(p["top"] - d["top"]) < 40, f"panes should start at the same height: {p['top']:.0f} vs {d['top']:.0f}")
    c.that(p["width"] > 0 and d["width"] > 0 and d["right"] <= page.js("return innerWidth") + 0.5, "detail pane off screen")
    c.equal(page.text("#split .split__detail .split__title"), "Mars", "detail title")
    c.equal(page.js("return document.querySelector('#split a[aria-current=page]')?.textContent.includes('Mars')"), True,
            "Mars row marked aria-current")
    c.done()

    # Picking another planet swaps the screen in place.
    token = page.mark()
    page.find("#split .split__primary a[href*='planet=venus']").click()
    page.wait("document.querySelector('#split .split__title')?.textContent.trim() === 'Venus'", 10, "Venus did not show in the detail")
    assert page.marker() == token, "choosing a planet reloaded the page instead of swapping"
    assert page.find("#split .split__primary").is_displayed()


def test_split_view_phone_shows_detail_only(page):
    page.set_viewport(*PHONE, reload=False)
    page.open("/design?planet=mars#split")
    assert not page.find("#split .split__primary").is_displayed(), "on a phone the list hides when a planet is open"
    detail = page.find("#split .split__detail")
    assert detail.is_displayed() and page.text("#split .split__title") == "Mars"
    r = page.rect("#split .split__detail")
    assert r["left"] >= -0.5 and r["right"] <= PHONE[0] + 0.5
    # Without a planet, the phone shows the list instead.
    page.open("/design#split")
    assert page.find("#split .split__primary").is_displayed()
    assert not page.find("#split .split__detail").is_displayed()


def test_progress_views(page):
    page.open("/design")
    info = page.js("""const [a, b] = document.querySelectorAll('section[data-component=progress] progress.progress');
        return {value: a.value, max: a.max, position: a.position, ind: b.matches(':indeterminate'),
                shown: a.getBoundingClientRect().width > 0 && b.getBoundingClientRect().width > 0};""")
    assert info["value"] == 42 and info["max"] == 100, info
    assert abs(info["position"] - 0.42) < 1e-6, info
    assert info["ind"], "the second progress view should be indeterminate"
    assert info["shown"], "progress views are not rendered"
