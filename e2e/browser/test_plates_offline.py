"""Plates with no server (issue #13): spot and un-spot change the screen at once and wait in the
outbox; when the same server comes back on the same data, every change is applied exactly once.
A change sent twice (the same id) changes nothing the second time.

Each test runs its own server and really stops it (DevTools' offline switch does not reach the
service worker's own fetches)."""
from __future__ import annotations

import json
import re
import time
import uuid

import pytest

from pocket_helpers import (ARTIFACTS, Blackhole, Page, PocketServer, http_request, make_driver, page_with_worker,
                            wait_for_worker)

WAIT_S = 20


@pytest.fixture
def own(driver, tmp_path, plate_images):
    """A server of this test's own, the shared browser on it with its service worker running."""
    srv = PocketServer(log_path=ARTIFACTS / f"server-{tmp_path.name}.log", data_dir=tmp_path / "data",
                       env={"POCKET_PLATES_IMAGE_BASE": plate_images.base_url}).start()
    page = page_with_worker(driver, srv)
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
    device = srv.device_tag(cookie)
    headers = {"Cookie": cookie, "X-CSRF-Token": token, "Content-Type": "application/json"}
    now = int(time.time() * 1000)

    def change(body, at):
        return json.dumps({"id": str(uuid.uuid4()), "at": at, "device": device, "body": body}).encode()

    spot = change({"kind": "spot", "state": "NV"}, now - 1000)
    first = http_request(srv.url("/plates/changes"), "POST", spot, headers)
    assert first.status == 200, first.text
    assert json.loads(first.text)["applied"] is True
    assert http_request(srv.url("/plates/changes"), "POST", change({"kind": "unspot", "state": "NV"}, now - 900), headers).status == 200
    again = http_request(srv.url("/plates/changes"), "POST", spot, headers)
    assert again.status == 200
    assert json.loads(again.text) == {"applied": False, "score": 0, "total": 50, "spotted": []}
    bad = http_request(srv.url("/plates/changes"), "POST", change({"kind": "spot"}, now), headers)
    assert bad.status == 400
    assert json.loads(bad.text) == {"error": "That change cannot be applied: a spot needs a state."}


def second_phone(srv, driver) -> Page:
    """Another phone of the same person: its own browser profile and its own signed-in device,
    with Pocket's service worker controlling its pages."""
    cookie, _ = srv.sign_in()
    page = Page(driver, srv.base_url, cookie=cookie.split("=", 1)[1])
    page.reset()
    page.open("/")
    wait_for_worker(page)
    page.open("/plates")
    return page


def spot(page, code: str):
    tap(page, f"#state-{code} .cell__main")
    page.wait(f"document.querySelector('#state-{code}').classList.contains('cell--spotted')", WAIT_S, f"{code} did not turn green")


def unspot(page, code: str):
    tap(page, f"#state-{code} .cell__main")
    page.wait(f"document.querySelector('#unspot-{code}')?.open", WAIT_S, f"the un-spot alert of {code} did not open")
    page.find(f"#unspot-{code} button[type=submit]").click()
    page.wait(f"!document.querySelector('#state-{code}').classList.contains('cell--spotted')", WAIT_S, f"{code} stayed green")


def wait_sent(page):
    page.js("window.dispatchEvent(new Event('online'))")
    page.wait("!document.querySelector('#pocket-offline')", 40, "the outbox was not sent")


def test_two_phones_of_one_person_offline_merge_by_the_rule(own):
    srv, a = own
    driver_b = make_driver()
    try:
        b = second_phone(srv, driver_b)
        a.open("/plates")
        assert srv.stop() == 0

        spot(a, "AL")          # A spots Alabama first …
        spot(a, "TX")
        spot(b, "TX")          # … both spot Texas …
        spot(b, "OR")
        spot(b, "AL")          # … and B spots Alabama and then un-spots it, after A's spot:
        unspot(b, "AL")        # the latest change for Alabama is B's un-spot.
        assert screen_spotted(a) == ["AL", "TX"] and screen_spotted(b) == ["OR", "TX"]

        srv.resume()
        wait_sent(b)           # B's changes arrive first, A's later: the order must not matter
        wait_sent(a)
        assert server_spotted(srv) == {"TX", "OR"}, "the merged game does not follow the rule"
        for phone in (a, b):
            phone.open("/plates")
            phone.wait("document.querySelectorAll('li[data-state].cell--spotted').length === 2", WAIT_S,
                       f"a phone does not show the merged game: {screen_spotted(phone)}")
            assert screen_spotted(phone) == ["OR", "TX"]
    finally:
        driver_b.quit()


