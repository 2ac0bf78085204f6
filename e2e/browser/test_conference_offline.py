"""Conference away from the server (issue #13): "Keep Offline" on a conference saves its talk list,
each talk page and each talk's text (served by Pocket from its own stored copy, fetched from a
fixture talk-text site, never the real one) into the "pocket-kept" cache, with progress and the
space it takes; a later visit says it is kept; and a kept conference reads with the server stopped."""
from __future__ import annotations

import re

import pytest

from pocket_helpers import ARTIFACTS, Blackhole, PocketServer, TalkTextSite, http_request, page_with_worker

CONFERENCE = "/conference/conferences/202504"
PAGE_WITHIN_S = 15

CACHE_JS = """
const done = arguments[arguments.length - 1];
(async () => {
  if (!(await caches.has('pocket-kept'))) return done({});
  const cache = await caches.open('pocket-kept');
  const out = {};
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    const url = new URL(request.url);
    out[url.pathname + url.search] = {status: response.status, text: await response.text()};
  }
  done(out);
})().catch((e) => done({error: String(e)}));
"""


@pytest.fixture
def kept(driver, tmp_path):
    """A server of this test's own with talk texts from the fixture site, the browser's worker running."""
    site = TalkTextSite().start()
    srv = PocketServer(log_path=ARTIFACTS / f"server-{tmp_path.name}.log", data_dir=tmp_path / "data",
                       env={"POCKET_SCI_TALKS_URL": site.base_url}).start()
    page = page_with_worker(driver, srv)
    yield srv, page, site
    page.js_async("const done = arguments[0]; caches.delete('pocket-kept').then(done, done);")
    srv.stop()
    site.stop()


def keep_conference(page) -> list[str]:
    """Opens the conference, presses Keep Offline, waits for the size; returns every status line shown."""
    page.open(CONFERENCE)
    page.wait("!document.querySelector('#conference-keep-button').hidden", 10, "Keep Offline was not offered")
    page.js("""
        window.__keepLines = [];
        const status = document.querySelector('#conference-keep-status');
        new MutationObserver(() => window.__keepLines.push(status.textContent)).observe(status, {childList: true, characterData: true, subtree: true});
        window.__progressSeen = false;
        const progress = document.querySelector('#conference-keep-progress');
        new MutationObserver(() => { if (!progress.hidden) window.__progressSeen = true; }).observe(progress, {attributes: true});
        document.querySelector('#conference-keep-button').click();
    """)
    page.wait("document.querySelector('#conference-keep-status').textContent.startsWith('Kept offline')", 60,
              "the conference was not kept: " + (page.text("#conference-keep-status") or ""))
    assert page.js("return window.__progressSeen"), "no progress bar while keeping"
    return page.js("return window.__keepLines")


def test_keep_offline_fills_the_kept_cache_with_list_talks_and_texts(kept):
    srv, page, site = kept
    lines = keep_conference(page)
    talks = page.js("""return [...document.querySelectorAll('#conference-results a.cell__main')]
                          .map(a => new URL(a.href).pathname + new URL(a.href).search)""")
    assert len(talks) >= 5, talks
    progress = [line for line in lines if re.fullmatch(r"Keeping \d+ of \d+…", line)]
    total = 1 + 3 * len(talks)  # the list; each talk's page under both its addresses, and its text
    assert f"Keeping {total} of {total}…" in progress, lines

    status = page.text("#conference-keep-status")
    match = re.fullmatch(r"Kept offline · ([\d.]+) (bytes|KB|MB)", status)
    assert match, status

    cached = page.js_async(CACHE_JS)
    assert "error" not in cached, cached
    assert CONFERENCE in cached
    for talk in talks:
        assert talk in cached, f"{talk} not kept"
        assert "<title>" in cached[talk]["text"]
        talk_id = re.search(r"/talks/(\d+)", talk)[1]
        text = cached[f"/conference/talks/{talk_id}/text"]
        assert text["status"] == 200
        assert f"Kept text of talk {talk_id}" in text["text"]
        assert site.requests.get(talk_id) == 1, f"talk {talk_id} fetched {site.requests.get(talk_id)} times"

    # The size shown is what the kept pages take (the list record itself aside).
    kept_bytes = page.js_async("""
        const done = arguments[0];
        caches.open('pocket-kept').then(async (cache) => {
          let n = 0;
          for (const request of await cache.keys()) {
            if (request.url.endsWith('/keep')) continue;
            n += (await (await cache.match(request)).blob()).size;
          }
          done(n);
        });""")
    shown = float(match[1]) * {"bytes": 1, "KB": 1000, "MB": 1_000_000}[match[2]]
    assert abs(shown - kept_bytes) <= 0.06 * kept_bytes, (status, kept_bytes)

    # A later visit says so from the cache.
    page.open("/conference")
    page.open(CONFERENCE)
    page.wait("document.querySelector('#conference-keep-status').textContent === " + repr(status), 10,
              "a later visit does not say the conference is kept")
    assert page.text("#conference-keep-button") == "Update Offline Copy"


