"""Murals: the map with a pin per mural and the visitor's dot, the list by distance that re-orders during a
simulated walk without moving what is being read, a mural's gallery and full-screen pictures, favourites
that persist, the Favourites filter, the trail, the quiet offline line, real and denied geolocation,
the pages without JavaScript, and `pocket serve --demo` without Leaflet.

The session server reads its murals from the `murals_service` fixture (24 murals along the bundled walk)
and its map tiles from that fixture's tile host, which refuses what OpenStreetMap refuses (a tile with no
Referer), so nothing here touches the internet. Favourites and visits are
server-side, so every test starts from none of either, set over raw HTTP.
"""

import re
import time

import pytest

from pocket_helpers import (ARTIFACTS, HOSTILE_MURAL_ARTIST, HOSTILE_MURAL_TITLE, VIEWPORTS, Checks, PocketServer,
                            check_real_tiles_with_only_the_origin, fixture_murals, http_request, map_tiles)

MURALS = fixture_murals()
COUNT = len(MURALS)
ALL_VIEWPORTS = list(VIEWPORTS)
PINS = "#murals-map .leaflet-marker-icon.murals-pin"


def _csrf(html: str) -> str:
    m = re.search(r'<meta name="csrf-token" content="([^"]+)"', html)
    assert m, "no csrf-token meta tag"
    return m.group(1)


class MuralsClient:
    """The owner's murals over raw HTTP, as another of the owner's devices would use them."""

    def __init__(self, base_url: str):
        self.base_url = base_url
        res = http_request(base_url + "/murals")
        assert res.status == 200, f"GET /murals answered {res.status}"
        self.token = _csrf(res.text)

    def post(self, path: str, data: dict | None = None):
        res = http_request(self.base_url + path, "POST", {**(data or {}), "_csrf": self.token}, follow_redirects=False)
        assert res.status in (200, 303), f"POST {path} answered {res.status}"
        return res

    def reset(self):
        for m in MURALS:
            self.post(f"/murals/mural/{m.id}/favourite", {"favourite": "0"})
        self.post("/murals/visited/clear")
        self.post("/murals/refresh")


@pytest.fixture
def murals(page, server, murals_service):
    """A known state: the service answering, every mural synced, no favourites, no visits, no remembered
    position or simulation, and the geolocation permission not yet asked."""
    murals_service.failing = False
    deadline = time.monotonic() + 30
    client = MuralsClient(server.base_url)
    while time.monotonic() < deadline:
        client.reset()
        if http_request(server.base_url + "/murals").text.count('<li class="cell murals-cell') == COUNT:
            break
        time.sleep(0.5)
    else:
        raise AssertionError("the server never showed the fixture's murals")
    page.driver.get(server.base_url + "/offline")
    page.js("document.cookie = 'murals_at=; path=/murals; max-age=0'; sessionStorage.clear()")
    set_geolocation(page, "prompt")
    yield client
    page.driver.execute_cdp_cmd("Emulation.clearGeolocationOverride", {})
    murals_service.failing = False


def set_geolocation(page, setting: str, at: tuple[float, float] | None = None):
    page.driver.execute_cdp_cmd("Browser.setPermission", {
        "permission": {"name": "geolocation"}, "setting": setting, "origin": page.base_url})
    if at:
        page.driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": at[0], "longitude": at[1], "accuracy": 5})


def open_murals(page, viewport="iphone-portrait", path="/murals"):
    page.set_viewport(*VIEWPORTS[viewport], reload=False)
    page.open(path)
    page.wait(f"document.querySelectorAll({PINS!r}).length === {COUNT}", 10, "the map did not show a pin per mural")
    return page


def list_state(page) -> dict:
    return page.js("""
        const pane = document.querySelector('#murals-list-pane'), top = pane.getBoundingClientRect().top;
        const cells = [...document.querySelectorAll('#murals-list > li')];
        const under = cells.find((li) => li.getBoundingClientRect().bottom > top + 1);
        return {order: cells.map((li) => li.dataset.id), scrollTop: pane.scrollTop,
                clamped: pane.scrollTop >= pane.scrollHeight - pane.clientHeight - 1,
                distances: cells.map((li) => li.querySelector('[data-distance]').textContent),
                top: under ? under.dataset.id : null,
                offset: under ? under.getBoundingClientRect().top - top : null};""")


