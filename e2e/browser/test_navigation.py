"""4. Screen swaps: back links, browser history and focus."""

import pytest

from pocket_helpers import VIEWPORTS

H1_IS = "document.querySelector('[data-screen] h1.navbar__title')?.textContent.trim() === {!r}"


def push_to_design(page):
    page.open("/")
    token = page.mark()
    page.find("p.springboard__footer a[href='/design']").click()
    page.wait(H1_IS.format("Design"), 10, "the Design screen did not appear")
    page.wait("location.pathname === '/design'", 10, "URL did not change to /design")
    assert page.marker() == token, "opening /design was a full page load, not a swap"
    assert page.js("return document.documentElement.dataset.transition") == "push"
    return token


def focused_on_title(page, title):
    return page.js("""const a = document.activeElement;
        return !!a && a.matches('[data-screen] h1.navbar__title') && a.textContent.trim() === arguments[0];""", title)


@pytest.mark.parametrize("viewport", ["iphone-portrait", "ipad"])
def test_back_link_pops_to_home(page, viewport):
    page.set_viewport(*VIEWPORTS[viewport], reload=False)
    token = push_to_design(page)
    back = page.find("[data-screen] > header.navbar a.navbar__back[data-nav=back]")
    assert back.is_displayed() and "Pocket" in back.text, f"back button should be labelled with the previous title: {back.text!r}"
    back.click()
    page.wait(H1_IS.format("Pocket"), 10, "the back link did not return to the home screen")
    assert page.path() == "/"
    assert page.marker() == token, "going back was a full page load, not a swap"
    assert page.js("return document.documentElement.dataset.transition") == "pop"
    page.wait(lambda d: focused_on_title(page, "Pocket"), 10,
              f"focus should be on the new h1, is on {page.js('return document.activeElement?.outerHTML.slice(0, 80)')}")


def test_browser_back_and_forward(page):
    token = push_to_design(page)
    page.wait(lambda d: focused_on_title(page, "Design"), 10, "focus did not move to the Design title after the swap")
    page.driver.back()
    page.wait(H1_IS.format("Pocket"), 10, "browser back did not show the home screen")
    assert page.path() == "/"
    assert page.marker() == token, "browser back reloaded the page instead of swapping"
    assert page.js("return document.documentElement.dataset.transition") == "pop"
    page.wait(lambda d: focused_on_title(page, "Pocket"), 10, "focus did not move to the home title after back")
    page.driver.forward()
    page.wait(H1_IS.format("Design"), 10, "browser forward did not show Design again")
    assert page.marker() == token
    assert page.js("return document.documentElement.dataset.transition") == "push"


def test_swap_updates_document(page):
    push_to_design(page)
    assert page.driver.title.startswith("Design"), f"document title after the swap: {page.driver.title!r}"
    assert page.js("return document.querySelectorAll('[data-screen]').length") == 1
    assert page.js("return document.querySelectorAll('h1').length") == 1
    token = page.js("return document.querySelector('meta[name=csrf-token]').content")
    assert token, "csrf-token meta lost in the swap"
    assert not page.js("return document.documentElement.classList.contains('is-loading')")


def test_window_pocket_api(page):
    page.open("/")
    assert page.js("return typeof window.Pocket.navigate === 'function' && typeof window.Pocket.playSound === 'function'")
    token = page.mark()
    page.js("window.Pocket.navigate('/design')")
    page.wait(H1_IS.format("Design"), 10, "Pocket.navigate('/design') did not show Design")
    assert page.marker() == token
