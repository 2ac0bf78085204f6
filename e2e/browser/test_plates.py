"""Plates, the license plate game: the US States list, spotting and un-spotting, Reset Game, the state
pages with their plate pictures, the section index, the map, trips, sounds and the pastel's contrast.

The game is server-side and shared by every browser (and by every test of the session), so each test
starts from a known game through the `game` fixture: Reset Game and the default settings (sounds on,
no location) over raw HTTP. Setup that is not under test (spotting a few states first) also goes over
HTTP, which is fast; everything under test goes through the browser.
"""

import itertools
import re

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.keys import Keys

from pocket_helpers import (CONTRAST_JS, PLATE_PICTURES_MISSING, SCHEMES, VIEWPORTS, Checks, format_contrast_failures,
                            SESSION_COOKIE, SESSIONS, http_request, load_states)
from test_accessibility import A11Y_JS  # the same checks the shell pages get

STATES = load_states()
BY_CODE = {s.code: s for s in STATES}
TOTAL = len(STATES)
# Where the layout matters, tests run on a phone and on an iPad.
PHONE_AND_IPAD = ["iphone-portrait", "ipad"]

SCORE = "#plates-score"


def score_text(n: int) -> str:
    return f"Score: {n} / {TOTAL}"


# --------------------------------------------------------------------------- the game over HTTP


class PlatesGame:
    """The owner's game over raw HTTP, as another of the owner's devices (or the browser's own) would play it."""

    def __init__(self, base_url: str, cookie: str | None = None, token: str | None = None):
        self.base_url = base_url
        if cookie is None or token is None:
            res = http_request(self.url("/plates"))
            assert res.status == 200, f"GET /plates answered {res.status}"
            cookie = SESSIONS[base_url]
            token = _csrf_token(res.text)
        self.cookie, self.token = cookie, token

    @classmethod
    def from_page(cls, page) -> "PlatesGame":
        """The browser's own session: its session cookie and the token the page carries."""
        cookie = page.driver.get_cookie(SESSION_COOKIE)
        assert cookie and cookie.get("value"), "the browser is not signed in"
        token = page.js("return document.querySelector('meta[name=csrf-token]')?.content ?? null")
        assert token, "the page has no csrf-token meta tag"
        return cls(page.base_url, cookie["value"], token)

    def url(self, path: str) -> str:
        return self.base_url + path

    def post(self, path: str, data: dict | None = None):
        res = http_request(self.url(path), "POST", {**(data or {}), "_csrf": self.token},
                           {"Cookie": f"{SESSION_COOKIE}={self.cookie}"}, follow_redirects=False)
        assert res.status == 303, f"POST {path} answered {res.status}, expected 303 See Other"
        return res

    def spot(self, *codes: str):
        for code in codes:
            self.post(f"/plates/states/{code}/spot")

    def reset(self):
        self.post("/plates/reset")

    def settings(self, sounds: bool = True, location: bool = False):
        data = {"return": "/plates"}
        if sounds:
            data["sounds"] = "on"
        if location:
            data["location"] = "on"
        self.post("/plates/settings", data)

    def list_html(self) -> str:
        res = http_request(self.url("/plates"))
        assert res.status == 200
        return res.text

    def spotted(self) -> set[str]:
        """What the server says is spotted (the list's cells with cell--spotted)."""
        return set(re.findall(r'<li class="cell[^"]*\bcell--spotted\b[^"]*" id="state-[A-Z]{2}" data-state="([A-Z]{2})"',
                              self.list_html()))


def _csrf_token(html: str) -> str:
    m = re.search(r'<meta name="csrf-token" content="([^"]+)"', html)
    assert m, "page without a csrf-token meta tag"
    return m.group(1)


@pytest.fixture
def game(server):
    """A fresh game: nothing spotted on the current trip, sounds on, location off."""
    g = PlatesGame(server.base_url)
    g.reset()
    g.settings(sounds=True, location=False)
    assert g.spotted() == set(), "Reset Game over HTTP left states spotted"
    return g


# --------------------------------------------------------------------------- page helpers

# The colour painted behind an element: the first non-transparent background from the element up. Cells are
# measured on their <li> (the row's own colour), not on .cell__main, which a hover or press tints.
BG_JS = """
const start = typeof arguments[0] === 'string' ? document.querySelector(arguments[0]) : arguments[0];
for (let n = start; n; n = n.parentElement) {
  const c = getComputedStyle(n).backgroundColor;
  if (c && c !== 'transparent' && !/^rgba\\([^)]*,\\s*0\\)$/.test(c)) return c;
}
return null;
"""

SECTIONS_JS = """
return [...document.querySelectorAll('[data-screen] div.indexed section.list-section')].map(sec => ({
  id: sec.id,
  header: sec.querySelector(':scope > h2.list-section__header')?.textContent.trim() ?? null,
  cells: [...sec.querySelectorAll(':scope > ul.list > li')].map(li => ({
    id: li.id, state: li.dataset.state ?? null, isCell: li.classList.contains('cell'),
    spotted: li.classList.contains('cell--spotted'),
    title: li.querySelector('.cell__title')?.textContent.trim() ?? null,
    subtitle: li.querySelector('.cell__subtitle')?.textContent.trim() ?? null,
    info: [...li.querySelectorAll('a.cell__info')].map(a => {
      const r = a.getBoundingClientRect();
      return {href: a.getAttribute('href'), label: a.getAttribute('aria-label'), w: r.width, h: r.height,
              inside: r.left >= -0.5 && r.right <= innerWidth + 0.5};
    }),
    spotForm: li.querySelector('form.cell__form')?.getAttribute('action') ?? null,
  })),
}));
"""

