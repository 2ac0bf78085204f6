"""Murals away from Pocket's server (issue #13): "Keep offline" saves every mural's page, thumbnail
and pictures in the `pocket-kept` cache with visible progress; with the server stopped the list, the
map's pins, every mural's details and its pictures still show; stars tapped offline wait in the
outbox and reach the server exactly once when it is back. On a walk (issue #31) the map tiles the
person viewed are kept by the service worker, each asked of the tile host at most once while fresh,
and show where the signal drops; a tile never viewed shows the placeholder.

Each test runs its own server and really stops it (DevTools' offline switch does not reach the
service worker's own fetches). The browser's HTTP cache is cleared before going offline, so a
picture that shows came from what "Keep offline" saved, not from an earlier visit."""
from __future__ import annotations

import re

import pytest

from pocket_helpers import (ARTIFACTS, Blackhole, Page, PocketServer, TileServer, check_walk_keeps_viewed_tiles, forget_the_walk, fixture_murals,
                            http_request, wait_for_worker)

MURALS = fixture_murals()
# The service worker waits this long for the network before the saved copy, plus slack.
PAGE_WITHIN_S = 15

KEPT_URLS_JS = """
const done = arguments[arguments.length - 1];
caches.open('pocket-kept').then((c) => c.keys()).then((keys) => done(keys.map((r) => new URL(r.url).pathname + new URL(r.url).search)),
  (e) => done({error: String(e)}));
"""

# The text of each kept copy of arguments[0]'s addresses ("" where none is kept).
KEPT_TEXTS_JS = """
const done = arguments[arguments.length - 1];
caches.open('pocket-kept').then((c) => Promise.all(arguments[0].map((u) => c.match(u, {ignoreVary: true}).then((r) => (r ? r.text() : '')))))
  .then(done, (e) => done([String(e)]));
"""


@pytest.fixture
def own(driver, tmp_path, plate_images, murals_service):
    """A server of this test's own with the murals synced, and the browser's service worker running."""
    murals_service.failing = False
    srv = PocketServer(log_path=ARTIFACTS / f"server-{tmp_path.name}.log", data_dir=tmp_path / "data",
                       env={"POCKET_PLATES_IMAGE_BASE": plate_images.base_url, **murals_service.env()}).start()
    page = Page(driver, srv.base_url)
    page.reset()
    page.open("/")
    wait_for_worker(page)
    # A clean phone: nothing kept, nothing waiting, no remembered position.
    page.js_async("""const done = arguments[arguments.length - 1];
        localStorage.clear(); sessionStorage.clear();
        document.cookie = 'murals_at=; path=/murals; max-age=0';
        Promise.all([caches.delete('pocket-kept'), new Promise((ok) => { const r = indexedDB.deleteDatabase('pocket'); r.onsuccess = r.onerror = r.onblocked = ok; })])
          .then(() => done(true));""")
    page.open("/")
    assert page.js("return !!navigator.serviceWorker.controller"), "the service worker does not control the page"
    yield srv, page
    srv.stop()


def cells(page) -> list[str]:
    return page.js("return [...document.querySelectorAll('#murals-list > li')].map(li => li.dataset.id)")


def server_favourites(srv) -> set[int]:
    html = http_request(srv.url("/murals?show=favourites")).text
    return {int(i) for i in re.findall(r'<li class="cell murals-cell[^"]*" id="mural-(\d+)"', html)}


def keep_offline(page) -> list[str]:
    """Taps Keep Offline and returns every status line it showed on the way."""
    page.js("""window.__keepLines = [];
        const status = document.querySelector('#murals-keep-status');
        new MutationObserver(() => window.__keepLines.push(status.textContent)).observe(status, {childList: true, characterData: true, subtree: true});""")
    page.find("#murals-keep-button").click()
    page.wait("/^Kept offline/.test(document.querySelector('#murals-keep-status').textContent)", 60,
              f"Keep offline did not finish: {page.text('#murals-keep-status')!r}")
    return page.js("return window.__keepLines")


