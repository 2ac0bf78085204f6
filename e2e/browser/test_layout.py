"""Layout and touch on phones and tablets (issue #15): every control at least 44×44 CSS px, every
screen usable at 150% and 200% text, the converter on one 375×667 screen, landscape phones, the iPad.

Each test measures the real rendering in Chromium; none compares screenshots."""

from __future__ import annotations

import html
import re

import pytest

from pocket_helpers import Checks, http_request

MIN_TARGET = 44

# Shared by both checks: what an element is called in a message, the box that clips it (every scrolling
# or clipping ancestor: a wheel's rows, a sideways map), and whether two boxes overlap.
GEOMETRY_JS = r"""
const describe = (el) => {
  const text = (el.getAttribute('aria-label') || el.textContent || el.value || '').trim().replace(/\s+/g, ' ').slice(0, 40);
  const cls = typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\s+/).join('.') : '';
  return `${el.localName}${cls} "${text}"`;
};
const clipOf = (el) => {
  let c = { left: -1e9, top: -1e9, right: 1e9, bottom: 1e9 };
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const cs = getComputedStyle(p);
    if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
    const r = p.getBoundingClientRect();
    c = { left: Math.max(c.left, r.left), top: Math.max(c.top, r.top), right: Math.min(c.right, r.right), bottom: Math.min(c.bottom, r.bottom) };
  }
  return c;
};
const cut = (b, c) => ({ left: Math.max(b.left, c.left), top: Math.max(b.top, c.top), right: Math.min(b.right, c.right), bottom: Math.min(b.bottom, c.bottom) });
const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 2 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 2;
"""

# Every interactive element that is on screen, measured by what a finger hits: a visually hidden radio
# or checkbox, or a switch inside its label, is hit through the label, so the label is measured instead.
TARGETS_JS = GEOMETRY_JS + r"""
const min = arguments[0];
const problems = [];
const seen = new Set();
const visible = (el) => {
  const r = el.getBoundingClientRect();
  const cs = getComputedStyle(el);
  return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && cs.display !== 'none'
    && !el.closest('[hidden], [inert], dialog:not([open]), .visually-hidden, .skip-link')
    && !(el.closest('details:not([open])') && !el.closest('summary'));
};
// Bars, popovers and map controls float over the page, which scrolls beneath them.
const layer = (el) => el.closest('.navbar, .toolbar, .section-index, .segmented__more, .leaflet-control-container');
const hiddenInput = (el) => {
  const cs = getComputedStyle(el);
  const r = el.getBoundingClientRect();
  return el.localName === 'input' && (cs.opacity === '0' || r.width <= 1 || r.height <= 1 || cs.clipPath !== 'none' || cs.clip !== 'auto');
};
// OpenStreetMap's attribution is a legal notice in running text, not a control.
const exemptLink = (el) => !!el.closest('.leaflet-control-attribution');
const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=switch], [role=slider], [role=tab], [role=option], [tabindex]:not([tabindex="-1"])';
for (let el of document.querySelectorAll(selector)) {
  if (el.closest('[data-screen] .navbar__title')) continue;
  // A switch, checkbox or radio inside its label is operated by a tap anywhere on the label.
  if (hiddenInput(el) || (['checkbox', 'radio'].includes(el.type) && el.closest('label'))) {
    const label = el.closest('label') || (el.id && document.querySelector(`label[for="${CSS.escape(el.id)}"]`));
    if (!label) continue;
    el = label;
  }
  if (seen.has(el) || !visible(el)) continue;
  if (exemptLink(el)) continue;
  seen.add(el);
  const r = el.getBoundingClientRect();
  if (Math.round(r.width) < min || Math.round(r.height) < min)
    problems.push(`${describe(el)} is ${Math.round(r.width)}×${Math.round(r.height)}`);
}
// Two targets that overlap take each other's taps (Leaflet's pins may overlap: the map zooms apart).
// What shows of each target is compared: a wheel's rows scrolled out of sight take no taps.
const boxes = [...seen].filter((el) => !el.closest('.leaflet-marker-pane')).map((el) => [el, cut(el.getBoundingClientRect(), clipOf(el))]);
for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
  const [a, ra] = boxes[i], [b, rb] = boxes[j];
  if (a.contains(b) || b.contains(a) || layer(a) !== layer(b)) continue;
  if (overlap(ra, rb)) problems.push(`${describe(a)} and ${describe(b)} overlap`);
}
return problems;
"""