SPOTTED_JS = "return [...document.querySelectorAll('[data-screen] li.cell--spotted')].map(li => li.dataset.state)"


def spotted_in_dom(page) -> set[str]:
    return set(page.js(SPOTTED_JS))


def cell_bg(page, code: str) -> str | None:
    return page.js(BG_JS, f"#state-{code}")


def is_transparent(colour: str | None) -> bool:
    return colour is None or colour == "transparent" or bool(re.fullmatch(r"rgba\([^)]*,\s*0\)", colour))


def rest_pointer(page):
    """Move the mouse off the list (to the navbar's corner), so no cell is measured in its :hover tint."""
    actions = ActionBuilder(page.driver)
    actions.pointer_action.move_to_location(1, 1)
    actions.perform()


def centre(page, css: str):
    page.js("document.querySelector(arguments[0]).scrollIntoView({block: 'center', behavior: 'instant'})", css)


def wait_score(page, n: int, timeout: float = 15):
    page.wait(f"document.querySelector('{SCORE}')?.textContent.trim() === {score_text(n)!r}", timeout,
              f"the toolbar should read {score_text(n)!r}, reads {page.text(SCORE)!r}")


def wait_list(page, timeout: float = 15):
    page.wait("document.querySelector('[data-screen] h1.navbar__title')?.textContent.trim() === 'US States'"
              " && document.querySelectorAll('[data-screen] li.cell[data-state]').length > 0", timeout,
              f"the US States list did not show (title {page.h1()!r}, path {page.path()!r})")


def wait_dialog(page, dialog_id: str, is_open: bool = True):
    page.wait(f"!!document.getElementById({dialog_id!r})?.open === {str(is_open).lower()}", 10,
              f"dialog #{dialog_id} should be {'open' if is_open else 'closed'}")
    page.settle(f"#{dialog_id}")


def dialog_parts(page, dialog_id: str) -> dict:
    return page.js("""const d = document.getElementById(arguments[0]);
        return {modal: d.matches(':modal'), title: d.querySelector('.alert__title')?.textContent.trim(),
                cancel: d.querySelector('.alert__button--cancel')?.textContent.trim(),
                confirm: d.querySelector('button[type=submit]')?.textContent.trim()};""", dialog_id)


# --------------------------------------------------------------------------- 1. the list


@pytest.mark.parametrize("viewport", PHONE_AND_IPAD)
def test_sections_match_states_json(page, game, viewport):
    page.set_viewport(*VIEWPORTS[viewport], reload=False)
    page.open("/plates")
    c = Checks()
    c.equal(page.h1(), "US States", "navbar title")
    c.equal(page.text("[data-screen] a.navbar__back .navbar__back-label"), "Pocket", "back link label")
    c.equal(page.js("return document.querySelector('[data-screen] a.navbar__back')?.getAttribute('href')"), "/",
            "back link target")

    expected = [(letter, list(group)) for letter, group in itertools.groupby(STATES, key=lambda s: s.letter)]
    sections = page.js(SECTIONS_JS)
    c.equal([s["header"] for s in sections], [letter for letter, _ in expected], "section headers (letters)")
    c.equal([s["id"] for s in sections], [f"section-{letter}" for letter, _ in expected], "section ids")
    by_header = {s["header"]: s for s in sections}
    for letter, states in expected:
        sec = by_header.get(letter)
        if not c.that(sec is not None, f"no section for {letter}"):
            continue
        cells = sec["cells"]
        c.equal([x["title"] for x in cells], [s.name for s in states], f"section {letter}: titles in order")
        c.equal([x["subtitle"] for x in cells], [s.nickname for s in states], f"section {letter}: nicknames")
        c.equal([x["state"] for x in cells], [s.code for s in states], f"section {letter}: data-state codes")
        c.equal([x["id"] for x in cells], [f"state-{s.code}" for s in states], f"section {letter}: cell ids")
        for x, s in zip(cells, states):
            c.that(x["isCell"], f"{s.name}: <li> is not a .cell")
            info = x["info"]
            if c.that(len(info) == 1, f"{s.name}: expected one info accessory (a.cell__info), found {len(info)}"):
                c.equal(info[0]["href"], f"/plates/states/{s.code}", f"{s.name}: info accessory link")
                c.that(info[0]["w"] > 0 and info[0]["h"] > 0 and info[0]["inside"],
                       f"{s.name}: info accessory not visible inside the viewport ({info[0]})")
                c.that(info[0]["label"], f"{s.name}: info accessory has no accessible name")
            c.equal(x["spotForm"], f"/plates/states/{s.code}/spot", f"{s.name}: white cell's spot form")
    all_cells = [x for s in sections for x in s["cells"]]
    c.equal(len(all_cells), TOTAL, "number of state cells")
    c.equal(TOTAL, 50, "states in states.json")

    # A fresh game: every cell white (the same background as an ordinary, non-game cell), score 0.
    c.equal([x["state"] for x in all_cells if x["spotted"]], [], "spotted cells in a fresh game")
    reference = page.js(BG_JS, "section[aria-label=Game] li.cell")
    c.that(not is_transparent(reference), f"the Map cell has no painted background ({reference})")
    backgrounds = {s.code: cell_bg(page, s.code) for s in STATES}
    odd = {code: bg for code, bg in backgrounds.items() if bg != reference}
    c.that(not odd, f"cells not white like the other cells ({reference}): {odd}")
    c.equal(page.text(SCORE), score_text(0), "toolbar score")
    c.equal(page.text("section[aria-label=Game] a[href='/plates/map'] .cell__detail"), f"0 of {TOTAL}", "Map cell detail")
    c.that(page.exists("footer.toolbar#plates-toolbar a#plates-reset"), "no Reset Game button in the toolbar")
    c.equal(page.text("#plates-reset"), "Reset Game", "Reset Game button text")

    index = page.js("return [...document.querySelectorAll('nav.section-index__letters a')].map(a => [a.getAttribute('href'), a.textContent.trim()])")
    c.equal(index, [[f"#section-{letter}", letter] for letter, _ in expected], "section index links")
    ok, msg = page.no_horizontal_overflow()
    c.that(ok, msg)
    c.done()