def simulate(page, choice: str):
    page.find("#murals-simulate-button").click()
    page.wait("document.querySelector('#murals-simulate').open", 10, "the Simulate action sheet did not open")
    page.settle("#murals-simulate")
    page.find(f"#murals-simulate [data-simulate][{choice}]").click()
    page.wait("!document.querySelector('#murals-simulate').open", 10, "the action sheet did not close")


# --------------------------------------------------------------------------- map and layout


@pytest.mark.parametrize("viewport", ALL_VIEWPORTS)
def test_map_pins_tiles_and_layout(page, murals, viewport):
    open_murals(page, viewport)
    c = Checks()
    c.equal(page.h1(), "Murals", "title")
    page.wait("document.querySelector('#murals-map img.leaflet-tile-loaded')", 10, "no map tile loaded from the tile host")
    c.that("OpenStreetMap" in (page.text("#murals-map .leaflet-control-attribution") or ""), "no OpenStreetMap attribution")
    c.equal(len(page.finds("#murals-list > li")), COUNT, "cells in the list")
    c.that(page.exists("#murals-map .leaflet-control-zoom-in"), "no zoom control")
    map_rect, list_rect = page.rect("#murals-map"), page.rect("#murals-list-pane")
    c.that(map_rect["height"] > 150 and map_rect["width"] > 250, f"the map is too small: {map_rect}")
    if viewport == "iphone-portrait":
        c.that(list_rect["top"] >= map_rect["bottom"] - 1, f"portrait: the list is not below the map ({map_rect}, {list_rect})")
    else:
        c.that(list_rect["left"] >= map_rect["right"] - 1, f"{viewport}: map and list are not side by side ({map_rect}, {list_rect})")
    ok, msg = page.no_horizontal_overflow()
    c.that(ok, msg)
    # Thumbnails are lazy and of one fixed size.
    sizes = page.js("return [...document.querySelectorAll('#murals-list img.murals-thumb')].map((i) => [i.loading, i.getBoundingClientRect().width, i.getBoundingClientRect().height])")
    c.that(sizes and all(s == sizes[0] for s in sizes) and sizes[0][0] == "lazy", f"thumbnails not lazy and uniform: {sizes[:3]}")
    # Without a position the map is centred on New Brighton at street zoom, and no dot is shown.
    c.equal(page.js("return document.querySelectorAll('#murals-map path.murals-user').length"), 0, "user dots before any position")
    c.that("centre of New Brighton" in page.text("#murals-distance-caption"), "caption without a position")
    c.done()


def test_pin_callout_leads_to_the_mural(page, murals):
    open_murals(page)
    page.js("document.querySelector(arguments[0] + '[title=\"Mural 05\"]').click()", PINS)
    page.wait("document.querySelector('.leaflet-popup .murals-popup')", 10, "tapping a pin opened no callout")
    c = Checks()
    c.equal(page.text(".leaflet-popup .murals-popup__title"), "Mural 05", "callout title")
    c.equal(page.text(".leaflet-popup .murals-popup__artist"), "Unknown artist", "callout artist (the service has none)")
    c.done()
    page.find(".leaflet-popup a.murals-popup").click()
    page.wait("location.pathname === '/murals/mural/5'", 10, "the callout did not lead to the mural")
    page.wait("document.querySelector('[data-screen] h1.navbar__title')?.textContent.trim() === 'Mural 05'", 10)


# --------------------------------------------------------------------------- map tiles (OpenStreetMap's rules)


def test_map_tiles_are_the_real_ones_and_carry_only_the_origin(page, murals, server, murals_service):
    """OpenStreetMap refuses a tile that comes with no Referer: the tiles on screen are the host's real
    ones, never its "blocked" tile, and the host hears only Pocket's origin, never a page's path or query."""
    check_real_tiles_with_only_the_origin(page, murals_service.tiles, server.base_url,
                                          open_murals=lambda: open_murals(page, path="/murals?show=all&at=53.4379,-3.0437"),
                                          forget=lambda: page.driver.execute_cdp_cmd("Network.clearBrowserCache", {}))


