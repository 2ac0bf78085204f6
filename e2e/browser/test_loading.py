"""A first visit on a slow phone network (#37): each page names every module it will run up front
(`<link rel="modulepreload">`), so the browser fetches the graph in one round instead of one level
of imports per round trip; and text arrives gzip-compressed: the stylesheet, every module and the
page itself. Checked in Chromium with its HTTP cache off, from what the page's own Resource Timing
entries say was fetched."""
import pytest

from pocket_helpers import Page

SCREENS = ["/", "/plates", "/murals", "/conference", "/converter", "/remote/tv"]

LOADED_JS = """
const entries = performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.startsWith('/static/'));
const nav = performance.getEntriesByType('navigation')[0];
return {
  preloads: [...document.querySelectorAll('link[rel=modulepreload]')].map((l) => l.href),
  entry: document.querySelector('script[type=module][src]').src,
  modules: entries.filter((e) => e.name.includes('/static/js/')).map((e) => e.name),
  text: entries.filter((e) => /\\.(css|js)(\\?|$)/.test(new URL(e.name).pathname + '?'))
               .map((e) => ({name: e.name, encoded: e.encodedBodySize, decoded: e.decodedBodySize})),
  page: {encoded: nav.encodedBodySize, decoded: nav.decodedBodySize},
};
"""


@pytest.fixture
def cold(driver, page):
    """The page as on a first visit: Chromium's HTTP cache off and no service worker answering
    (an earlier test's may have kept copies), so every file comes from the server and is timed;
    the location not yet asked, as on a new phone."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    driver.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": True})
    driver.execute_cdp_cmd("Browser.setPermission", {"permission": {"name": "geolocation"}, "setting": "prompt", "origin": page.base_url})
    yield page
    driver.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": False})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})


@pytest.mark.parametrize("path", SCREENS)
def test_every_module_a_screen_runs_is_named_up_front_and_its_text_arrives_compressed(cold: Page, path):
    page = cold
    page.open(path)
    # The app's module (imported by live.js once the page names it) has run.
    page.wait("!document.querySelector('[data-module]') || !!document.querySelector('[data-module-ready]')", 15,
              "the screen's module did not start")
    seen = page.js(LOADED_JS)
    assert seen["modules"], "no module was fetched: the check would prove nothing"
    named = set(seen["preloads"]) | {seen["entry"]}
    late = sorted(set(seen["modules"]) - named)
    assert not late, f"{path} fetched modules it did not name up front (a round trip each): {late}"
    assert len(seen["preloads"]) == len(set(seen["preloads"])), "a module named twice"

    big = [t for t in seen["text"] if t["decoded"] >= 2048]
    assert big, seen["text"]
    loose = [t["name"] for t in big if not t["encoded"] < t["decoded"] * 0.6]
    assert not loose, f"{path}: text sent uncompressed: {loose}"
    # The page itself: opened by the person (Sec-Fetch-Site: none), so compressed too.
    assert seen["page"]["encoded"] < seen["page"]["decoded"] * 0.6, seen["page"]