# --------------------------------------------------------------------------- 2. spotting


@pytest.mark.parametrize("viewport", PHONE_AND_IPAD)
def test_tap_spots_state_in_place(page, game, viewport):
    page.set_viewport(*VIEWPORTS[viewport], reload=False)
    page.open("/plates")
    white = cell_bg(page, "TX")
    centre(page, "#state-TX")
    token = page.mark()
    # On a phone the page scrolls; on an iPad the list scrolls in its own pane beside the state's plate.
    scrolled = "return Math.max(scrollY, document.querySelector('#plates-list').scrollTop)"
    y0, top0 = page.js(scrolled), page.rect("#state-TX")["top"]
    assert y0 > 100, f"Texas should be far down the list (scrolled {y0} after scrolling it into view)"

    page.click("#state-TX button.cell__main")
    page.wait("document.querySelector('#state-TX')?.classList.contains('cell--spotted')", 10,
              "tapping Texas did not mark its cell spotted")
    wait_score(page, 1)
    page.settle("#state-TX")
    c = Checks()
    c.equal(page.marker(), token, "marker (a tap must swap the screen in place, not reload the page)")
    y1, top1 = page.js(scrolled), page.rect("#state-TX")["top"]
    c.that(abs(y1 - y0) <= 3, f"the page scrolled from y={y0} to y={y1} when Texas was tapped")
    c.that(abs(top1 - top0) <= 3, f"the Texas cell moved on screen from {top0:.0f} to {top1:.0f}")
    pastel = cell_bg(page, "TX")
    c.that(not is_transparent(pastel), f"the spotted cell's background is transparent ({pastel})")
    c.that(pastel != white, f"the spotted cell did not change colour ({pastel})")
    c.equal(cell_bg(page, "AL"), white, "an untouched cell's background")
    c.equal(spotted_in_dom(page), {"TX"}, "spotted cells")
    c.that(page.exists("#state-TX a.cell__main[data-dialog='unspot-TX']"),
           "a spotted cell should open the unspot-TX confirmation instead of spotting again")
    c.equal(game.spotted(), {"TX"}, "spotted according to the server")
    c.done()

    # The tap is stored on the server: a full reload shows it again.
    page.driver.refresh()
    page.wait_ready()
    assert page.marker() is None, "refresh did not reload the page"
    assert spotted_in_dom(page) == {"TX"}, f"after a reload the spotted cells are {spotted_in_dom(page)}"
    assert page.text(SCORE) == score_text(1)
    assert cell_bg(page, "TX") == pastel


# --------------------------------------------------------------------------- 3. un-spotting


def test_unspot_asks_first(page, game):
    game.spot("NV", "OH")
    page.open("/plates")
    token = page.mark()
    white = cell_bg(page, "AL")
    pastel = cell_bg(page, "NV")
    assert pastel != white, "Nevada is spotted but looks like a white cell"

    centre(page, "#state-NV")
    page.click("#state-NV a.cell__main")
    wait_dialog(page, "unspot-NV")
    parts = dialog_parts(page, "unspot-NV")
    c = Checks()
    c.equal(parts, {"modal": True, "title": "Reset Nevada?", "cancel": "Cancel", "confirm": "Un-spot"}, "un-spot dialog")
    c.that(page.find("#unspot-NV").is_displayed(), "the dialog is not displayed")
    c.done()

    # "Cancel": nothing changes.
    page.click("#unspot-NV .alert__button--cancel")
    wait_dialog(page, "unspot-NV", False)
    assert spotted_in_dom(page) == {"NV", "OH"}, f"'Cancel' changed the game: {spotted_in_dom(page)}"
    assert page.text(SCORE) == score_text(2)
    assert cell_bg(page, "NV") == pastel
    assert game.spotted() == {"NV", "OH"}, "'Cancel' changed the game on the server"

    # Again, "Un-spot": Nevada goes back to white, the score down by one.
    page.click("#state-NV a.cell__main")
    wait_dialog(page, "unspot-NV")
    page.click("#unspot-NV button[type=submit]")
    page.wait("!document.querySelector('#state-NV').classList.contains('cell--spotted')"
              " && !!document.querySelector('#state-NV button.cell__main')", 10, "'Un-spot' did not un-spot Nevada")
    wait_score(page, 1)
    page.settle("#state-NV")
    assert cell_bg(page, "NV") == white, f"Nevada should be white again, is {cell_bg(page, 'NV')} (white: {white})"
    assert spotted_in_dom(page) == {"OH"}
    assert page.marker() == token, "un-spotting reloaded the page instead of swapping"
    assert not page.js("return !!document.querySelector('dialog[open]')"), "a dialog stayed open"
    assert game.spotted() == {"OH"}


FOCUS_JS = """const a = document.activeElement;
    return {item: a?.closest('li[data-state]')?.dataset.state ?? null, tag: a?.tagName ?? null, html: a?.outerHTML.slice(0, 90) ?? null};"""


