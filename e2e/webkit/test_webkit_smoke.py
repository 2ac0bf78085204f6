"""WebKit smoke set (issue #31): signing in, every app's main screen, Settings' alert before removing a
person, the service worker, and a change made with the server away that reaches it exactly once when it is back — in WebKitGTK, the engine of
every iPhone browser. The thorough tests are e2e/browser's (Chromium); these prove the same pages work
in WebKit at all."""
from __future__ import annotations

import html
import re

import pytest

from pocket_helpers import (OWNER_NAME, OWNER_PASSWORD, SW_READY_JS, Checks, PocketServer, TileServer,
                            check_real_tiles_with_only_the_origin, check_walk_keeps_viewed_tiles, forget_the_walk, fixture_murals, http_request,
                            wait_for_worker)
from person_rows import rows_of
from webkit_helpers import ARTIFACTS, WebKitPage, clear_http_cache, server_env

WAIT_S = 20

# Every app's main screen, and the title its navbar shows.
MAIN_SCREENS = ["/", "/plates", "/remote", "/murals", "/converter", "/conference"]

# What a drawn screen has: its navbar title, a main landmark, every stylesheet read, every image that
# is not lazy decoded, and nothing wider than the phone.
SCREEN_JS = r"""
const sheets = [...document.styleSheets].map((s) => { try { return [s.href, s.cssRules.length]; } catch (e) { return [s.href, -1]; } });
const images = [...document.images].filter((i) => i.loading !== 'lazy' && !i.closest('.leaflet-container'));
const main = document.querySelector('main');
return {
  h1: document.querySelector('[data-screen] h1.navbar__title')?.textContent.trim() ?? null,
  main: main ? main.getBoundingClientRect().height : 0,
  emptySheets: sheets.filter(([, n]) => n <= 0).map(([h]) => h),
  sheets: sheets.length,
  scrollWidth: document.documentElement.scrollWidth,
  innerWidth: window.innerWidth,
};
"""