def test_keep_offline_then_browse_every_mural_and_star_offline(own):
    srv, page = own
    page.open("/murals")
    page.wait(f"document.querySelectorAll('#murals-list > li').length === {len(MURALS)}", 30, "the murals did not sync")
    assert page.text("#murals-keep-button") == "Keep Offline"

    lines = keep_offline(page)
    total = len(page.js_async("""const done = arguments[arguments.length - 1];
        fetch('/murals/offline.json').then((r) => r.json()).then((j) => done(j.items))"""))
    progress = [line for line in lines if line.startswith("Saving ")]
    assert progress, f"no progress was shown: {lines}"
    assert all(re.fullmatch(rf"Saving \d+ of {total}…", line) for line in progress), progress
    assert progress[-1] == f"Saving {total} of {total}…", progress
    status = page.text("#murals-keep-status")
    assert re.fullmatch(rf"Kept offline · {len(MURALS)} murals · [\d.]+ (KB|MB)", status), status

    kept = set(page.js_async(KEPT_URLS_JS))
    for screen in ["/murals", "/murals?show=all", "/murals?show=favourites", "/murals/trail"]:
        assert screen in kept, f"{screen} was not kept: {sorted(kept)[:8]}…"
    for mural in MURALS:
        assert f"/murals/mural/{mural.id}" in kept
        assert f"/murals/mural/{mural.id}/thumbnail" in kept
        for index in range(len(mural.images)):
            assert f"/murals/mural/{mural.id}/images/{index}" in kept
    assert len(kept) == total, (len(kept), total)

    # A later visit says the copy is kept.
    page.open("/murals")
    page.wait("/^Kept offline/.test(document.querySelector('#murals-keep-status').textContent)", 10, "the kept state was not shown again")
    assert page.text("#murals-keep-button") == "Update Offline Copy"

    # Only what Keep Offline saved may answer from now on.
    page.driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    assert srv.stop() == 0

    page.open("/murals")
    assert page.js("return !!document.querySelector('[data-screen]')"), "not a Pocket page offline"
    assert len(cells(page)) == len(MURALS)
    page.wait("document.querySelector('#pocket-offline')", PAGE_WITHIN_S, "no offline bar on the kept list")
    page.wait(f"document.querySelectorAll('#murals-map .murals-pin').length === {len(MURALS)}", 20,
              "the map's pins did not show offline: " + repr(page.text("#murals-map")))
    page.wait("[...document.querySelectorAll('#murals-list img.murals-thumb')].slice(0, 3).every(i => i.complete && i.naturalWidth > 0)",
              20, "the first thumbnails did not show offline")

    for mural in (MURALS[0], MURALS[7], MURALS[-1]):
        page.open(f"/murals/mural/{mural.id}")
        assert page.js("return !!document.querySelector('#mural')"), f"mural {mural.id}'s details did not show offline"
        assert page.text("#mural-title") == mural.title
        page.wait("(() => { const i = document.querySelector('.mural-gallery__image'); return i && i.complete && i.naturalWidth > 0; })()",
                  20, f"mural {mural.id}'s picture did not show offline")

    # Two stars offline, on the kept list: they change at once and wait in the outbox.
    page.open("/murals")
    starred = [MURALS[1].id, MURALS[4].id]
    for mural_id in starred:
        page.js("document.querySelector(`#mural-${arguments[0]} .murals-star`).click()", mural_id)
        page.wait(f"document.querySelector('#mural-{mural_id} .murals-star').getAttribute('aria-pressed') === 'true'", 10,
                  f"the star of mural {mural_id} did not turn on at once")
    page.wait("/2 changes waiting/.test(document.querySelector('#pocket-offline')?.textContent ?? '')", 15,
              f"the outbox does not show two waiting changes: {page.text('#pocket-offline')!r}")
    # The saved copy of the list, opened again offline, shows the waiting stars.
    page.open("/murals")
    for mural_id in starred:
        page.wait(f"document.querySelector('#mural-{mural_id} .murals-star').getAttribute('aria-pressed') === 'true'", 10,
                  f"the waiting star of mural {mural_id} was not shown on the saved copy")

    srv.resume()
    page.wait("!document.querySelector('#pocket-offline')", 30, f"the changes were not sent: {page.text('#pocket-offline')!r}")
    assert server_favourites(srv) == set(starred)
    # Nothing is sent twice: once the outbox is empty, opening Murals again changes nothing more.
    page.open("/murals")
    page.wait("document.querySelector('#murals-keep-status')", 10)
    assert server_favourites(srv) == set(starred)
    log = srv.log_text()
    assert len(re.findall(r"POST /murals/changes 200", log)) == 2, re.findall(r"POST /murals/changes \d+", log)

    # Once sent, the kept copies the stars touched (the mural's page, named on its star's form, and
    # the list screens the page names) are read again: offline, they show the stars though nothing
    # waits any more.
    touched = [f"/murals/mural/{starred[0]}", "/murals?show=favourites"]
    page.wait(lambda _: all('aria-pressed="true"' in text for text in page.js_async(KEPT_TEXTS_JS, touched)), 20,
              "the kept copies were not read again after the stars were sent")
    assert srv.stop() == 0
    page.open(touched[0])
    assert page.js("return document.querySelector('#mural-favourite')?.getAttribute('aria-pressed')") == "true"
    page.open(touched[1])
    for mural_id in starred:
        assert page.js(f"return !!document.querySelector('#mural-{mural_id}')"), f"the kept Favourites list lacks mural {mural_id}"
    srv.resume()