def test_spotting_and_unspotting_from_the_keyboard_keeps_focus_on_the_state(page, game):
    page.open("/plates")
    centre(page, "#state-OH")
    page.js("document.querySelector('#state-OH .cell__main').focus()")
    ActionChains(page.driver).send_keys(Keys.SPACE).perform()
    page.wait("!!document.querySelector('#state-OH.cell--spotted')", 10, "Space on Ohio did not spot it")
    wait_score(page, 1)
    page.wait("document.activeElement?.closest('li[data-state]')?.dataset.state === 'OH'", 10,
              f"after spotting Ohio with the keyboard, focus left it: {page.js(FOCUS_JS)}")
    assert page.js(FOCUS_JS)["tag"] == "A", "focus should be on Ohio's (now un-spot) control"

    # Un-spot: Enter opens the alert, and its Un-spot button is pressed with the keyboard too.
    ActionChains(page.driver).send_keys(Keys.ENTER).perform()
    wait_dialog(page, "unspot-OH")
    page.js("document.querySelector('#unspot-OH button[type=submit]').focus()")
    ActionChains(page.driver).send_keys(Keys.ENTER).perform()
    page.wait("!!document.querySelector('#state-OH:not(.cell--spotted) button.cell__main')", 10, "Un-spot did not un-spot Ohio")
    wait_score(page, 0)
    page.wait("document.activeElement?.closest('li[data-state]')?.dataset.state === 'OH'", 10,
              f"after un-spotting Ohio with the keyboard, focus left it: {page.js(FOCUS_JS)}")
    assert page.js(FOCUS_JS)["tag"] == "BUTTON"
    assert not page.js("return !!document.querySelector('dialog[open]')"), "the alert stayed open"


# --------------------------------------------------------------------------- 4. Reset Game


def test_reset_game_asks_first(page, game):
    game.spot("CA", "NY", "TX")
    page.open("/plates")
    token = page.mark()
    assert page.text(SCORE) == score_text(3)

    page.click("#plates-reset")
    wait_dialog(page, "reset-game")
    assert dialog_parts(page, "reset-game") == {"modal": True, "title": "Reset Game?", "cancel": "Cancel", "confirm": "Reset"}

    page.click("#reset-game .alert__button--cancel")
    wait_dialog(page, "reset-game", False)
    assert spotted_in_dom(page) == {"CA", "NY", "TX"}, f"'Cancel' changed the game: {spotted_in_dom(page)}"
    assert page.text(SCORE) == score_text(3)
    assert game.spotted() == {"CA", "NY", "TX"}

    page.click("#plates-reset")
    wait_dialog(page, "reset-game")
    page.click("#reset-game button[type=submit]")
    page.wait("document.querySelectorAll('[data-screen] li.cell--spotted').length === 0", 10,
              f"'Reset' left spotted cells: {spotted_in_dom(page)}")
    wait_score(page, 0)
    page.settle("div.indexed")
    white = page.js(BG_JS, "section[aria-label=Game] li.cell")
    odd = {s.code: cell_bg(page, s.code) for s in STATES if cell_bg(page, s.code) != white}
    assert not odd, f"after Reset Game these cells are not white ({white}): {odd}"
    assert page.marker() == token, "Reset Game reloaded the page instead of swapping"
    assert game.spotted() == set()


# --------------------------------------------------------------------------- 5. without JavaScript


def test_game_without_javascript(page, game):
    page.disable_scripts()
    page.open("/plates")
    assert page.js("return !document.documentElement.classList.contains('js') && !window.Pocket"), "scripts still ran"
    white = cell_bg(page, "OR")

    # Tap a white cell: a plain form POST, then the list again with the pastel cell and the score.
    centre(page, "#state-OR")
    page.click("#state-OR button.cell__main")
    page.wait("location.pathname === '/plates' && document.readyState === 'complete'"
              " && !!document.querySelector('#state-OR.cell--spotted')", 10,
              f"tapping Oregon without JavaScript did not spot it (at {page.path()!r})")
    assert page.text(SCORE) == score_text(1)
    pastel = cell_bg(page, "OR")
    assert pastel != white and not is_transparent(pastel), f"spotted Oregon is not pastel: {pastel} (white {white})"

    # Tap the pastel cell: the confirmation page. "Cancel" leads back without a change.
    def open_unspot_page():
        centre(page, "#state-OR")
        page.click("#state-OR a.cell__main")
        page.wait("location.pathname === '/plates/states/OR/unspot' && document.readyState === 'complete'", 10,
                  f"tapping spotted Oregon did not open its confirmation page (at {page.path()!r})")
        assert page.h1() == "Reset Oregon?", f"confirmation page title {page.h1()!r}"
        assert page.text("#confirm-title") == "Reset Oregon?"
        assert page.text("section.alert--page .alert__button--cancel") == "Cancel"
        assert page.text("section.alert--page button[type=submit]") == "Un-spot"

    open_unspot_page()
    page.click("section.alert--page .alert__button--cancel")
    page.wait("location.pathname === '/plates' && document.readyState === 'complete'"
              " && !!document.querySelector('#state-OR')", 10, f"'Cancel' did not lead back to the list ({page.path()!r})")
    assert spotted_in_dom(page) == {"OR"} and page.text(SCORE) == score_text(1), "'Cancel' changed the game"

    open_unspot_page()
    page.click("section.alert--page button[type=submit]")
    page.wait("location.pathname === '/plates' && document.readyState === 'complete'"
              " && !!document.querySelector('#state-OR button.cell__main')", 10,
              f"'Un-spot' did not un-spot Oregon and lead back to the list ({page.path()!r})")
    assert page.text(SCORE) == score_text(0)
    assert cell_bg(page, "OR") == white
    assert game.spotted() == set()

    # Reset Game: its own page, with Cancel and Reset.
    for code in ("UT", "VT"):
        centre(page, f"#state-{code}")
        page.click(f"#state-{code} button.cell__main")
        page.wait(f"document.readyState === 'complete' && !!document.querySelector('#state-{code}.cell--spotted')", 10,
                  f"tapping {code} without JavaScript did not spot it")
    assert page.text(SCORE) == score_text(2)

    def open_reset_page():
        page.click("#plates-reset")
        page.wait("location.pathname === '/plates/reset' && document.readyState === 'complete'", 10,
                  f"Reset Game did not open its page without JavaScript (at {page.path()!r})")
        assert page.h1() == "Reset Game?" and page.text("#confirm-title") == "Reset Game?"
        assert page.text("section.alert--page .alert__button--cancel") == "Cancel"
        assert page.text("section.alert--page button[type=submit]") == "Reset"

    open_reset_page()
    page.click("section.alert--page .alert__button--cancel")
    page.wait("location.pathname === '/plates' && document.readyState === 'complete' && !!document.querySelector('#plates-score')",
              10, "'Cancel' on the Reset Game page did not lead back to the list")
    assert spotted_in_dom(page) == {"UT", "VT"} and page.text(SCORE) == score_text(2), "'Cancel' reset the game"

    open_reset_page()
    page.click("section.alert--page button[type=submit]")
    page.wait("location.pathname === '/plates' && document.readyState === 'complete' && !!document.querySelector('#plates-score')",
              10, "'Reset' on the Reset Game page did not lead back to the list")
    assert spotted_in_dom(page) == set() and page.text(SCORE) == score_text(0), "'Reset' did not reset the game"
    assert game.spotted() == set()


