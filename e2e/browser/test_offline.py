"""Pocket away from its server (issue #13): pages come from the phone's copy, marked as offline with
when they were saved; pages never saved say so inside Pocket under their own address and "Try again"
retries them; in-place changes reach the saved copy; a remote says it is not connected and comes
back by itself; and a server that accepts connections but never answers (a home address seen from
a mobile network) still gives a page within seconds, never the browser's error page.

Each test runs its own server and really stops it: DevTools' offline switch does not reach the
service worker's own fetches."""
from __future__ import annotations

import re

import pytest

from pocket_helpers import ARTIFACTS, Blackhole, PocketServer, page_with_worker

# The service worker waits this long for the network before showing the saved copy, plus slack
# for a loaded machine.
PAGE_WITHIN_S = 15


@pytest.fixture
def own(driver, tmp_path, plate_images, murals_service):
    """A server of this test's own, and the shared browser pointed at it with its service worker running."""
    srv = PocketServer(log_path=ARTIFACTS / f"server-{tmp_path.name}.log", data_dir=tmp_path / "data",
                       env={"POCKET_PLATES_IMAGE_BASE": plate_images.base_url, **murals_service.env()}).start()
    page = page_with_worker(driver, srv)
    yield srv, page
    srv.stop()


def offline_bar(page) -> str:
    return page.js("return document.querySelector('#pocket-offline')?.textContent ?? ''")


def not_an_error_page(page):
    assert page.js("return !!document.querySelector('[data-screen]')"), \
        f"not a Pocket page at {page.js('return location.href')}: {page.js('return document.title')!r}"


def test_saved_pages_show_offline_and_unsaved_ones_say_so_under_their_own_address(own):
    srv, page = own
    page.open("/plates")
    page.open("/converter")
    assert srv.stop() == 0

    page.open("/plates")
    not_an_error_page(page)
    assert page.h1() == "US States"
    page.wait("document.querySelector('#pocket-offline')", PAGE_WITHIN_S, "no offline bar on a saved page")
    assert re.match(r"Offline · saved \w+ \d+, \d{4}", offline_bar(page)), offline_bar(page)

    # A link to a page never saved: Pocket's own page, at that address.
    page.open("/remote/dvr")
    not_an_error_page(page)
    assert page.path() == "/remote/dvr", page.path()
    assert page.h1() == "Offline"
    assert page.exists("#offline-retry")

    srv.resume()
    page.find("#offline-retry").click()
    page.wait("document.querySelector('h1.navbar__title')?.textContent.trim() === 'My DVR'", PAGE_WITHIN_S,
              f"Try again did not load the DVR: {page.h1()!r} at {page.path()!r}")
    page.wait("!document.querySelector('#pocket-offline')", PAGE_WITHIN_S, "the offline bar stayed once online")


def test_a_change_made_in_place_is_what_the_saved_copy_shows(own):
    srv, page = own
    page.open("/remote/tv")
    assert page.text("#tv-power-state") == "Off"
    page.find("#tv-power").click()
    page.wait("document.querySelector('#tv-power-state')?.textContent.trim() === 'On'", 15, "the TV did not turn on")
    assert srv.stop() == 0

    page.open("/remote/tv")
    not_an_error_page(page)
    assert page.text("#tv-power-state") == "On", "the saved copy is from before the change"


def test_a_remote_says_it_is_not_connected_and_reconnects_by_itself(own):
    srv, page = own
    page.open("/remote/tv")
    page.find("#tv-power").click()
    page.wait("document.querySelector('#tv-power-state')?.textContent.trim() === 'On'", 15, "the TV did not turn on")
    assert srv.stop() == 0

    page.wait("document.querySelector('#remote-tv .needs-server__notice')", PAGE_WITHIN_S,
              "the remote did not notice the server was gone")
    assert page.text("#remote-tv .needs-server__notice") == "Not connected to My TV"
    enabled = page.js("return [...document.querySelectorAll('#remote-tv button, #remote-tv input')].filter(c => !c.disabled).length")
    assert enabled == 0, f"{enabled} controls still work without the TV"

    srv.resume()
    page.wait("!document.querySelector('#remote-tv .needs-server__notice')", 30, "the remote did not reconnect by itself")
    page.wait("document.querySelector('#tv-key-5') && !document.querySelector('#tv-key-5').disabled", 15,
              "the keypad stayed disabled after reconnecting")
    assert page.text("#tv-power-state") == "On"


def test_a_server_that_never_answers_still_gives_a_page_within_seconds(own):
    srv, page = own
    page.open("/plates")
    assert srv.stop() == 0
    hole = Blackhole(srv.port).start()
    try:
        page.open("/plates")  # driver.get waits for the load: the service worker must answer by itself
        not_an_error_page(page)
        assert page.h1() == "US States"
        page.wait("document.querySelector('#pocket-offline')", PAGE_WITHIN_S, "no offline bar")

        page.open("/remote/dvr")
        not_an_error_page(page)
        assert page.h1() == "Offline" and page.path() == "/remote/dvr"
    finally:
        hole.stop()
    srv.resume()