def test_a_star_is_kept_against_a_server_that_never_answers(own):
    srv, page = own
    page.open("/murals")
    page.wait("document.querySelector('#murals-list > li .murals-star')", 15, "no murals listed")
    assert srv.stop() == 0
    hole = Blackhole(srv.port).start()
    mural_id = MURALS[2].id
    try:
        page.open("/murals")  # the saved copy, within the service worker's wait
        page.js("document.querySelector(`#mural-${arguments[0]} .murals-star`).click()", mural_id)
        page.wait(f"document.querySelector('#mural-{mural_id} .murals-star').getAttribute('aria-pressed') === 'true'", 10,
                  "the star did not turn on at once")
        page.wait("/1 change waiting/.test(document.querySelector('#pocket-offline')?.textContent ?? '')", 30,
                  f"the star is not waiting to be sent: {page.text('#pocket-offline')!r}")
    finally:
        hole.stop()
    srv.resume()
    page.js("window.dispatchEvent(new Event('online'))")
    page.wait("!document.querySelector('#pocket-offline')", 40, f"the star was not sent: {page.text('#pocket-offline')!r}")
    assert server_favourites(srv) == {mural_id}


# --------------------------------------------------------------------------- a walk's map where the signal drops


@pytest.fixture
def walker(driver, tmp_path, plate_images, murals_service):
    """A server of this test's own whose tiles come from a tile host of its own (OpenStreetMap's rules),
    the service worker running, and nothing kept: no tiles, no position, an empty browser cache."""
    murals_service.failing = False
    tiles = TileServer().start()
    srv = PocketServer(log_path=ARTIFACTS / f"server-{tmp_path.name}.log", data_dir=tmp_path / "data",
                       env={"POCKET_PLATES_IMAGE_BASE": plate_images.base_url, **murals_service.env(),
                            "POCKET_MURALS_TILES": tiles.template}).start()
    page = Page(driver, srv.base_url)
    page.reset()
    page.open("/")
    wait_for_worker(page)
    forget_the_walk(page, forget=lambda: driver.execute_cdp_cmd("Network.clearBrowserCache", {}))
    yield srv, tiles, page
    srv.stop()
    tiles.stop()


def test_a_walk_keeps_the_tiles_it_viewed_where_the_signal_drops(walker):
    srv, tiles, page = walker
    check_walk_keeps_viewed_tiles(page, srv, tiles, len(MURALS),
                                  forget=lambda: page.driver.execute_cdp_cmd("Network.clearBrowserCache", {}))