def first_link(server, path: str, pattern: str) -> str:
    """The first link on `path` whose address matches `pattern` (a conference, a talk, a mural)."""
    found = re.search(pattern, http_request(server.url(path)).text)
    assert found, f"{path} has no link matching {pattern}"
    return html.unescape(found.group(0))


def main_screens(server) -> list[str]:
    """The screens a person reaches from the home screen, with a detail page of each app."""
    conference = first_link(server, "/conference", r"/conference/conferences/\d+")
    talk = first_link(server, conference, r"/conference/talks/\d+[^\"]*")
    return ["/", "/settings", "/converter", "/remote/tv", "/remote/dvr", "/remote/tv/favourites",
            "/plates", "/plates/map", "/plates/trips", "/plates/states/WA", "/murals", "/murals/trail",
            "/conference", conference, talk, "/conference/speakers", "/conference/citations", "/conference/search",
            "/conference/settings", "/design"]


@pytest.fixture
def no_location(page):
    """Murals asks for the location; a denied permission keeps Chromium from asking a network provider."""
    page.driver.execute_cdp_cmd("Browser.setPermission", {
        "permission": {"name": "geolocation"}, "setting": "denied", "origin": page.base_url})
    yield
    page.driver.execute_cdp_cmd("Browser.setPermission", {
        "permission": {"name": "geolocation"}, "setting": "prompt", "origin": page.base_url})


@pytest.mark.parametrize("size", [(390, 844), (375, 667), (1024, 1366)], ids=["390x844", "375x667", "ipad"])
def test_every_control_is_at_least_44_px(page, server, no_location, size):
    page.set_viewport(*size, mobile=size[0] < 800, reload=False)
    check = Checks()
    for path in main_screens(server):
        page.open(path)
        for problem in page.js(TARGETS_JS, MIN_TARGET):
            check.that(False, f"{path}: {problem}")
    check.done()


# Text that is cut short (an ellipsis, or a box that hides what overflows it), words broken across
# lines inside the word, and a page wider than the screen.
READABLE_JS = GEOMETRY_JS + r"""
const problems = [];
const visible = (el) => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'
    && !el.closest('[hidden], dialog:not([open]), details:not([open]) > :not(summary), .visually-hidden, .skip-link, .leaflet-container, [aria-hidden=true]');
};
const doc = document.scrollingElement;
if (doc.scrollWidth > innerWidth + 1) problems.push(`the page is ${doc.scrollWidth} px wide in a ${innerWidth} px screen`);
for (const el of document.querySelectorAll('[data-screen] *')) {
  if (!el.childNodes.length || !visible(el)) continue;
  const hasText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  if (!hasText) continue;
  const cs = getComputedStyle(el);
  if (cs.overflowX !== 'visible' && cs.overflowX !== 'auto' && cs.overflowX !== 'scroll' && el.scrollWidth > el.clientWidth + 1)
    problems.push(`${describe(el)} is cut: ${el.scrollWidth} px of text in ${el.clientWidth} px`);
  else if (cs.overflowY === 'hidden' && el.scrollHeight > el.clientHeight + 1)
    problems.push(`${describe(el)} is cut: ${el.scrollHeight} px of text in ${el.clientHeight} px tall`);
  if (cs.webkitLineClamp && cs.webkitLineClamp !== 'none' && el.scrollHeight > el.clientHeight + 1)
    problems.push(`${describe(el)} is clamped`);
  // A word whose letters sit on two lines was broken inside the word.
  for (const node of el.childNodes) {
    if (node.nodeType !== 3) continue;
    for (const m of node.textContent.matchAll(/[\p{L}\p{N}]{2,}/gu)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) problems.push(`${describe(el)} breaks "${m[0]}" across lines`);
    }
  }
}
// Words drawn over other words (a display whose columns no longer fit).
const leaves = [...document.querySelectorAll('[data-screen] .content *')].filter((el) => visible(el)
  && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()) && !el.closest('.leaflet-container, .section-index, .segmented__more'));
// Each line box of the element's own text, cut by whatever scrolls or clips round it.
const lines = (el) => {
  const c = clipOf(el), out = [];
  for (const n of el.childNodes) {
    if (n.nodeType !== 3 || !n.textContent.trim()) continue;
    const r = document.createRange(); r.selectNodeContents(n);
    for (const b of r.getClientRects()) {
      const box = cut(b, c);
      if (box.right - box.left > 2 && box.bottom - box.top > 2) out.push(box);
    }
  }
  return out;
};
const rects = leaves.map((el) => [el, lines(el)]);
for (let i = 0; i < rects.length; i++) for (let j = i + 1; j < rects.length; j++) {
  const [a, la] = rects[i], [b, lb] = rects[j];
  if (a.contains(b) || b.contains(a)) continue;
  if (la.some((ra) => lb.some((rb) => overlap(ra, rb)))) problems.push(`${describe(a)} is drawn over ${describe(b)}`);
}
const title = document.querySelector('[data-screen] .navbar__title');
if (!title || !visible(title)) problems.push('the screen title is not shown');
return [...new Set(problems)];
"""


