"""A first visit on a slow phone network (#37): each page names every module it will run up front
(`<link rel="modulepreload">`), so the browser fetches the graph in one round instead of one level
of imports per round trip; and text arrives gzip-compressed: the stylesheet, every module and the
page itself. Checked in Chromium with its HTTP cache off, from what the page's own Resource Timing
entries say was fetched. Such a page carries its stylesheets inside itself, so its first paint
waits for nothing else.

A page the service worker answers (a repeat visit) names no modules: the worker's navigation preload
says so, and it answers every module from its cache at once, where fetching and compiling them all
up front only delayed the first paint (bench/phone-load.py's repeat FCP)."""
import pytest

from pocket_helpers import Page, page_with_worker

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


STYLES_JS = """
return {inline: [...document.querySelectorAll('style[data-href]')].map((s) => s.dataset.href),
        linked: [...document.querySelectorAll('link[rel~=stylesheet]')].map((l) => l.href),
        skipLink: getComputedStyle(document.querySelector('.skip-link')).position};
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
    # Its stylesheets inside it: the first paint waits for nothing else (the policy allows exactly
    # their hashes; the suite fails on any CSP violation).
    styles = page.js(STYLES_JS)
    # (The map's library keeps its own stylesheet, linked: Leaflet's, not Pocket's.)
    assert styles["inline"] and not [h for h in styles["linked"] if "/static/" in h], styles
    assert styles["skipLink"] == "absolute", f"{path}: the design system's rules are not applied: {styles}"
    fetched = [t["name"] for t in seen["text"] if ".css" in t["name"]]
    assert not fetched, f"{path}: stylesheets fetched beside the page that carries them: {fetched}"


def test_a_screen_swapped_in_after_a_first_visit_links_only_the_stylesheets_it_lacks(cold: Page):
    page = cold
    page.open("/")
    page.wait("!!document.querySelector('a.app-tile')", 15, "the home screen did not load")
    page.click('a.app-tile[href="/plates"]')
    page.wait("location.pathname === '/plates' && !!document.querySelector('[data-module-ready]')", 15,
              "the Plates screen was not swapped in")
    styles = page.js(STYLES_JS)
    assert [h for h in styles["linked"] if "/css/apps/plates.css" in h], f"the app's stylesheet was not linked: {styles}"
    assert not [h for h in styles["linked"] if "/css/pocket.css" in h], f"the design system linked beside its inline copy: {styles}"
    assert styles["skipLink"] == "absolute", styles


def test_a_page_the_worker_answers_names_no_modules_and_still_runs_them(driver, server):
    page = page_with_worker(driver, server)
    # page_with_worker's second "/" came through the worker, preloaded as it woke.
    page.open("/plates")
    assert page.js("return !!navigator.serviceWorker.controller"), "the worker does not control the page"
    page.wait("!!document.querySelector('[data-module-ready]')", 15, "the screen's module did not start under the worker")
    seen = page.js(LOADED_JS)
    assert seen["preloads"] == [], f"a page the worker answered named modules to preload: {seen['preloads'][:3]}"
    styles = page.js(STYLES_JS)
    assert not styles["inline"] and styles["linked"], f"a page the worker answered should link its stylesheets: {styles}"
    assert seen["modules"], "no module was loaded: the check would prove nothing"
    fresh = page.js("""return performance.getEntriesByType('resource')
        .filter((e) => e.name.includes('/static/js/') && e.transferSize > 0).map((e) => e.name)""")
    assert not fresh, f"modules the worker did not answer from its cache: {fresh[:3]}"
    # A page without the worker (its first visit, or a browser without one) still names them all.
    html = page.js_async("fetch('/plates', {cache: 'no-store'}).then((r) => r.text()).then(arguments[arguments.length - 1])")
    assert '<link rel="modulepreload"' in html, html[:300]