# --------------------------------------------------------------------------- 6. a state's page


@pytest.mark.parametrize("viewport", PHONE_AND_IPAD)
def test_state_page_shows_plate(page, game, plate_images, viewport):
    page.set_viewport(*VIEWPORTS[viewport], reload=False)
    page.open("/plates")
    token = page.mark()
    centre(page, "#state-AL")
    page.click("#state-AL a.cell__info")
    page.wait("location.pathname === '/plates/states/AL'"
              " && document.querySelector('[data-screen] h1.navbar__title')?.textContent.trim() === 'Alabama'", 10,
              f"the info accessory did not open Alabama's page (at {page.path()!r}, title {page.h1()!r})")
    page.wait("(() => { const i = document.querySelector('img#plate-image'); return i && i.complete; })()", 10,
              f"no plate picture finished loading (missing note: {page.text('#plate-missing')!r})")
    img = page.js("""const i = document.querySelector('figure.plate img#plate-image.plate__image');
        const r = i.getBoundingClientRect();
        return {src: i.getAttribute('src'), complete: i.complete, w: i.naturalWidth, h: i.naturalHeight,
                alt: i.alt, width: r.width, left: r.left, right: r.right};""")
    c = Checks()
    c.equal(page.marker(), token, "marker (the info accessory should swap screens, not reload)")
    c.equal(page.text("[data-screen] a.navbar__back .navbar__back-label"), "US States", "back link label")
    c.that(not page.exists("#plates-toolbar"), "the state page must not show the game's toolbar")
    c.equal(img["src"], "/plates/states/AL/plate", "the picture is served by Pocket (its cache)")
    c.that(img["complete"] and img["w"] > 0, f"the plate picture is broken: {img}")
    c.equal((img["w"], img["h"]), (240, 120), "the picture's natural size (the fixture host's plate.jpg)")
    c.that(img["width"] > 0 and img["left"] >= -0.5 and img["right"] <= page.viewport[0] + 0.5,
           f"the picture is not shown inside the viewport: {img}")
    c.that(img["alt"], "the plate picture has no alt text")
    c.that(not page.exists("#plate-missing"), "the missing-picture note is shown next to the picture")
    c.that(200 in plate_images.requested(BY_CODE["AL"].image_path),
           f"Pocket never fetched {BY_CODE['AL'].image_path} from the picture host: {plate_images.requests}")
    c.equal(page.text("#plate-spotted"), "Not spotted on this trip yet", "spotted info")
    c.equal(page.text("#plates-detail button[type=submit]"), "I Spotted Alabama", "spot button")
    ok, msg = page.no_horizontal_overflow()
    c.that(ok, msg)
    c.done()

    # Spot it from its page: the page says when, and offers to reset it.
    page.click("#plates-detail button[type=submit]")
    page.wait("/^Spotted today at \\d{1,2}:\\d{2}/.test(document.querySelector('#plate-spotted')?.textContent.trim() ?? '')", 10,
              f"after 'I Spotted Alabama' the page says {page.text('#plate-spotted')!r}")
    assert page.path() == "/plates/states/AL"
    assert page.exists("#plates-detail a[data-dialog='unspot-AL']") and "Reset Alabama" in page.text("#plates-detail a[data-dialog='unspot-AL']")

    # Back: the list with its toolbar again, Alabama now pastel.
    page.click("[data-screen] a.navbar__back")
    wait_list(page)
    assert page.marker() == token, "going back reloaded the page"
    assert page.find("#plates-toolbar").is_displayed(), "the toolbar did not come back with the list"
    assert page.text(SCORE) == score_text(1)
    assert "AL" in spotted_in_dom(page)


