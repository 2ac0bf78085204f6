"""Text at 100–200% on every phone width (issue #34): nothing scrolls sideways on any screen of any app at
320–430 px, and the bars that stay pinned while the page scrolls leave most of the screen to the page.

Text size is the browser's default font size (the `text_size` fixture of test_layout.py: Pocket sizes
text in rem, so a person's text-size setting scales it, as iOS Dynamic Type does in Safari).

Widths are measured against the emulated device width, never `innerWidth`: a mobile browser zooms out
to fit a page wider than the screen, which widens `innerWidth` with it, so a check against it passes."""

from __future__ import annotations

import pytest

from pocket_helpers import Checks
from test_layout import first_link, main_screens, no_location, text_size  # noqa: F401 (fixtures)

# iPhone SE (1st), SE (2nd/3rd), 12–16, 14–16 Plus/Pro Max: CSS px.
PHONES = [(320, 568), (375, 667), (390, 844), (430, 932)]

# With larger text, pinned bars may cover at most a quarter of the screen's height, leaving three quarters
# to what is read. At 100% text the bars keep iOS's sizes (the navigation and tab bars of Conference take
# 144 of 568 px on the smallest iPhone), so the share is checked from 150%.
MAX_PINNED_SHARE = 0.25

# What reaches past the right edge of the device (its own box, unless something round it scrolls or clips
# it), and how far the page scrolls sideways.
OVERFLOW_JS = r"""
const width = arguments[0];
const clipped = (el) => {
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const cs = getComputedStyle(p);
    if (cs.overflowX !== 'visible') return true;
  }
  return false;
};
const describe = (el) => {
  const text = (el.getAttribute('aria-label') || el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 40);
  const cls = typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\s+/).join('.') : '';
  return `${el.localName}${cls} "${text}"`;
};
const wide = [];
for (const el of document.body.querySelectorAll('*')) {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0 || r.right <= width + 1 || clipped(el)) continue;
  if (el.closest('[hidden], dialog:not([open]), .visually-hidden, .skip-link')) continue;
  wide.push([el, Math.round(r.right)]);
}
// The innermost elements that stick out are named: what holds them sticks out because they do.
const inner = wide.filter(([el]) => !wide.some(([w]) => w !== el && el.contains(w)));
return {page: document.documentElement.scrollWidth, inner: innerWidth,
        wide: inner.slice(0, 5).map(([el, right]) => `${describe(el)} reaches ${right} px`)};
"""

# The height of the screen that the navigation bar and the toolbar (the tab bar among them) cover while
# pinned (the union of their vertical extents), measured half-way down the page. A list's section
# headers stick too, but scroll away with their section.
PINNED_JS = r"""
const height = arguments[0];
scrollTo(0, (document.scrollingElement.scrollHeight - innerHeight) / 2);
const spans = [];
for (const el of document.querySelectorAll('[data-screen] .navbar, [data-screen] .toolbar')) {
  const cs = getComputedStyle(el);
  if (cs.position !== 'sticky' && cs.position !== 'fixed') continue;
  if (el.closest('[hidden], dialog')) continue;
  const r = el.getBoundingClientRect();
  if (r.height === 0 || cs.visibility === 'hidden') continue;
  spans.push([Math.max(0, r.top), Math.min(height, r.bottom)]);
}
spans.sort((a, b) => a[0] - b[0]);
let covered = 0, end = -1;
for (const [top, bottom] of spans) {
  if (bottom <= end) continue;
  covered += bottom - Math.max(top, end);
  end = bottom;
}
scrollTo(0, 0);
return Math.round(covered);
"""


def every_screen(server) -> list[str]:
    """Every screen of every app with a detail page of each: the layout suite's screens, a speaker, a mural,
    a chapter of the citation index, and the welcome page (the trust page is served only beside HTTPS)."""
    speaker = first_link(server, "/conference/speakers", r"/conference/speakers/[^\"?#]+")
    mural = first_link(server, "/murals?show=all", r"/murals/mural/\d+")
    chapter = first_link(server, "/conference/citations", r"/conference/citations/[^\"?#]+")
    return main_screens(server) + [speaker, mural, chapter, "/welcome"]


@pytest.mark.parametrize("percent", [100, 150, 200])
def test_nothing_scrolls_sideways_and_bars_leave_room_at_any_text_size(page, server, no_location, text_size, percent):
    page.set_viewport(*PHONES[0], reload=False)
    page.open("/")
    text_size(percent)
    check = Checks()
    for path in every_screen(server):
        page.open(path)
        for width, height in PHONES:
            page.set_viewport(width, height)
            page.wait_ready()
            found = page.js(OVERFLOW_JS, width)
            check.that(found["page"] <= width and found["inner"] == width and not found["wide"],
                       f"{path} at {width} px, {percent}% text: the page is {found['page']} px wide "
                       f"(innerWidth {found['inner']}); {'; '.join(found['wide'])}")
            covered = page.js(PINNED_JS, height)
            check.that(percent == 100 or covered <= MAX_PINNED_SHARE * height,
                       f"{path} at {width}×{height}, {percent}% text: pinned bars cover {covered} of {height} px")
    check.done()