def test_a_refusing_tile_host_is_said_once_and_shows_no_blocked_tiles(page, murals, murals_service):
    host = murals_service.tiles
    page.open("/")
    page.js_async("const done = arguments[arguments.length - 1]; caches.delete('pocket-tiles').then(() => done(true), () => done(false));")
    page.driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    page.open("/")
    assert page.js("return !!navigator.serviceWorker?.controller"), "the service worker does not control the page"
    host.refuse = 429
    try:
        open_murals(page)
        page.wait("!document.querySelector('#murals-map-refused').hidden", 15, "a refusing tile host was not said")
        note = page.text("#murals-map-refused")
        assert "refused" in note and "HTTP 429" in note and "POCKET_MURALS_TILES" in note, note
        assert len(page.finds("#murals-map-refused")) == 1
        page.wait(lambda d: len(map_tiles(page)["placeholder"]) >= 4, 15, f"no placeholder tiles: {map_tiles(page)}")
        shown = map_tiles(page)
        assert not shown["blocked"] and not shown["other"], f"the host's blocked tile showed: {(shown['blocked'] + shown['other'])[:3]}"
    finally:
        host.refuse = None


# --------------------------------------------------------------------------- location


@pytest.mark.parametrize("viewport", ALL_VIEWPORTS)
def test_walk_replay_reorders_the_list_without_jumping(page, murals, viewport):
    open_murals(page, viewport)
    # Scroll into the list, so the re-ordering has something to keep still.
    page.js("""const pane = document.querySelector('#murals-list-pane'), list = document.querySelector('#murals-list');
               const cell = list.children[0].getBoundingClientRect().height;
               pane.scrollTop = list.offsetTop - pane.offsetTop + cell * 2.4;""")
    before = list_state(page)
    assert before["scrollTop"] > 0 and before["top"], f"could not scroll into the list: {before}"
    simulate(page, 'data-speed="20"')
    page.wait("document.querySelector('#murals-map path.murals-user')", 10, "no user dot during the walk")
    c = Checks()
    orders = {tuple(before["order"])}
    firsts = {before["order"][0]}
    deadline = time.monotonic() + 40
    anchor = before
    while time.monotonic() < deadline and len(firsts) < 3:
        now = list_state(page)
        orders.add(tuple(now["order"]))
        firsts.add(now["order"][0])
        if now["clamped"]:
            # The anchored cell moved so far down that the pane cannot scroll that far: nothing can hold it.
            anchor = now
            continue
        if now["top"] != anchor["top"] or abs(now["offset"] - anchor["offset"]) > 1.5:
            c.that(False, f"the list jumped: cell {anchor['top']} at {anchor['offset']:.1f}px became "
                          f"cell {now['top']} at {now['offset']:.1f}px (order {now['order'][:5]}…)")
            break
        time.sleep(0.05)
    c.that(len(firsts) >= 3, f"the nearest mural changed only {len(firsts) - 1} times during the walk")
    c.that(len(orders) >= 3, "the list order hardly changed during the walk")
    after = list_state(page)
    c.that(after["distances"] != before["distances"], "distances did not change during the walk")
    c.that(page.text("#murals-distance-caption") == "Distances from the simulated location", "caption during the walk")
    c.that("walk at 20×" in (page.text("#murals-location-note") or ""), "no quiet line saying a walk is simulated")
    simulate(page, 'data-simulate="off"')
    c.done()


def test_walk_marks_passed_murals_visited(page, murals, server):
    open_murals(page)
    simulate(page, 'data-speed="20"')
    page.wait("document.querySelectorAll('#murals-list > li.is-visited').length >= 3", 20,
              "no mural was marked visited while walking past them")
    page.wait(f"document.querySelectorAll({PINS!r} + '.is-visited').length >= 3", 10, "visited pins not marked")
    simulate(page, 'data-simulate="off"')
    # Kept by the server: a fresh page shows them visited without any walking.
    page.open("/murals")
    assert len(page.finds("#murals-list > li.is-visited")) >= 3, "visited murals were not kept"