def test_a_kept_conference_reads_with_the_server_stopped(kept):
    srv, page, _ = kept
    keep_conference(page)
    talk = page.js("return document.querySelector('#conference-results a.cell__main').getAttribute('href')")
    title = page.js("return document.querySelector('#conference-results a.cell__main .cell__title').textContent")
    talk_id = re.search(r"/talks/(\d+)", talk)[1]
    page.open("/conference/search")  # seen once, so the phone has a copy of the search screen
    assert srv.stop() == 0

    page.open(talk)
    page.wait("document.querySelector('#conference-talk-title')", PAGE_WITHIN_S, "the kept talk page did not show offline")
    assert page.text("#conference-talk-title") == title
    assert frame_text(page, PAGE_WITHIN_S) .find(f"Kept text of talk {talk_id}") >= 0, "the kept text does not show in the talk's frame offline"

    # Search needs the server, and says so.
    page.open("/conference/search")
    page.wait("document.querySelector('#conference-search-box .needs-server__notice')", PAGE_WITHIN_S,
              "search does not say it needs the server")
    assert "Search needs the Pocket server" in page.text("#conference-search-box .needs-server__notice")
    assert page.js("return document.querySelector('#conference-search-field').disabled")


def frame_text(page, timeout) -> str:
    """What a person reads in the talk page's text frame: the frame's own document (WebDriver may
    enter it; the page's scripts may not)."""
    frame = page.find("#conference-talk-frame")
    page.js("arguments[0].scrollIntoView()", frame)
    page.driver.switch_to.frame(frame)
    try:
        page.wait("document.readyState === 'complete' && document.body && document.body.textContent.trim().length > 0", timeout,
                  "the talk's frame stayed empty")
        return page.js("return document.body.textContent")
    finally:
        page.driver.switch_to.default_content()


def test_a_kept_talk_reads_in_its_frame_from_every_link_with_the_server_hung(kept):
    srv, page, _ = kept
    keep_conference(page)
    talk = page.js("return document.querySelector('#conference-results a.cell__main').getAttribute('href')")
    talk_id = re.search(r"/talks/(\d+)", talk)[1]
    assert srv.stop() == 0
    hole = Blackhole(srv.port).start()
    try:
        # The server accepts and never answers: the kept page comes within the worker's wait, and so
        # does its text, in the frame, as a person reads it.
        for address in (talk, f"/conference/talks/{talk_id}"):
            page.open(address)
            page.wait("document.querySelector('#conference-talk-title')", PAGE_WITHIN_S, f"{address} did not show offline")
            assert f"Kept text of talk {talk_id}" in frame_text(page, PAGE_WITHIN_S), address
    finally:
        hole.stop()


def test_keeping_a_conference_is_not_reading_it(kept):
    srv, page, _ = kept
    page.open("/conference/talks/8802")  # one talk really opened
    keep_conference(page)
    home = http_request(srv.url("/conference")).text
    section = home.split('aria-labelledby="conference-recent-h"', 1)
    assert len(section) == 2, "no recently opened section"
    opened = set(re.findall(r'href="/conference/talks/(\d+)"', section[1].split("</section>", 1)[0]))
    assert opened == {"8802"}, f"recently opened lists talks that were only kept: {sorted(opened)}"


def bookmarks_on_server(srv) -> list[str]:
    """The talks the Conferences screen lists under Bookmarks, read from the server for the owner."""
    cookie, _ = srv.sign_in()
    home = http_request(srv.url("/conference"), headers={"Cookie": cookie}).text
    section = home.split('id="conference-bookmarks"', 1)
    if len(section) < 2:
        return []
    return re.findall(r'href="/conference/talks/(\d+)"', section[1].split("</section>", 1)[0])


def test_a_bookmark_made_offline_shows_at_once_and_arrives_once(kept):
    """Issue #25: Bookmark on a kept talk with the server stopped changes the button at once, waits in
    the outbox, and reaches the server exactly once when it is back."""
    srv, page, _ = kept
    keep_conference(page)
    talk = page.js("return document.querySelector('#conference-results a.cell__main').getAttribute('href')")
    talk_id = re.search(r"/talks/(\d+)", talk)[1]
    assert srv.stop() == 0

    page.open(talk)
    page.wait("document.querySelector('#conference-bookmark-button')", PAGE_WITHIN_S, "the kept talk page did not show offline")
    assert page.text("#conference-bookmark-button") == "Bookmark"
    page.js("arguments[0].scrollIntoView({block: 'center'})", page.find("#conference-bookmark-button"))
    page.find("#conference-bookmark-button").click()
    page.wait("document.querySelector('#conference-bookmark-button').textContent === 'Remove Bookmark'", 5,
              "the button did not change at once offline")
    assert page.js("return document.querySelector('#conference-bookmark-button').getAttribute('aria-pressed')") == "true"
    page.wait("/1 change waiting/.test(document.querySelector('#pocket-offline')?.textContent ?? '')", PAGE_WITHIN_S,
              "the bookmark is not waiting")

    # Opening the talk again while still offline shows the waiting bookmark, not the kept page's button.
    page.open(talk)
    page.wait("document.querySelector('#conference-bookmark-button')?.textContent === 'Remove Bookmark'", PAGE_WITHIN_S,
              "the kept page forgets the waiting bookmark")

    srv.resume()
    page.js("window.dispatchEvent(new Event('online'))")
    page.wait("!document.querySelector('#pocket-offline')", 40, "the waiting bookmark was not sent")
    assert bookmarks_on_server(srv) == [talk_id]
    assert srv.log_text().count("POST /conference/bookmarks/changes 200") == 1, "the bookmark was not sent exactly once"