def test_state_page_without_picture(page, game, plate_images):
    code = "AK"
    assert code in PLATE_PICTURES_MISSING
    page.open(f"/plates/states/{code}")
    # The page renders at once while the picture is fetched in the background, then re-reads itself.
    page.wait("(() => { const n = document.querySelector('#plate-missing');"
              " return !!n && !n.hasAttribute('data-refresh-after') && !n.textContent.includes('on its way'); })()", 10,
              f"the note still says the picture is on its way: {page.text('#plate-missing')!r}")
    c = Checks()
    c.equal(page.h1(), BY_CODE[code].name, "title")
    note = page.text("figure.plate #plate-missing")
    c.that(note and BY_CODE[code].name in note and len(note) > 20,
           f"the missing-picture note should explain, naming {BY_CODE[code].name}: {note!r}")
    c.that(page.exists("#plate-missing") and page.find("#plate-missing").is_displayed(), "the note is not displayed")
    c.equal(page.js("return document.querySelectorAll('[data-screen] main img').length"), 0,
            "images on a page whose picture is missing (a broken <img>?)")
    c.that(404 in plate_images.requested(BY_CODE[code].image_path),
           f"Pocket never asked the picture host for {BY_CODE[code].image_path}: {plate_images.requests}")
    c.that(not page.exists("#plates-toolbar"), "the state page must not show the game's toolbar")
    # The note names the host Pocket really asks (the fixture host), not the data's www.15q.net.
    c.that("can reach 127.0.0.1." in note and "15q.net" not in note, f"the note names the wrong host: {note!r}")
    c.done()


# --------------------------------------------------------------------------- 7. section index

HEADER_SEEN_JS = """
const h = document.querySelector(`#section-${arguments[0]} .list-section__header`);
const nav = document.querySelector('[data-screen] > header.navbar').getBoundingClientRect();
const bar = document.querySelector('#plates-toolbar')?.getBoundingClientRect();
const r = h.getBoundingClientRect();
const hit = document.elementFromPoint(r.left + Math.min(r.width / 2, 20), r.top + r.height / 2);
return {top: r.top, bottom: r.bottom, navBottom: nav.bottom, barTop: bar ? bar.top : innerHeight, innerHeight,
        scrollY, hit: hit ? hit.localName + '.' + [...hit.classList].join('.') : null,
        inside: !!hit && document.getElementById(`section-${arguments[0]}`).contains(hit)};
"""


@pytest.mark.parametrize("viewport", PHONE_AND_IPAD)
def test_section_index_jumps(page, game, viewport):
    page.set_viewport(*VIEWPORTS[viewport], reload=False)
    page.open("/plates")
    for letter in ("M", "W"):
        before = page.js("return scrollY")
        page.click("details.section-index > summary")
        page.click(f"nav.section-index__letters a[href='#section-{letter}']")

        def seen(_driver, letter=letter):
            s = page.js(HEADER_SEEN_JS, letter)
            return s if (s["top"] >= s["navBottom"] - 1 and s["bottom"] <= min(s["innerHeight"], s["barTop"]) + 0.5
                         and s["inside"]) else False
        try:
            page.wait(seen, 10)
        except AssertionError:
            s = page.js(HEADER_SEEN_JS, letter)
            raise AssertionError(
                f"after tapping {letter} in the section index its header is not visible below the navbar: header "
                f"{s['top']:.0f}..{s['bottom']:.0f}, navbar bottom {s['navBottom']:.0f}, toolbar top {s['barTop']:.0f}, "
                f"viewport {s['innerHeight']}, element there {s['hit']!r}; page scrolled {before:.0f} -> {s['scrollY']:.0f}"
            ) from None
    assert page.path() == "/plates" or page.path().startswith("/plates#"), page.path()


# --------------------------------------------------------------------------- 8. the map


TILES_JS = """
return [...document.querySelectorAll('[data-screen] nav.plates-map a.tile')].map(a => {
  const r = a.getBoundingClientRect();
  return {code: a.textContent.trim(), href: a.getAttribute('href'), spotted: a.classList.contains('tile--spotted'),
          bg: getComputedStyle(a).backgroundColor, left: r.left, right: r.right, w: r.width, h: r.height};
});
"""


