"""Conference away from the server (issue #13): "Keep Offline" on a conference saves its talk list,
each talk page and each talk's text (served by Pocket from its own stored copy, fetched from a
fixture talk-text site, never the real one) into the "pocket-kept" cache, with progress and the
space it takes; a later visit says it is kept; and a kept conference reads with the server stopped."""
from __future__ import annotations

import html
import re
import urllib.parse

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


def recently_opened(srv) -> set[str]:
    """The talks the Conferences screen lists under Recently Opened, read from the server for the
    owner (the person the browser is signed in as)."""
    home = http_request(srv.url("/conference")).text
    section = home.split('aria-labelledby="conference-recent-h"', 1)
    if len(section) < 2:
        return set()
    return set(re.findall(r'href="/conference/talks/(\d+)"', section[1].split("</section>", 1)[0]))


def test_keeping_a_conference_is_not_reading_it(kept):
    srv, page, _ = kept
    page.open("/conference/talks/8802")  # one talk really read: its page shown, its text in the frame
    assert "Kept text of talk 8802" in frame_text(page, PAGE_WITHIN_S)
    keep_conference(page)
    opened = recently_opened(srv)
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


def talk_links(srv, path: str, talk_id: str) -> list[str]:
    """The links to talk `talk_id` on the page at `path`, as the server writes them."""
    return re.findall(rf'href="(/conference/talks/{talk_id}(?:\?[^"]*)?)"', http_request(srv.url(path)).text)


def open_talk_from(page, list_path: str, href: str, title: str, talk_id: str) -> None:
    """On the saved page at `list_path`, taps the link `href` as a person does, then opens `href`
    again as a full page load (a reload, a link from elsewhere): each time the kept talk shows
    under that address, its text in the frame, never "not saved yet"."""
    page.open(list_path)
    link = page.find(f'a[href="{href}"]')
    page.js("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    for how in ("tapped", "loaded"):
        page.wait("document.querySelector('#conference-talk-title, [data-offline-page]')", PAGE_WITHIN_S,
                  f"{href} ({how} on {list_path}) showed nothing")
        assert not page.exists("[data-offline-page]"), f"{href} ({how} on {list_path}) says it is not saved"
        assert page.text("#conference-talk-title") == title, f"{href} ({how} on {list_path})"
        assert page.js("const u = new URL(arguments[0], location.href); return location.pathname + location.search === u.pathname + u.search",
                       href), f"the kept talk shows at {page.path()}, not {href}"
        assert f"Kept text of talk {talk_id}" in frame_text(page, PAGE_WITHIN_S), f"{href} ({how} on {list_path}): no kept text"
        if how == "tapped":
            page.open(href)


def test_a_kept_talk_opens_offline_from_search_speaker_and_verse_links(kept):
    """Issue #34: a kept talk opens from every link to it. Links from a search, a speaker's talks and
    a verse's citations carry `?from=search-…`, `?from=speaker-…` and `?from=verse-…`, which no kept
    address has: the worker, looking pages up by exact address, answered "not saved yet"."""
    srv, page, _ = kept
    keep_conference(page)
    talks = page.js("""return [...document.querySelectorAll('#conference-results a.cell__main')]
                          .map(a => new URL(a.href).pathname)""")
    # A talk with a speaker of its own and a cited verse (the sample's talks nearly all have both).
    for path in talks:
        talk_page = http_request(srv.url(path)).text
        speaker = re.search(r'href="(/conference/speakers/\d+)"', talk_page)
        verse = re.search(r'href="(/conference/citations/\d+/\d+/\d+)"', talk_page)
        if speaker and verse:
            break
    else:
        pytest.fail(f"no kept talk has both a speaker and a cited verse: {talks}")
    talk_id = re.search(r"/talks/(\d+)", path)[1]
    title = re.search(r'id="conference-talk-title">([^<]*)<', talk_page)[1]
    lists = {
        "search": f"/conference/search?q={urllib.parse.quote(html.unescape(title))}",
        "speaker": speaker[1],
        "verse": verse[1],
    }
    links = {}
    for kind, list_path in lists.items():
        found = [href for href in talk_links(srv, list_path, talk_id) if f"?from={kind}-" in href]
        assert found, f"{list_path} has no {kind} link to talk {talk_id}"
        links[kind] = html.unescape(found[0])
        page.open(list_path)  # seen once, so the phone has a copy of the list to tap in
    assert srv.stop() == 0

    for kind, href in links.items():
        open_talk_from(page, lists[kind], href, html.unescape(title).strip(), talk_id)


def test_only_talks_read_join_recently_opened_when_a_hung_server_wakes(kept):
    """Issue #34: with the server hung, a talk the phone could only show as the Offline page was
    recorded as opened once the server woke, since the server answered the page requests it had
    kept. Only a talk whose page was shown, live or kept, counts."""
    srv, page, _ = kept
    keep_conference(page)
    kept_talks = page.js("""return [...document.querySelectorAll('#conference-results a.cell__main')]
                               .map(a => new URL(a.href).pathname)""")
    read_live, read_kept = kept_talks[0], kept_talks[1]
    # Two talks of another conference, never kept and never opened.
    home = http_request(srv.url("/conference")).text
    other = next(c for c in re.findall(r'href="/conference/conferences/(\d+)"', home) if f"/conference/conferences/{c}" != CONFERENCE)
    others = re.findall(rf'href="(/conference/talks/\d+\?from=conference-{other})"', http_request(srv.url(f"/conference/conferences/{other}")).text)
    assert len(others) >= 2, others
    unread = [others[0].split("?")[0], others[1]]  # as Recently Opened links one, as its list the other

    page.open(read_live)
    assert f"Kept text of talk {talk_of(read_live)}" in frame_text(page, PAGE_WITHIN_S)
    page.open("/conference")  # seen once, so it shows while the server hangs
    # What the woken server must answer before Recently Opened is read: the unread talks' pages and
    # the kept talk's text (keeping it asked for it once already).
    sent = [f"GET {address.split('?')[0]} " for address in unread] + [f"GET {read_kept}/text "]
    answered = {line: srv.log_text().count(line) for line in sent}
    srv.hang()
    try:
        page.open(read_kept)
        page.wait("document.querySelector('#conference-talk-title')", PAGE_WITHIN_S, "the kept talk did not show with the server hung")
        assert f"Kept text of talk {talk_of(read_kept)}" in frame_text(page, PAGE_WITHIN_S)
        for address in unread:
            page.open(address)
            page.wait("document.querySelector('[data-offline-page]')", PAGE_WITHIN_S, f"{address} did not show the Offline page")
        # Off the Offline page before the server wakes: the page the person is on then is read again.
        page.open("/conference")
        page.wait("document.documentElement.hasAttribute('data-offline-saved')", PAGE_WITHIN_S, "the Conferences screen did not show saved")
    finally:
        srv.wake()
    # The server answers every request it was sent while hung, the unread talks' pages among them.
    page.wait(lambda _: all(srv.log_text().count(line) > answered[line] for line in sent), 30,
              f"the woken server did not answer what it was sent: {sent}")

    opened = recently_opened(srv)
    read = {talk_of(read_live), talk_of(read_kept)}
    assert read <= opened, f"talks read are missing from Recently Opened: {sorted(opened)}"
    assert not {talk_of(address) for address in unread} & opened, \
        f"talks only shown as the Offline page joined Recently Opened: {sorted(opened - read)}"


def talk_of(address: str) -> str:
    """The talk id in a talk page's address."""
    return re.search(r"/talks/(\d+)", address)[1]