def test_new_brighton_point_and_trail(page, murals):
    open_murals(page)
    simulate(page, 'data-simulate="fixed"')
    page.wait("document.querySelector('#murals-map path.murals-user')", 10, "no user dot at the New Brighton point")
    page.wait("document.cookie.includes('murals_at=')", 10, "the position was not kept for the server")
    page.find("#murals-trail-button").click()
    page.wait("!document.querySelector('#murals-trail-summary').hidden", 10, "the trail's length was not shown")
    c = Checks()
    summary = page.text("#murals-trail-summary")
    c.that(re.fullmatch(rf"Trail: \d+(\.\d)? k?m through {COUNT} murals", summary), f"trail summary: {summary!r}")
    c.that(page.exists("#murals-map path.murals-trail-line"), "the trail is not drawn on the map")
    c.equal(page.js("return document.querySelector('#murals-trail-button').getAttribute('aria-pressed')"), "true", "Trail pressed")
    page.find("#murals-trail-button").click()
    page.wait("document.querySelector('#murals-trail-summary').hidden", 10, "the trail did not go away")
    c.that(not page.exists("#murals-map path.murals-trail-line"), "the trail line stayed")
    c.done()


def test_real_location_centres_the_map_and_orders_the_list(page, murals):
    target = MURALS[17]
    set_geolocation(page, "granted", (target.lat, target.lon))
    open_murals(page)
    page.find("#murals-locate").click()
    page.wait("document.querySelector('#murals-map path.murals-user')", 10, "no user dot from the browser's location")
    page.wait(f"document.querySelector('#murals-list > li')?.dataset.id === '{target.id}'", 10,
              "the nearest mural to the browser's location is not first")
    assert page.text("#murals-distance-caption") == "Distances from you"
    assert page.text("#mural-%d [data-distance]" % target.id) == "0 m"


def test_denied_location_says_so_quietly_and_offers_simulation(page, murals):
    set_geolocation(page, "denied")
    open_murals(page)
    page.find("#murals-locate").click()
    # "Finding your location…" shows first, until the browser's refusal arrives.
    page.wait("!document.querySelector('#murals-location-note').hidden && "
              "!document.querySelector('#murals-location-note').textContent.includes('Finding')", 10,
              "no line about the refused location")
    note = page.text("#murals-location-note")
    assert "Location access is off" in note and "Simulate" in note, note
    assert not page.alert_present(), "a pop-up appeared"
    assert page.find("#murals-simulate-button").is_displayed()


# --------------------------------------------------------------------------- favourites