def test_map_and_celebration(page, game):
    page.open("/plates")
    token = page.mark()
    assert not page.exists(".plates-celebration")
    centre(page, "#state-OH")
    page.click("#state-OH button.cell__main")
    page.wait("!!document.querySelector('#state-OH.cell--spotted')", 10, "tapping Ohio did not spot it")
    assert page.text("a[href='/plates/map'] .cell__detail") == f"1 of {TOTAL}"

    page.js("scrollTo(0, 0)")
    # Tapped while the page may be reading itself again after the spot was sent: the tap must still
    # open the map (a refresh never aborts a swap the person started). The link is found at the
    # moment of the tap, as a finger finds whatever is on screen then.
    page.js("document.querySelector(\"section[aria-label=Game] a[href='/plates/map']\").click()")
    page.wait("location.pathname === '/plates/map' && !!document.querySelector('[data-screen] nav.plates-map')", 10,
              "the Map cell did not open the map")
    page.settle("[data-screen]")
    tiles = page.js(TILES_JS)
    c = Checks()
    c.equal(page.h1(), "Map", "map title")
    c.equal(page.marker(), token, "marker (the map should be a swap)")
    c.equal(len(tiles), TOTAL, "number of tiles")
    c.equal(sorted(t["code"] for t in tiles), sorted(BY_CODE), "tile codes")
    c.equal({t["code"]: t["href"] for t in tiles}, {s.code: f"/plates/states/{s.code}?from=map" for s in STATES},
            "tile links")
    c.equal([t["code"] for t in tiles if t["spotted"]], ["OH"], "filled tiles")
    by = {t["code"]: t for t in tiles}
    if "OH" in by and "TX" in by:
        c.that(by["OH"]["bg"] != by["TX"]["bg"] and not is_transparent(by["OH"]["bg"]),
               f"the spotted tile looks like an empty one ({by['OH']['bg']} vs {by['TX']['bg']})")
    # Every tile is a 44 px target; where eleven columns of them are wider than the screen, the map scrolls
    # sideways in its frame (whose hidden edge fades) and every tile can be scrolled into view.
    c.that(all(t["w"] >= 44 and t["h"] >= 44 for t in tiles), "tiles smaller than 44 px: " + ", ".join(
        f"{t['code']} {t['w']:.0f}×{t['h']:.0f}" for t in tiles if t["w"] < 44 or t["h"] < 44))
    frame = page.js("""const f = document.querySelector('.plates-map-frame'), r = f.getBoundingClientRect();
        return {left: r.left, right: r.right, scrollWidth: f.scrollWidth, clientWidth: f.clientWidth, scrollable: f.classList.contains('is-scrollable')};""")
    c.that(frame["left"] >= -0.5 and frame["right"] <= page.viewport[0] + 0.5, f"the map's frame is outside the screen: {frame}")
    c.equal(frame["scrollable"], frame["scrollWidth"] > frame["clientWidth"] + 1, "the frame marks whether it scrolls")
    for code in ("ME", "FL"):
        page.js("document.querySelector(arguments[0]).scrollIntoView({inline: 'center', block: 'nearest', behavior: 'instant'})",
                f".plates-map .tile[href^='/plates/states/{code}']")
        r = page.js("const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left, r.right]",
                    f".plates-map .tile[href^='/plates/states/{code}']")
        c.that(r[0] >= -0.5 and r[1] <= page.viewport[0] + 0.5, f"{code}'s tile cannot be scrolled into view: {r}")
    c.equal(page.text("#plates-map-score"), f"1 of {TOTAL} states", "map score")
    c.that(not page.exists(".plates-celebration"), "celebration shown at 1 / 50")
    ok, msg = page.no_horizontal_overflow()
    c.that(ok, msg)
    c.done()

    # A tile leads to the state's page, whose back button says "Map" and leads back to it.
    page.click("nav.plates-map a.tile[href^='/plates/states/OH']")
    page.wait("location.pathname + location.search === '/plates/states/OH?from=map'"
              " && document.querySelector('[data-screen] h1.navbar__title')?.textContent.trim() === 'Ohio'", 10,
              f"the OH tile did not open Ohio's page (at {page.path()!r})")
    assert page.text("[data-screen] a.navbar__back .navbar__back-label") == "Map"
    assert page.text("#plate-spotted").startswith("Spotted today at"), page.text("#plate-spotted")
    page.click("[data-screen] a.navbar__back")
    page.wait("location.pathname === '/plates/map' && !!document.querySelector('nav.plates-map')", 10,
              f"back from Ohio did not return to the map (at {page.path()!r})")

    # 49 more over HTTP with the browser's own session, the last one by a tap: the celebration.
    last = "WY"
    PlatesGame.from_page(page).spot(*(s.code for s in STATES if s.code not in ("OH", last)))
    page.driver.refresh()
    page.wait_ready()
    assert page.text("#plates-map-score") == f"{TOTAL - 1} of {TOTAL} states"
    assert not page.exists(".plates-celebration"), "celebration shown at 49 / 50"
    assert [t["code"] for t in page.js(TILES_JS) if not t["spotted"]] == [last]

    page.open("/plates")
    token = page.mark()
    centre(page, f"#state-{last}")
    page.click(f"#state-{last} button.cell__main")
    wait_score(page, TOTAL)
    page.wait("!!document.querySelector('[data-screen] .plates-celebration')", 10, "no celebration on the list at 50 / 50")
    assert page.marker() == token
    page.js("scrollTo(0, 0)")
    assert page.find(".plates-celebration").is_displayed(), "the celebration is not displayed"
    assert f"All {TOTAL} states" in page.text(".plates-celebration"), page.text(".plates-celebration")

    page.click("section[aria-label=Game] a[href='/plates/map']")
    page.wait("location.pathname === '/plates/map' && !!document.querySelector('[data-screen] .plates-celebration')", 10,
              "no celebration on the map at 50 / 50")
    assert page.find(".plates-celebration").is_displayed()
    assert all(t["spotted"] for t in page.js(TILES_JS)), "not every tile is filled at 50 / 50"
    assert page.text("#plates-map-score") == f"{TOTAL} of {TOTAL} states"


# --------------------------------------------------------------------------- 9. trips


def test_new_trip_keeps_history(page, game):
    spotted = ("AZ", "CO", "NM", "UT")
    game.spot(*spotted)
    page.open("/plates/trips")
    token = page.mark()
    before = page.js("return document.querySelectorAll('#trips-finished > li').length")
    assert page.text("#trips-current ~ ul .cell__detail") == f"{len(spotted)} / {TOTAL}", "current trip's score"

    page.click("#plates-new-trip")
    wait_dialog(page, "new-trip")
    assert dialog_parts(page, "new-trip") == {"modal": True, "title": "Start a New Trip?", "cancel": "Cancel",
                                              "confirm": "New Trip"}
    page.click("#new-trip .alert__button--cancel")
    wait_dialog(page, "new-trip", False)
    assert game.spotted() == set(spotted), "Cancel started a new trip"

    page.click("#plates-new-trip")
    wait_dialog(page, "new-trip")
    page.click("#new-trip button[type=submit]")
    wait_list(page)
    wait_score(page, 0)
    assert spotted_in_dom(page) == set(), f"a new trip starts white, spotted: {spotted_in_dom(page)}"
    assert page.marker() == token
    assert page.text("a[href='/plates/trips'] .cell__detail") == f"{before + 1} finished"

    page.click("section[aria-label=Game] a[href='/plates/trips']")
    page.wait("location.pathname === '/plates/trips' && !!document.querySelector('#trips-finished')", 10,
              "the Trips page did not show a history after New Trip")
    rows = page.js("return [...document.querySelectorAll('#trips-finished > li')].map(li => li.querySelector('.cell__detail')?.textContent.trim())")
    assert len(rows) == before + 1, f"history should have grown from {before} to {before + 1} trips: {rows}"
    assert rows[0] == f"{len(spotted)} / {TOTAL}", f"the newest finished trip should read {len(spotted)} / {TOTAL}: {rows}"
    assert page.text("#trips-current ~ ul .cell__detail") == f"0 / {TOTAL}", "the new current trip's score"


