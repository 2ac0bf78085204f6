"""1. The home screen ("springboard") at every viewport and colour scheme."""

import pytest

from pocket_helpers import SCHEMES, VIEWPORTS, Checks


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_home_screen(page, viewport, scheme):
    page.set_viewport(*VIEWPORTS[viewport], reload=False)
    page.set_scheme(scheme)
    page.open("/")
    c = Checks()

    c.equal(page.driver.title, "Pocket", "document title")
    c.equal(page.h1(), "Pocket", "navbar title (h1)")
    springboard = page.find("nav.springboard")
    size = springboard.size
    c.that(springboard.is_displayed() and size["width"] > 0 and size["height"] > 0,
           f"springboard not visible (size {size})")
    tiles = page.finds("ul.springboard__grid > li > a.app-tile")
    if tiles:
        for tile in tiles:
            c.that(tile.find_element("css selector", "img.app-tile__icon").is_displayed(), "app tile icon hidden")
            c.that(tile.find_element("css selector", "span.app-tile__name").text.strip(), "app tile without a name")
    else:
        c.that(page.exists("nav.springboard p.springboard__empty") and page.find("p.springboard__empty").is_displayed(),
               "no app tiles and no visible p.springboard__empty message")
    ok, msg = page.no_horizontal_overflow()
    c.that(ok, msg)
    c.done()

    # The footer link opens the style guide through a pocket.js swap, not a full page load.
    link = page.find("p.springboard__footer a[href='/design']")
    token = page.mark()
    link.click()
    page.wait("location.pathname === '/design'", 10, "URL did not change to /design")
    page.wait("document.querySelector('[data-screen] h1.navbar__title')?.textContent.trim() === 'Design'", 10,
              "Design screen did not appear")
    assert page.marker() == token, "the Design page was a full reload, not a pocket.js screen swap"
    assert page.js("return document.documentElement.dataset.transition") in ("push", "none")