@pytest.fixture
def text_size(page):
    """Sets the browser's default font size (what a person's text-size setting changes: Pocket's rem
    units follow it), back to 16 px afterwards."""
    def apply(percent: int):
        page.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16 * percent // 100, "fixed": 13 * percent // 100}})
    yield apply
    apply(100)


@pytest.mark.parametrize("percent", [150, 200])
def test_every_screen_is_readable_at_large_text(page, server, no_location, text_size, percent):
    page.set_viewport(390, 844, reload=False)
    page.open("/")
    text_size(percent)
    check = Checks()
    for path in main_screens(server):
        page.open(path)
        check.that(page.js("return getComputedStyle(document.documentElement).fontSize") == f"{16 * percent // 100}px",
                   f"{path}: the text size setting did not apply")
        for problem in page.js(READABLE_JS):
            check.that(False, f"{path}: {problem}")
        # Controls stay reachable: none is pushed off the side of the screen.
        for problem in page.js(TARGETS_JS, MIN_TARGET):
            check.that(False, f"{path}: {problem}")
    check.done()


# --------------------------------------------------------------------------- landscape and iPad


def test_landscape_phone_fits_the_remotes_and_the_converter(page, server):
    page.set_viewport(844, 390, reload=False)
    check = Checks()
    for path, sel in (("/remote/tv", ".remote"), ("/remote/dvr", ".remote")):
        page.open(path)
        nav, bar = page.rect("[data-screen] > header.navbar"), page.rect("[data-screen] .toolbar")
        r = page.rect(sel)
        room = bar["top"] - nav["bottom"]
        check.that(r["height"] <= room + 0.5, f"{path}: the remote is {r['height']:.0f} px tall between bars {room:.0f} px apart")
    page.open("/converter")
    page.find("label:has(> #converter-category-data)").click()
    page.wait("document.querySelector('#converter-conventions')", 10, "Data has no convention control")
    # The category changes in place (js/converter/app.js rebuilds the wheels): the page may be
    # taller for a moment before the wheels settle, so it has to fit once settled, within 10 s.
    try:
        page.wait("document.scrollingElement.scrollHeight <= innerHeight + 1", 10)
    except AssertionError:
        pass  # reported below with the height it settled at
    check.that(page.js("return document.scrollingElement.scrollHeight <= innerHeight + 1"),
               f"the converter scrolls in landscape: {page.js('return document.scrollingElement.scrollHeight')} px in 390")
    for sel in (".converter__display", ".converter__keypad"):
        r = page.rect(sel)
        check.that(r["bottom"] <= 390.5, f"the converter's {sel} ends at {r['bottom']:.0f}, below the 390 px screen")
    check.done()


@pytest.mark.parametrize("path", ["/plates", "/conference/speakers"])
def test_landscape_section_index_stays_clear_of_the_bars(page, server, path):
    page.set_viewport(844, 390, reload=False)
    page.open(path)
    page.js("scrollTo(0, document.scrollingElement.scrollHeight / 2)")
    page.find("details.section-index > summary").click()
    page.wait("document.querySelector('details.section-index').open", 10, "the index did not open")
    letters = page.rect(".section-index__letters")
    nav = page.rect("[data-screen] > header.navbar")
    bar_top = page.js("const b = document.querySelector('[data-screen] .toolbar'); return b ? b.getBoundingClientRect().top : innerHeight")
    assert letters["top"] >= nav["bottom"] - 0.5 and letters["bottom"] <= bar_top + 0.5, \
        f"the letters ({letters['top']:.0f}..{letters['bottom']:.0f}) are under a bar (navbar ends {nav['bottom']:.0f}, toolbar starts {bar_top:.0f})"
    # Every letter can be reached: the last one scrolls into view inside the panel.
    page.js("document.querySelector('.section-index__letters a:last-child').scrollIntoView({block: 'nearest'})")
    last = page.rect(".section-index__letters a:last-child")
    assert last["top"] >= letters["top"] - 0.5 and last["bottom"] <= letters["bottom"] + 0.5, "the last letter cannot be reached"