def test_changes_waiting_when_the_browser_closes_are_sent_when_it_reopens(own, tmp_path):
    srv, _ = own
    profile = tmp_path / "phone-profile"
    driver = make_driver(profile)
    try:
        phone = second_phone(srv, driver)
        assert srv.stop() == 0
        spot(phone, "NV")
        spot(phone, "CO")
        phone.wait("/2 changes waiting/.test(document.querySelector('#pocket-offline')?.textContent ?? '')", WAIT_S,
                   "the two changes are not waiting")
    finally:
        driver.quit()           # the browser is closed with the changes still waiting

    srv.resume()
    assert server_spotted(srv) == set(), "a change reached the server while the browser was closed"
    driver = make_driver(profile)
    try:
        phone = Page(driver, srv.base_url, cookie=phone.cookie)
        phone.open("/plates")   # Pocket starts, and sends what waits
        deadline = time.monotonic() + 40
        while server_spotted(srv) != {"NV", "CO"} and time.monotonic() < deadline:
            time.sleep(0.5)
        assert server_spotted(srv) == {"NV", "CO"}, "the waiting changes were not sent when the browser reopened"
    finally:
        driver.quit()


def test_taps_are_kept_against_a_server_that_never_answers(own):
    srv, page = own
    page.open("/plates")
    assert srv.stop() == 0
    hole = Blackhole(srv.port).start()
    try:
        page.open("/plates")    # the saved copy, within the service worker's wait
        spot(page, "WA")
        page.wait("/1 change waiting/.test(document.querySelector('#pocket-offline')?.textContent ?? '')", WAIT_S,
                  "the tap is not waiting to be sent")
    finally:
        hole.stop()
    srv.resume()
    wait_sent(page)
    assert server_spotted(srv) == {"WA"}


def test_background_sync_sends_the_outbox_with_no_pocket_page_open(own):
    srv, _ = own
    driver = make_driver()  # a fresh profile, whose only service-worker registration is Pocket's
    try:
        phone = second_phone(srv, driver)
        assert srv.stop() == 0
        spot(phone, "ME")
        phone.wait("/1 change waiting/.test(document.querySelector('#pocket-offline')?.textContent ?? '')", WAIT_S,
                   "the tap is not waiting to be sent")
        driver.get("about:blank")  # no Pocket page is open any more: only the worker can send it
        srv.resume()
        assert server_spotted(srv) == set()
        # What the browser does once it is back online: fire the "pocket-outbox" sync.
        driver.execute_cdp_cmd("ServiceWorker.enable", {})
        fired = False
        for registration in range(4):
            try:
                driver.execute_cdp_cmd("ServiceWorker.dispatchSyncEvent", {
                    "origin": srv.base_url, "registrationId": str(registration), "tag": "pocket-outbox", "lastChance": False})
                fired = True
                break
            except Exception:  # not this registration id
                continue
        assert fired, "could not fire the background sync through DevTools"
        deadline = time.monotonic() + 30
        while server_spotted(srv) != {"ME"} and time.monotonic() < deadline:
            time.sleep(0.5)
        assert server_spotted(srv) == {"ME"}, "the worker did not send the outbox on background sync"
    finally:
        driver.quit()


def test_every_screen_shows_the_same_score_offline(own):
    srv, page = own
    for path in ("/plates", "/plates/map", "/plates/trips"):
        page.open(path)
    assert srv.stop() == 0
    page.open("/plates")
    for code in ("AL", "TX", "OR"):
        spot(page, code)
    # The trips page shows the current trip as the list and the map do: what is waiting included.
    page.open("/plates/trips")
    page.wait("document.querySelector('section[aria-labelledby=\"trips-current\"] .cell__detail')?.textContent === '3 / 50'",
              WAIT_S, "the trips page shows a score from before the offline changes")
    page.open("/plates/map")
    page.wait("document.querySelector('#plates-map-score')?.textContent === '3 of 50 states'", WAIT_S, "the map disagrees")


def outbox_change(srv, cookie, token, body, at):
    """A change as another phone's outbox sends it."""
    device = srv.device_tag(cookie)
    data = json.dumps({"id": str(uuid.uuid4()), "at": at, "device": device, "body": body}).encode()
    result = http_request(srv.url("/plates/changes"), "POST", data,
                          {"Cookie": cookie, "X-CSRF-Token": token, "Content-Type": "application/json"})
    assert result.status == 200, result.text


def test_a_change_made_on_another_phone_shows_and_is_said(own):
    srv, page = own
    other_cookie, other_token = srv.sign_in()  # the person's other phone
    now = int(time.time() * 1000)
    outbox_change(srv, other_cookie, other_token, {"kind": "spot", "state": "OH"}, now - 5000)
    page.open("/plates")
    page.wait("document.querySelector('#state-OH').classList.contains('cell--spotted')", WAIT_S, "Ohio is not spotted")
    outbox_change(srv, other_cookie, other_token, {"kind": "unspot", "state": "OH"}, now)
    # The phone is looked at again (or the screen's periodic check comes round).
    page.js("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait("/Ohio was un-spotted on another device/.test(document.querySelector('#pocket-offline')?.textContent ?? '')", WAIT_S,
              "the change made on the other phone was not said")
    page.wait("!document.querySelector('#state-OH').classList.contains('cell--spotted')", WAIT_S, "the screen still shows Ohio spotted")