def wait_until_stored(murals, mural_id: int):
    """Waits for the star to reach the server (the outbox sends it a moment after the tap), so a
    reload then shows what the server stored rather than what the outbox still holds."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        html = http_request(murals.base_url + "/murals?show=favourites").text
        if f'id="mural-{mural_id}"' in html:
            return
        time.sleep(0.1)
    raise AssertionError(f"the star on mural {mural_id} never reached the server")


def test_favourite_from_the_list_persists_and_filters(page, murals):
    open_murals(page)
    token = page.mark()
    star = "#mural-5 .murals-star"
    page.find(star).click()
    page.wait(f"document.querySelector('{star}').getAttribute('aria-pressed') === 'true'", 10, "the star did not turn on")
    c = Checks()
    c.equal(page.marker(), token, "the star reloaded the page")
    c.that(page.exists(PINS + ".is-favourite"), "the mural's pin is not marked favourite")
    c.equal(page.js(f"return document.querySelector('{star}').getAttribute('aria-label')"),
            "Remove Mural 05 from favourites", "star label")
    wait_until_stored(murals, 5)
    page.driver.refresh()
    page.wait_ready()
    c.equal(page.js(f"return document.querySelector('{star}').getAttribute('aria-pressed')"), "true", "after reload")
    page.js("document.querySelector('#murals-filter-favourites').click()")
    page.wait("location.search.includes('show=favourites')", 10, "the Favourites filter did not apply")
    page.wait("document.querySelectorAll('#murals-list > li').length === 1", 10, "the filter shows more than the favourite")
    page.wait(f"document.querySelectorAll({PINS!r}).length === 1", 10, "the map shows more than the favourite")
    c.equal(page.text("#murals-list > li .murals-cell__title"), "Mural 05", "the favourite")
    c.done()


def test_favourite_from_the_detail_and_gallery(page, murals):
    page.set_viewport(*VIEWPORTS["iphone-portrait"], reload=False)
    page.open("/murals/mural/1")
    c = Checks()
    c.equal(page.h1(), "Mural 01", "title")
    c.equal(page.text("#mural-artist"), "Artist A", "artist")
    c.that("About Mural 01." in page.text("#mural-info"), "info")
    c.that(re.fullmatch(r"\d+ m|\d\.\d km", page.text("#mural-distance") or ""), f"distance: {page.text('#mural-distance')}")
    href = page.js("return document.querySelector('#mural-directions').href")
    c.that(href.startswith("https://www.google.com/maps/dir/?api=1&destination=53.43"), f"directions: {href}")
    items = page.finds(".mural-gallery__item")
    c.equal(len(items), 3, "pictures in the gallery")
    page.wait("[...document.querySelectorAll('.mural-gallery__image')].slice(0, 2).every((i) => i.complete && i.naturalWidth > 0)", 10,
              "gallery pictures did not load through Pocket")
    c.equal(page.js("return getComputedStyle(document.querySelector('.mural-gallery')).scrollSnapType"), "x mandatory", "scroll snap")
    page.js("const g = document.querySelector('.mural-gallery'); g.scrollTo({left: g.children[1].offsetLeft, behavior: 'instant'})")
    page.wait("document.querySelector('.mural-gallery').scrollLeft > 100", 10, "the gallery does not swipe")
    items[1].click()
    page.wait("document.querySelector('#mural-picture-1').open", 10, "tapping a picture did not open it full screen")
    rect = page.rect("#mural-picture-1")
    c.that(rect["width"] >= 389 and rect["height"] >= 843, f"the full-screen picture does not fill the screen: {rect}")
    page.wait("document.querySelector('#mural-picture-1 img').complete && document.querySelector('#mural-picture-1 img').naturalWidth > 0", 10)
    page.find("#mural-picture-1 .mural-viewer__close").click()
    page.wait("!document.querySelector('#mural-picture-1').open", 10, "Done did not close the picture")
    # The star on the detail page, persisted.
    page.find("#mural-favourite").click()
    page.wait("document.querySelector('#mural-favourite').getAttribute('aria-pressed') === 'true'", 10)
    wait_until_stored(murals, 1)
    page.driver.refresh()
    page.wait_ready()
    c.equal(page.js("return document.querySelector('#mural-favourite').getAttribute('aria-pressed')"), "true", "after reload")
    c.done()


# --------------------------------------------------------------------------- offline, escaping, no JavaScript


def test_offline_keeps_the_murals_with_a_quiet_line(page, murals, murals_service):
    open_murals(page)
    murals_service.failing = True
    page.find("#murals-refresh").click()
    page.wait("document.querySelector('#murals-offline')", 10, "no offline line after a failed refresh")
    c = Checks()
    c.equal(page.text("#murals-offline"), "Offline — showing saved murals", "offline line")
    c.equal(len(page.finds("#murals-list > li")), COUNT, "murals still listed")
    c.that(not page.alert_present() and not page.js("return !!document.querySelector('dialog[open]')"), "a pop-up appeared")
    page.wait(f"document.querySelectorAll({PINS!r}).length === {COUNT}", 10, "pins gone while offline")
    murals_service.failing = False
    page.find("#murals-refresh").click()
    page.wait("!document.querySelector('#murals-offline')", 10, "the offline line stayed after a good refresh")
    c.that((page.text("#murals-updated") or "").startswith("Updated today"), "no last-sync time")
    c.done()


def test_hostile_titles_are_shown_as_text(page, murals):
    open_murals(page)
    c = Checks()
    c.equal(page.text("#mural-3 .murals-cell__title"), HOSTILE_MURAL_TITLE, "hostile title in the list")
    c.equal(page.text("#mural-3 .murals-cell__artist"), HOSTILE_MURAL_ARTIST, "hostile artist in the list")
    page.js("document.querySelector('#murals-map .leaflet-marker-icon[data-id=\"3\"]').click()")
    page.wait("document.querySelector('.leaflet-popup .murals-popup__title')", 10)
    c.equal(page.text(".leaflet-popup .murals-popup__title"), HOSTILE_MURAL_TITLE, "hostile title in the callout")
    c.that(not page.exists("img[src='x']") and not page.exists(".leaflet-popup script"), "markup from the title was rendered")
    page.open("/murals/mural/3")
    c.equal(page.h1(), HOSTILE_MURAL_TITLE, "hostile title as the page title")
    c.that(page.driver.title != "pwned", "a script from the data ran")
    c.done()


def test_without_javascript_the_list_and_favourites_work(page, murals):
    target = MURALS[20]
    page.disable_scripts()
    page.open(f"/murals?at={target.lat:.6f},{target.lon:.6f}")
    c = Checks()
    c.equal(page.js("return document.querySelector('#murals-list > li').dataset.id"), str(target.id), "nearest first")
    c.that(page.find("#murals-map-nojs").is_displayed(), "no word that the map needs JavaScript")
    c.that(not page.find("#murals-locate").is_displayed(), "a location button that cannot work")
    page.find(f"#mural-{target.id} .murals-star").click()
    page.wait(f"document.querySelector('#mural-{target.id} .murals-star')?.getAttribute('aria-pressed') === 'true'", 10,
              "the star form did not work without JavaScript")
    c.that(f"at={target.lat:.6f}" in page.path(), f"the position was lost: {page.path()}")
    c.done()


# --------------------------------------------------------------------------- --demo, without Leaflet


def test_demo_service_without_leaflet(page, tmp_path):
    demo = PocketServer(log_path=ARTIFACTS / "server-murals-demo.log", data_dir=tmp_path / "data",
                        env={"POCKET_LEAFLET_DIR": str(tmp_path / "no-leaflet")}, args=["--demo"])
    demo.start(timeout=30)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and http_request(demo.url("/murals")).text.count('<li class="cell murals-cell') < 24:
            time.sleep(0.3)
        page.base_url = demo.base_url
        set_geolocation(page, "prompt")
        page.open("/murals")
        c = Checks()
        c.equal(page.text("#murals-demo"), "Demo data", "demo label")
        c.equal(len(page.finds("#murals-list > li")), 24, "demo murals")
        c.that("not installed" in (page.text("#murals-map-missing") or ""), "no line saying the map library is missing")
        c.equal(http_request(demo.url("/murals/leaflet/leaflet.js")).status, 404, "Leaflet served although missing")
        feed = http_request(demo.url("/murals/demo-service/data2.php?class=newbrighton_murals"))
        c.that(feed.status == 200 and feed.text.startswith('{"newbrighton_murals":['), "the demo service's feed")
        page.wait("[...document.querySelectorAll('#murals-list img.murals-thumb')].slice(0, 3).every((i) => i.complete && i.naturalWidth > 0)", 10,
                  "demo thumbnails did not load")
        c.done()
    finally:
        # Leave the page first: lazy thumbnails still on their way would fail against a stopped server.
        page.driver.get("about:blank")
        code = demo.stop(timeout=10)
    assert code == 0, f"the demo server exited with {code}"


IPHONE_AGENT = ("Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
                "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1")


@pytest.mark.parametrize("agent,maps", [(IPHONE_AGENT, "https://maps.apple.com/"), (None, "https://www.google.com/maps/")])
def test_directions_open_the_phones_own_maps(page, murals, agent, maps):
    """An iPhone gets Apple Maps, anything else Google Maps: opened from the list, and directly."""
    original = page.driver.execute_script("return navigator.userAgent")
    if agent:
        page.driver.execute_cdp_cmd("Network.setUserAgentOverride", {"userAgent": agent, "platform": "iPhone"})
    try:
        open_murals(page)
        page.js("document.querySelector('a[href^=\"/murals/mural/\"]').click()")
        page.wait("!!document.querySelector('#mural-directions')", 10, "the mural's page did not open from the list")
        assert page.js("return document.querySelector('#mural-directions').href").startswith(maps)
        page.open(page.js("return location.pathname"))
        assert page.js("return document.querySelector('#mural-directions').href").startswith(maps)
    finally:
        page.driver.execute_cdp_cmd("Network.setUserAgentOverride", {"userAgent": original})