def server_h1(path: str, srv) -> str | None:
    """The navbar title in the HTML the server sends for `path` (what WebKit must end up showing)."""
    text = http_request(srv.url(path)).text
    m = re.search(r'<h1 class="navbar__title"[^>]*>(.*?)</h1>', text, re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", m.group(1))).strip() if m else None


# --------------------------------------------------------------------------- signing in


def test_signing_in_with_the_form(page, server):
    page.sign_out_browser()
    page.open("/")
    assert page.exists("#signin-form"), f"a phone with no session was not asked to sign in (h1 {page.h1()!r})"
    page.find("#signin-name").send_keys(OWNER_NAME)
    page.find("#signin-password").send_keys(OWNER_PASSWORD)
    page.find("#signin-button").click()
    page.wait("location.pathname === '/' && !!document.querySelector('meta[name=\"pocket-device\"]')", WAIT_S,
              "signing in with the form did not lead to the home screen")
    page.wait_ready()
    c = Checks()
    c.equal(page.h1(), "Pocket", "the home screen's title after signing in")
    c.that("pocket_session" not in page.js("return document.cookie"), "the session cookie is readable from scripts")
    session = [k for k in page.driver.get_cookies() if k["name"] == "pocket_session"]
    c.that(session and session[0].get("httpOnly"), f"no HttpOnly session cookie in WebKit: {session}")
    page.open("/plates")
    c.that(not page.exists("#signin-form"), "the next page asked to sign in again")
    c.equal(page.h1(), server_h1("/plates", server), "the next page's title")
    c.done()


@pytest.mark.console_allow(r"status of 401")
def test_a_wrong_password_is_refused_and_says_so(page, server):
    page.sign_out_browser()
    page.open("/signin")
    page.find("#signin-name").send_keys(OWNER_NAME)
    page.find("#signin-password").send_keys("not the password")
    page.find("#signin-button").click()
    page.wait("document.readyState === 'complete' && !!document.querySelector('#signin-problem')", WAIT_S,
              "a wrong password did not say so")
    assert page.exists("#signin-form") and not page.exists('meta[name="pocket-device"]')


# --------------------------------------------------------------------------- Settings


def test_removing_a_person_asks_first_in_an_alert_then_deletes_their_data(page, server):
    """Settings' Remove opens the alert (a modal <dialog>); Cancel keeps the person, Remove removes them
    and every row of theirs."""
    server.add_person("wren", "wren's own password")
    cookie, token = server.sign_in("wren", "wren's own password")
    design = http_request(server.url("/design"), headers={"Cookie": cookie}).text
    wren_id = int(re.search(r'<meta name="pocket-device" [^>]*data-person="(\d+)"', design).group(1))
    spot = http_request(server.url("/plates/states/OR/spot"), "POST", {"_csrf": token}, {"Cookie": cookie}, follow_redirects=False)
    assert spot.status == 303
    assert rows_of(wren_id, server.data_dir)["plates.sqlite"] > 0

    page.open("/settings")
    remove, alert = "a[aria-label='Remove wren']", f"#remove-person-{wren_id}"
    page.click(remove)
    page.wait(f"document.querySelector('{alert}')?.open === true", WAIT_S, "Remove did not ask first")
    assert page.text(f"{alert} .alert__title") == "Remove wren?"
    page.click(f"{alert} .alert__button--cancel")
    page.wait(f"document.querySelector('{alert}')?.open === false", WAIT_S, "Cancel did not close the alert")
    assert http_request(server.url("/plates"), headers={"Cookie": cookie}).status == 200

    page.click(remove)
    page.wait(f"document.querySelector('{alert}')?.open === true", WAIT_S)
    page.click(f"{alert} .alert__button--destructive")
    page.wait("document.querySelector('#settings-notice')?.textContent === 'Removed.'", WAIT_S,
              f"no notice after removing: {page.text('main')!r}")
    assert not page.exists(remove)
    assert http_request(server.url("/plates"), headers={"Cookie": cookie}, follow_redirects=False).status in (302, 303, 401)
    left = rows_of(wren_id, server.data_dir)
    assert left and all(count == 0 for count in left.values()), left


# --------------------------------------------------------------------------- every app's main screen


@pytest.mark.parametrize("path", MAIN_SCREENS)
def test_main_screen_renders(page, server, path):
    page.open(path)
    shown = page.js(SCREEN_JS)
    # decode() rejects for an image that cannot be drawn; WebKit gives an SVG with only a viewBox no
    # natural width, so that is no test of it.
    broken = page.js_async("""const done = arguments[arguments.length - 1];
        const images = [...document.images].filter((i) => i.loading !== 'lazy' && !i.closest('.leaflet-container'));
        Promise.allSettled(images.map((i) => i.decode())).then((r) => done(r.map((x, n) => x.status === 'rejected' ? images[n].currentSrc || images[n].src : null).filter(Boolean)));""")
    c = Checks()
    c.that(shown["h1"], f"{path}: no navbar title")
    c.equal(shown["h1"], server_h1(path, server), f"{path}: navbar title")
    c.that(shown["main"] > 0, f"{path}: no visible main landmark")
    c.that(shown["sheets"] > 0 and not shown["emptySheets"], f"{path}: stylesheets not read: {shown['emptySheets']}")
    c.that(not broken, f"{path}: images that did not load: {broken}")
    c.that(shown["scrollWidth"] <= 390 and shown["innerWidth"] == 390,
           f"{path}: wider than the phone: scrollWidth {shown['scrollWidth']}, innerWidth {shown['innerWidth']}")
    c.done()


def test_murals_map_shows_the_tile_hosts_real_tiles_with_only_the_origin_as_referer(page, server, murals_service):
    def open_murals():
        page.open("/murals")
        page.wait("document.querySelectorAll('#murals-map .leaflet-marker-icon.murals-pin').length > 0", WAIT_S, "the map shows no pins")
    # An earlier test's /murals drew these tiles: WebKit's HTTP cache would answer them (their
    # Cache-Control is a week) and the tile host would hear nothing.
    check_real_tiles_with_only_the_origin(page, murals_service.tiles, server.base_url, open_murals,
                                          forget=lambda: clear_http_cache(page.driver))


@pytest.fixture
def walker(driver, tmp_path, plate_images, murals_service):
    """A server of this test's own whose tiles come from a tile host of its own, both stopped by the test."""
    tiles = TileServer().start()
    srv = PocketServer(log_path=ARTIFACTS / f"server-{tmp_path.name}.log", data_dir=tmp_path / "data",
                       env={**server_env(plate_images, murals_service=murals_service), "POCKET_MURALS_TILES": tiles.template})
    try:  # a set-up that fails stops them too, so no server outlives the suite
        srv.start()
        page = WebKitPage(driver, srv.base_url)
        page.reset()
        page.open("/")
        wait_for_worker(page)
        forget_the_walk(page, forget=lambda: clear_http_cache(driver))
        yield srv, tiles, page
    finally:
        srv.stop()
        tiles.stop()


# While Pocket and the tile host are away WebKit reports each failed load.
@pytest.mark.console_allow(r"Could not connect|Failed to load resource|Connection refused|FetchEvent|network")
def test_a_walk_keeps_the_tiles_it_viewed_where_the_signal_drops(walker):
    srv, tiles, page = walker
    # Offline, only what the service worker kept may show, not WebKit's HTTP cache.
    check_walk_keeps_viewed_tiles(page, srv, tiles, len(fixture_murals()), forget=lambda: clear_http_cache(page.driver))


# --------------------------------------------------------------------------- the service worker


def test_service_worker_registers_and_controls_the_page(page, server):
    page.open("/")
    reg = page.js_async(SW_READY_JS)
    assert "error" not in reg, reg["error"]
    c = Checks()
    c.equal(reg["scope"], server.base_url + "/", "the worker's scope")
    c.that(reg["script"].startswith(server.base_url + "/sw.js"), f"the worker's script: {reg['script']}")
    c.equal(reg["state"], "activated", "the worker's state")
    page.open("/")
    c.that(page.js("return !!navigator.serviceWorker.controller"), "the service worker does not control the page")
    caches = page.js_async("const done = arguments[arguments.length - 1]; caches.keys().then(done, (e) => done(String(e)))")
    c.that(isinstance(caches, list) and caches, f"the worker keeps no cache: {caches}")
    c.done()


# --------------------------------------------------------------------------- a change made offline, sent once


@pytest.fixture
def own(driver, tmp_path, plate_images):
    """A server of this test's own (it is stopped and started again), the browser on it with Pocket's
    service worker controlling its pages, as a phone is once it has opened Pocket."""
    srv = PocketServer(log_path=ARTIFACTS / f"server-{tmp_path.name}.log", data_dir=tmp_path / "data",
                       env=server_env(plate_images))
    try:  # a set-up that fails stops it too, so no server outlives the suite
        srv.start()
        page = WebKitPage(driver, srv.base_url)
        page.reset()
        page.open("/")
        wait_for_worker(page)
        page.open("/")
        assert page.js("return !!navigator.serviceWorker.controller"), "the service worker does not control the page"
        yield srv, page
    finally:
        srv.stop()


def server_spotted(srv) -> set[str]:
    """The states the server's game has spotted, read from its own page (not the browser's copy)."""
    text = http_request(srv.url("/plates")).text
    return set(re.findall(r'<li class="cell [^"]*cell--spotted[^"]*" id="state-[A-Z]{2}" data-state="([A-Z]{2})"', text))


def change_posts(srv) -> int:
    """How many changes the server was sent (its log has a line per request)."""
    return len(re.findall(r"POST /plates/changes\b", srv.log_text()))


# While the server is away WebKit reports each failed load of the page and its worker; Plates' own
# re-read of the page (a fetch it catches) cut off by the server going is worded "access control checks".
@pytest.mark.console_allow(r"Could not connect|Failed to load resource|Connection refused|FetchEvent|network",
                           r"Fetch API cannot load \S+/plates due to access control checks")
def test_a_spot_made_offline_reaches_the_server_exactly_once(own):
    srv, page = own
    page.open("/plates")
    page.wait("!!document.querySelector('li[data-state]')", WAIT_S, "no states on /plates")
    assert srv.stop() == 0

    page.open("/plates")  # the phone's saved copy
    button = page.find("#state-AL form button")
    page.js("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    page.wait("document.querySelector('#state-AL').classList.contains('cell--spotted')", WAIT_S,
              "Alabama did not turn green at once")
    page.wait("/1 change waiting/.test(document.querySelector('#pocket-offline')?.textContent ?? '')", WAIT_S,
              "the offline bar does not say 1 change is waiting")
    assert change_posts(srv) == 0

    srv.resume()
    page.js("window.dispatchEvent(new Event('online'))")
    page.wait("!document.querySelector('#pocket-offline')", 40, "the waiting change was not sent")
    c = Checks()
    c.equal(server_spotted(srv), {"AL"}, "the server's spotted states")
    c.that("1 / 50" in http_request(srv.url("/plates/trips")).text, "the server's trip has not exactly 1 spot")
    page.open("/plates")  # nothing is sent again, and the page shows the server's game
    page.wait("document.querySelectorAll('li[data-state].cell--spotted').length === 1", WAIT_S, "the page lost the spot")
    page.open("/")
    c.equal(change_posts(srv), 1, "changes the server was sent")
    c.equal(server_spotted(srv), {"AL"}, "the server's spotted states after reloading")
    c.done()
