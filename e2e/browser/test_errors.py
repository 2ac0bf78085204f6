"""7. Unknown addresses get a friendly 404 screen in the normal layout."""

import pytest

from pocket_helpers import http_request


def test_404_status_and_markup(server):
    res = http_request(server.url("/no/such/page"))
    assert res.status == 404
    assert (res.header("Content-Type") or "").startswith("text/html")
    assert 'class="empty-state"' in res.text and "data-screen" in res.text
    assert "no/such/page" not in res.text, "the 404 page must not echo the path"


@pytest.mark.console_allow(r"status of 404")
def test_404_page_in_browser(page):
    page.open("/no/such/page")
    state = page.find("main#main .empty-state")
    assert state.is_displayed()
    assert "404" in state.text
    assert page.exists("[data-screen] > header.navbar h1.navbar__title")
    assert page.h1(), "the 404 screen needs a title"
    back = page.find("[data-screen] > header.navbar a.navbar__back")
    assert back.is_displayed()
    token = page.mark()
    back.click()
    page.wait("document.querySelector('[data-screen] h1.navbar__title')?.textContent.trim() === 'Pocket'", 10,
              "the 404 page's back link did not lead home")
    assert page.path() == "/"
    assert page.marker() == token, "leaving the 404 page was a full reload instead of a swap"


@pytest.mark.console_allow(r"status of 404")
def test_404_reached_by_swap(page):
    page.open("/")
    page.js("window.Pocket.navigate('/nowhere')")
    page.wait("document.querySelector('.empty-state')", 10, "navigating to an unknown URL did not show the 404 screen")
    assert page.path() == "/nowhere"
    assert page.js("return document.querySelectorAll('[data-screen]').length") == 1