def test_ipad_shows_the_plates_list_beside_the_state(page, server):
    page.set_viewport(1024, 1366, mobile=False, reload=False)
    page.open("/plates")
    check = Checks()
    check.that(page.find("#plates-list").is_displayed() and page.find("#plates-detail").is_displayed(),
               "on an iPad the list and the detail pane show side by side")
    page.find("#state-OR a.cell__info").click()
    page.wait("location.pathname === '/plates/states/OR'", 10, "the info button did not open Oregon")
    page.wait("!!document.querySelector('#plates-detail #plate-spotted')", 10, "Oregon's page is not in the detail pane")
    lst, detail = page.rect("#plates-list"), page.rect("#plates-detail")
    check.that(lst["width"] > 250 and detail["left"] >= lst["right"] - 0.5 and detail["width"] > lst["width"],
               f"the list ({lst}) should sit left of a wider detail pane ({detail})")
    check.equal(page.js("return document.querySelector('#state-OR').getAttribute('aria-current')"), "true",
                "Oregon's row is marked as the one shown")
    check.equal(page.h1(), "Oregon", "title")
    # On a phone the same address shows the state alone.
    page.set_viewport(390, 844)
    page.wait_ready()
    check.that(not page.find("#plates-list").is_displayed() and page.find("#plates-detail").is_displayed(),
               "on a phone the state's page shows alone")
    check.done()


@pytest.mark.parametrize("size, expected", [((390, 844), "push"), ((844, 390), "push"), ((1024, 1366), "none")],
                         ids=["phone", "phone-landscape", "ipad"])
def test_a_split_list_pushes_on_a_phone_and_swaps_in_place_on_an_ipad(page, server, size, expected):
    page.set_viewport(*size, mobile=size[0] < 900 or size[1] < 500, reload=False)
    page.open("/plates")
    page.js("document.querySelector('#state-OR a.cell__info').scrollIntoView({block: 'center'})")
    page.find("#state-OR a.cell__info").click()
    page.wait("location.pathname === '/plates/states/OR'", 10, "the info button did not open Oregon")
    assert page.js("return document.documentElement.dataset.transition") == expected


# --------------------------------------------------------------------------- bars: no text over text

# The words in the navigation bar and the tab bar, as drawn: each text node's line boxes, cut by what
# clips them (an ellipsis leaves the rest unseen). Two boxes of different elements must not overlap,
# and words in the tab bar must keep apart.
BAR_TEXT_JS = GEOMETRY_JS + r"""
const visible = (el) => {
  const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
  return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && cs.display !== 'none' && Number(cs.opacity) > 0.01;
};
const words = (root) => {
  const out = [];
  if (!root) return out;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !visible(el) || el.closest('.visually-hidden, [hidden]')) continue;
    const range = document.createRange(); range.selectNodeContents(n);
    const c = clipOf(el);
    for (const b of range.getClientRects()) {
      const box = cut(b, c);
      if (box.right - box.left > 1 && box.bottom - box.top > 1) out.push([el, box]);
    }
  }
  return out;
};
const problems = [];
const screen = document.querySelector('[data-screen]');
for (const [bar, gap] of [[screen.querySelector(':scope > .navbar'), 0], [screen.querySelector(':scope > .toolbar'), 4]]) {
  const boxes = words(bar);
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, ra] = boxes[i], [b, rb] = boxes[j];
    if (a === b || a.contains(b) || b.contains(a)) continue;
    const apart = Math.max(ra.left, rb.left) - Math.min(ra.right, rb.right);
    const sameLine = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top) > 2;
    if (sameLine && apart < gap) problems.push(`"${a.textContent.trim().slice(0, 30)}" and "${b.textContent.trim().slice(0, 30)}" ${apart < 0 ? 'overlap by ' + Math.round(-apart) : 'are ' + Math.round(apart)} px`);
  }
}
return problems;
"""


@pytest.mark.parametrize("percent", [100, 200])
def test_no_words_in_a_bar_touch_at_any_phone_width(page, server, no_location, text_size, percent):
    """Every app's navigation bar and toolbar (the Conference tab bar among them) at 320, 375, 390 and 430 px wide."""
    page.set_viewport(390, 844, reload=False)
    page.open("/")
    text_size(percent)
    check = Checks()
    for path in main_screens(server):
        page.open(path)
        for width in (320, 375, 390, 430):
            page.set_viewport(width, 844, reload=False)
            page.js("return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
            for problem in page.js(BAR_TEXT_JS):
                check.that(False, f"{path} at {width} px, {percent}% text: {problem}")
    check.done()