# --------------------------------------------------------------------------- 10. sounds

FETCH_HEAD_JS = """
const done = arguments[arguments.length - 1];
fetch(arguments[0]).then(async (r) => {
  const bytes = new Uint8Array(await r.arrayBuffer());
  done({status: r.status, type: r.headers.get('content-type'), size: bytes.length,
        riff: String.fromCharCode(...bytes.slice(0, 4)), wave: String.fromCharCode(...bytes.slice(8, 12))});
}, (e) => done({error: String(e)}));
"""


def test_sounds_setting(page, game):
    page.open("/plates")
    assert page.find("#plates-sounds").is_selected(), "sounds start on"
    spot_buttons = page.js("return [...document.querySelectorAll('[data-screen] li.cell button.cell__main')].map(b => b.dataset.sound ?? null)")
    assert len(spot_buttons) == TOTAL and all(spot_buttons), f"spot buttons without data-sound: {spot_buttons.count(None)}"
    urls = page.js("return [...new Set([...document.querySelectorAll('[data-screen] [data-sound]')].map(e => e.dataset.sound))]")
    c = Checks()
    for url in urls:
        c.that(re.search(r"\.wav$", url), f"data-sound does not point at a WAV: {url}")
        res = page.js_async(FETCH_HEAD_JS, url)
        c.that(res.get("status") == 200, f"{url}: {res}")
        c.that((res.get("type") or "").split(";")[0].strip() == "audio/wav", f"{url} is served as {res.get('type')!r}")
        c.that(res.get("riff") == "RIFF" and res.get("wave") == "WAVE" and res.get("size", 0) > 44,
               f"{url} is not a RIFF/WAVE file: {res}")
    c.done()

    # Off: the switch submits by itself; the swapped screen carries no sounds anywhere.
    token = page.mark()
    page.click("#plates-sounds")
    page.wait("!document.querySelector('#plates-sounds')?.checked && !document.querySelector('[data-screen] [data-sound]')"
              " && document.querySelectorAll('[data-screen] li.cell button.cell__main').length === 50", 10,
              f"after turning Sounds off: switch checked={page.js('return document.querySelector(`#plates-sounds`)?.checked')}, "
              f"{page.js('return document.querySelectorAll(`[data-sound]`).length')} element(s) still carry data-sound")
    assert page.marker() == token, "the settings form reloaded the page instead of swapping"
    assert "data-sound" not in game.list_html(), "the server still renders sounds after they were turned off"
    state = http_request(game.url("/plates/states/AL"))
    assert state.status == 200 and "data-sound" not in state.text, "a state's page still plays sounds when they are off"

    page.driver.refresh()
    page.wait_ready()
    assert not page.find("#plates-sounds").is_selected(), "the Sounds setting did not survive a reload"
    assert page.js("return document.querySelectorAll('[data-sound]').length") == 0

    # And on again.
    page.click("#plates-sounds")
    page.wait("document.querySelector('#plates-sounds')?.checked"
              " && document.querySelectorAll('[data-screen] li.cell button.cell__main[data-sound]').length === 50", 10,
              "turning Sounds back on did not bring data-sound back")


# --------------------------------------------------------------------------- 11. contrast


@pytest.mark.parametrize("scheme", SCHEMES)
def test_spotted_cell_contrast(page, game, scheme):
    game.spot("GA")
    page.set_scheme(scheme)
    page.open("/plates")
    centre(page, "#state-GA")
    rest_pointer(page)
    page.settle("#state-GA")
    white, pastel = cell_bg(page, "FL"), cell_bg(page, "GA")
    assert pastel != white and not is_transparent(pastel), f"{scheme}: Georgia is not pastel ({pastel} vs {white})"
    result = page.js(CONTRAST_JS, "#state-GA")
    assert result["scheme"] == scheme
    assert result["checked"] >= 2, f"the title and nickname were not measured: {result}"
    assert not result["failures"], format_contrast_failures(result)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_map_tiles_contrast(page, game, scheme):
    """Spotted and unspotted squares on the map both keep their codes readable."""
    game.spot("OH")
    page.set_scheme(scheme)
    page.open("/plates/map")
    rest_pointer(page)
    for css in (".tile--spotted", ".tile:not(.tile--spotted)"):
        result = page.js(CONTRAST_JS, f"nav.plates-map {css}")
        assert result["checked"] >= 1, f"{scheme}: no {css} text was measured: {result}"
        assert not result["failures"], format_contrast_failures(result)


# --------------------------------------------------------------------------- markup basics on every Plates page


def test_plates_pages_accessibility_basics(page, game):
    """One h1, a main landmark, named controls, alt texts and unique ids on each of the game's pages."""
    game.spot("OH")
    c = Checks()
    for path in ("/plates", "/plates/map", "/plates/trips", "/plates/states/AL", "/plates/states/AK",
                 "/plates/states/OH?from=map", "/plates/states/OH/unspot", "/plates/reset", "/plates/trips/new"):
        page.open(path)
        for problem in page.js(A11Y_JS):
            c.failures.append(f"{path}: {problem}")
    c.done()
