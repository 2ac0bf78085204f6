"""2. The living style guide (/design) at every viewport and colour scheme: layout, colours, contrast."""

import pytest

from pocket_helpers import CONTRAST_JS, SCHEMES, VIEWPORTS, Checks, format_contrast_failures

COMPONENTS = ["navbar", "list", "section-index", "controls", "wheel", "progress", "buttons", "form", "split", "toolbar"]
CONTROLS = ["segmented", "switch", "slider", "stepper"]
# Where text contrast is measured: every demo section plus the page's own bars and intro.
CONTRAST_ROOTS = "section.demo, [data-screen] > header.navbar, main > .content__intro, footer.toolbar"

# Scrolls an element to the centre of the viewport and reports its box and whether it is rendered.
BOX_JS = """
const el = document.querySelector(arguments[0]);
if (!el) return null;
el.scrollIntoView({block: 'center', inline: 'nearest', behavior: 'instant'});
const r = el.getBoundingClientRect();
return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height,
        visible: el.checkVisibility({opacityProperty: true, visibilityProperty: true}),
        innerWidth: innerWidth, innerHeight: innerHeight};
"""

COLOURS_JS = """
const b = getComputedStyle(document.body), h = getComputedStyle(document.documentElement);
const bg = b.backgroundColor === 'rgba(0, 0, 0, 0)' ? h.backgroundColor : b.backgroundColor;
return {bg, fg: b.color, h1: getComputedStyle(document.querySelector('h1')).color,
        cell: getComputedStyle(document.querySelector('.list')).backgroundColor};
"""


def luminance(css_rgb: str) -> float:
    nums = [float(x) for x in css_rgb[css_rgb.index("(") + 1:-1].replace("/", " ").replace(",", " ").split()[:3]]

    def lin(v):
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in nums)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_style_guide_layout(page, viewport, scheme):
    w, h, mobile = VIEWPORTS[viewport]
    page.set_viewport(w, h, mobile, reload=False)
    page.set_scheme(scheme)
    page.open("/design")
    c = Checks()
    c.equal(page.h1(), "Design", "navbar title")
    c.that(page.exists(".screen--large-title"), "the style guide should use the large title style")
    title_px = page.js("return parseFloat(getComputedStyle(document.querySelector('h1.navbar__title')).fontSize)")
    c.that(title_px >= 28, f"large title is only {title_px}px")

    for name in COMPONENTS:
        sel = f"section.demo[data-component='{name}']"
        box = page.js(BOX_JS, sel)
        if not c.that(box is not None, f"missing {sel}"):
            continue
        c.that(box["visible"] and box["width"] > 0 and box["height"] > 0, f"{name} section not visible ({box})")
        c.that(box["left"] >= -0.5 and box["right"] <= w + 0.5,
               f"{name} section sticks out of the viewport: left {box['left']:.1f}, right {box['right']:.1f}, "
               f"viewport {w}")
    for name in CONTROLS:
        sel = f"section[data-component='controls'] [data-component='{name}']"
        box = page.js(BOX_JS, sel)
        if not c.that(box is not None, f"missing {sel}"):
            continue
        c.that(box["visible"] and box["width"] > 0 and box["height"] > 0, f"{name} control not visible")
        c.that(box["left"] >= -0.5 and box["right"] <= w + 0.5,
               f"{name} control sticks out of the viewport ({box['left']:.1f}..{box['right']:.1f} of {w})")

    ok, msg = page.no_horizontal_overflow()
    c.that(ok, msg)

    # Bars: with the page scrolled to the middle, the navbar stays on top and the toolbar at the bottom.
    page.js("document.querySelector('#demo-wheel').scrollIntoView({block: 'center', behavior: 'instant'})")
    nav = page.rect("[data-screen] > header.navbar")
    tool = page.rect("footer.toolbar#design-toolbar")
    c.that(nav and abs(nav["top"]) <= 1, f"navbar does not stick to the top while scrolling: {nav}")
    c.that(tool and tool["height"] > 0 and abs(tool["bottom"] - h) <= 1,
           f"bottom toolbar is not pinned to the bottom of a {h}px viewport: {tool}")

    # Colours follow the scheme: dark text on a light page, light text on a dark one.
    colours = page.js(COLOURS_JS)
    bg, fg = luminance(colours["bg"]), luminance(colours["fg"])
    if scheme == "light":
        c.that(bg > 0.5 and fg < 0.2, f"light scheme should be dark text on a light background: {colours}")
    else:
        c.that(bg < 0.1 and fg > 0.5, f"dark scheme should be light text on a dark background: {colours}")
    c.done()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_style_guide_colours_follow_scheme(page, viewport):
    page.set_viewport(*VIEWPORTS[viewport], reload=False)
    page.set_scheme("light")
    page.open("/design")
    light = page.js(COLOURS_JS)
    page.set_scheme("dark")  # media queries update live, no reload needed
    page.wait(f"getComputedStyle(document.body).color !== {light['fg']!r}", 10, "text colour did not change in dark mode")
    dark = page.js(COLOURS_JS)
    c = Checks()
    for key in ("bg", "fg", "h1", "cell"):
        c.that(light[key] != dark[key], f"{key} colour is the same in light and dark mode: {light[key]}")
    c.done()


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_style_guide_text_contrast(page, viewport, scheme):
    page.set_viewport(*VIEWPORTS[viewport], reload=False)
    page.set_scheme(scheme)
    page.open("/design")
    page.settle("main")
    result = page.js(CONTRAST_JS, CONTRAST_ROOTS)
    # Dialog text counts once the dialog is open: open each, let it animate in, measure, close.
    for dialog in ("#demo-alert", "#demo-sheet"):
        page.js("document.querySelector(arguments[0]).showModal()", dialog)
        page.settle(dialog)
        extra = page.js(CONTRAST_JS, dialog)
        page.js("document.querySelector(arguments[0]).close()", dialog)
        result["checked"] += extra["checked"]
        result["failures"] += extra["failures"]
    print(f"contrast {viewport}/{scheme}: {result['checked']} checked, {len(result['failures'])} failing, "
          f"{len(result['skipped'])} skipped")
    for s in result["skipped"]:
        print("  skipped:", s)
    assert result["checked"] > 50, f"only {result['checked']} text elements were measured: is the page empty?"
    assert not result["failures"], format_contrast_failures(result)
