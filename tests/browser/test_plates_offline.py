"""Plates with no server (issue #13): spot and un-spot change the screen at once and wait in the
outbox; when the same server comes back on the same data, every change is applied exactly once.
A change sent twice (the same id) changes nothing the second time.

Each test runs its own server and really stops it (DevTools' offline switch does not reach the
service worker's own fetches)."""
from __future__ import annotations

import json
import re
import uuid

import pytest

from pocket_helpers import ARTIFACTS, SW_READY_JS, Page, PocketServer, http_request

WAIT_S = 20


@pytest.fixture
def own(driver, tmp_path, plate_images):
    """A server of this test's own, the shared browser on it with its service worker running."""
    srv = PocketServer(log_path=ARTIFACTS / f"server-{tmp_path.name}.log", data_dir=tmp_path / "data",
                       env={"POCKET_PLATES_IMAGE_BASE": plate_images.base_url}).start()
    page = Page(driver, srv.base_url)
    page.reset()
    page.open("/")
    reg = page.js_async(SW_READY_JS)
    assert "error" not in reg, reg["error"]
    page.open("/")
    assert page.js("return !!navigator.serviceWorker.controller"), "the service worker does not control the page"
    yield srv, page
    srv.stop()


def server_spotted(srv) -> set[str]:
    """The states the server's game has spotted, read from its own page (not the browser's copy)."""
    html = http_request(srv.url("/plates")).text
    return set(re.findall(r'<li class="cell cell--bg-green cell--spotted[^"]*" id="state-[A-Z]{2}" data-state="([A-Z]{2})"', html))


def tap(page, css: str):
    """Clicks `css` scrolled to the middle of the screen (the toolbar covers the bottom rows)."""
    page.js("arguments[0].scrollIntoView({block: 'center'})", page.find(css))
    page.find(css).click()


def screen_spotted(page) -> list[str]:
    return page.js("return [...document.querySelectorAll('li[data-state].cell--spotted')].map(c => c.dataset.state).sort()")


def test_offline_spots_show_at_once_and_reach_the_server_exactly_once(own):
    srv, page = own
    page.open("/plates")
    page.wait("!!document.querySelector('li[data-state]')", WAIT_S, "no list")
    assert srv.stop() == 0

    page.open("/plates")  # the saved copy
    for code in ("AL", "TX", "OR"):
        tap(page, f"#state-{code} form button")
        page.wait(f"document.querySelector('#state-{code}').classList.contains('cell--spotted')", WAIT_S,
                  f"{code} did not turn green at once")
    tap(page, "#state-TX a.cell__main")
    page.wait("document.querySelector('#unspot-TX')?.open", WAIT_S, "the un-spot alert did not open")
    page.find("#unspot-TX button[type=submit]").click()
    page.wait("!document.querySelector('#state-TX').classList.contains('cell--spotted')", WAIT_S, "TX stayed green")
    assert screen_spotted(page) == ["AL", "OR"]
    assert page.text("#plates-score") == "Score: 2 / 50"
    assert page.js("return document.querySelector('a[href=\"/plates/map\"] .cell__detail').textContent") == "2 of 50"
    page.wait("/4 changes? waiting/.test(document.querySelector('#pocket-offline')?.textContent ?? '')", WAIT_S,
              "the offline bar does not count the 4 waiting changes")

    # Reopening the saved page (from the phone's copy) still shows what was done.
    page.open("/plates")
    page.wait("document.querySelectorAll('li[data-state].cell--spotted').length === 2", WAIT_S,
              "the saved page does not show the waiting changes")
    assert screen_spotted(page) == ["AL", "OR"]

    srv.resume()
    page.js("window.dispatchEvent(new Event('online'))")
    # The bar goes once the server is back and nothing waits or is being sent.
    page.wait("!document.querySelector('#pocket-offline')", 40, "the outbox was not sent")
    assert server_spotted(srv) == {"AL", "OR"}
    trips = http_request(srv.url("/plates/trips")).text
    assert "2 / 50" in trips, "the server's current trip has not exactly 2 spots"
    # Nothing is sent again: a reload keeps exactly those two.
    page.open("/plates")
    page.wait("document.querySelectorAll('li[data-state].cell--spotted').length === 2", WAIT_S, "the page lost a spot")
    assert server_spotted(srv) == {"AL", "OR"}


def test_a_change_sent_twice_changes_nothing_the_second_time(own):
    srv, _ = own
    cookie, token = srv.sign_in()
    headers = {"Cookie": cookie, "X-CSRF-Token": token, "Content-Type": "application/json"}
    change = {"id": str(uuid.uuid4()), "at": 1_900_000_000_000, "kind": "spot", "state": "NV"}
    first = http_request(srv.url("/plates/changes"), "POST", json.dumps(change).encode(), headers)
    assert first.status == 200, first.text
    assert json.loads(first.text)["applied"] is True
    unspot = {"id": str(uuid.uuid4()), "at": 1_900_000_000_100, "kind": "unspot", "state": "NV"}
    assert http_request(srv.url("/plates/changes"), "POST", json.dumps(unspot).encode(), headers).status == 200
    again = http_request(srv.url("/plates/changes"), "POST", json.dumps(change).encode(), headers)
    assert again.status == 200
    assert json.loads(again.text) == {"applied": False, "score": 0, "total": 50, "spotted": []}
    bad = http_request(srv.url("/plates/changes"), "POST", b'{"id":"x","at":1,"kind":"spot"}', headers)
    assert bad.status == 400
    assert json.loads(bad.text) == {"error": "That change cannot be applied: a spot needs a state."}