@pytest.mark.parametrize("reopened", [False, True], ids=["same-screen", "saved-copy"])
def test_a_change_made_on_another_phone_while_changes_wait_is_said_once_they_are_sent(own, reopened):
    """Issue #34: with changes waiting, the merge that follows their sending says what another
    device changed in the words of the periodic check, and not the phone's own changes; also when
    the spots were made on the saved copy, which the live page replaces once the server is back."""
    srv, page = own
    other_cookie, other_token = srv.sign_in()  # the person's other phone
    page.open("/plates")
    spot(page, "OH")
    # The spot reached the server and the screen was read again: the page's own game has Ohio.
    page.wait("document.querySelector('[data-module][data-spotted]')?.dataset.spotted === 'OH'", WAIT_S,
              "the page was not read again after Ohio was spotted")
    assert server_spotted(srv) == {"OH"}
    # The other phone un-spots Ohio; this phone has not looked since, and now loses the server.
    outbox_change(srv, other_cookie, other_token, {"kind": "unspot", "state": "OH"}, int(time.time() * 1000))
    assert srv.stop() == 0
    if reopened:
        page.open("/plates")  # the saved copy
        page.wait("document.documentElement.hasAttribute('data-offline-saved')", WAIT_S, "not the saved copy")
    for code in ("AL", "TX", "OR"):
        spot(page, code)
    page.wait("/3 changes waiting/.test(document.querySelector('#pocket-offline')?.textContent ?? '')", WAIT_S,
              "the three spots are not waiting")
    assert screen_spotted(page) == ["AL", "OH", "OR", "TX"]

    srv.resume()
    page.js("window.dispatchEvent(new Event('online'))")
    page.wait("/on another device/.test(document.querySelector('#pocket-offline')?.textContent ?? '')", 40,
              "nothing was said about the change made on the other phone")
    assert page.text("#pocket-offline") == "Ohio was un-spotted on another device.", \
        "the phone's own spots were said as another device's, or Ohio's un-spot was not"
    page.wait("!document.querySelector('#state-OH').classList.contains('cell--spotted')", WAIT_S,
              "the screen still shows Ohio spotted")
    assert screen_spotted(page) == ["AL", "OR", "TX"]
    assert server_spotted(srv) == {"AL", "OR", "TX"}


SAME_MARKUP_JS = """const html = (el) => el?.outerHTML.replace(/>\\s+</g, '><').replace(/\\d{1,2}:\\d{2}/g, 'HH:MM') ?? null;
return {cells: ['TX', 'AL'].map((code) => html(document.querySelector(`#state-${code}`))),
        alert: html(document.querySelector('#unspot-TX')),
        detail: html(document.querySelector('#plate-spotting')),
        tiles: [...document.querySelectorAll('.plates-map .tile')].filter((t) => ['TX', 'AL'].includes(t.textContent)).map(html)};"""


def test_what_a_phone_shows_offline_is_the_markup_the_server_renders(own):
    """plates/app.js fills the server's templates: a cell spotted offline, one spotted and un-spotted
    again, the un-spot alert it adds, a state's page spotted from its button and the map's tiles
    are, element for element, what the server renders for the same game once it has heard."""
    srv, page = own
    for path in ("/plates", "/plates/map", "/plates/states/OR"):
        page.open(path)
    assert srv.stop() == 0
    page.open("/plates")
    spot(page, "TX")
    spot(page, "AL")
    unspot(page, "AL")
    tap(page, "#state-TX a.cell__main")
    page.wait("document.querySelector('#unspot-TX')?.open", WAIT_S, "the un-spot alert did not open")
    page.js("document.querySelector('#unspot-TX').close()")
    offline = page.js(SAME_MARKUP_JS)
    page.open("/plates/states/OR")
    page.find("#plates-detail button[type=submit]").click()
    page.wait("/^Spotted today at/.test(document.querySelector('#plate-spotted')?.textContent ?? '')", WAIT_S,
              "the state's page does not say it was spotted")
    offline["detail"] = page.js(SAME_MARKUP_JS)["detail"]
    page.open("/plates/map")
    page.wait("document.querySelector('#plates-map-score')?.textContent === '2 of 50 states'", WAIT_S, "the map missed a spot")
    offline["tiles"] = page.js(SAME_MARKUP_JS)["tiles"]

    srv.resume()
    wait_sent(page)
    page.open("/plates")
    server = page.js(SAME_MARKUP_JS)
    assert server["cells"] == offline["cells"]
    assert server["alert"] == offline["alert"]
    page.open("/plates/states/OR")
    assert page.js(SAME_MARKUP_JS)["detail"] == offline["detail"]
    page.open("/plates/map")
    assert page.js(SAME_MARKUP_JS)["tiles"] == offline["tiles"]
