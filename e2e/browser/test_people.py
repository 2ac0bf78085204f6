"""People in a real browser: strangers are refused everywhere, people cannot reach each other's data,
pairing a second browser by its link, signing a device out, throttled sign-ins, and a cached page
that can still post after the server restarts."""
from __future__ import annotations

import html
import re
import sqlite3
import subprocess
import time
import urllib.parse

import pytest

from pocket_helpers import (ARTIFACTS, OWNER_NAME, OWNER_PASSWORD, Page, PocketServer, http_request, make_driver,
                            pocket_binary)
from person_rows import rows_of

BEA, BEA_PASSWORD = "bea", "bea's own password"


@pytest.fixture(scope="module")
def people_server(tmp_path_factory, plate_images, murals_service):
    srv = PocketServer(log_path=ARTIFACTS / "server-people.log", data_dir=tmp_path_factory.mktemp("pocket-people"),
                       env={"POCKET_PLATES_IMAGE_BASE": plate_images.base_url, **murals_service.env()})
    srv.start(timeout=30)
    srv.add_person(BEA, BEA_PASSWORD)
    yield srv
    assert srv.stop(timeout=10) == 0


@pytest.fixture
def owner_page(driver, people_server):
    p = Page(driver, people_server.base_url)
    p.reset()
    yield p


@pytest.fixture
def stranger(people_server):
    """A second browser profile with no session at all (another phone)."""
    driver = make_driver()
    p = Page(driver, people_server.base_url)
    p.reset()
    p.sign_in_browser(cookie=None)
    driver.execute_cdp_cmd("Network.deleteCookies", {"name": "pocket_session", "url": people_server.base_url + "/"})
    p.cookie = None
    yield p
    driver.quit()


def _token(text: str) -> str:
    return re.search(r'<meta name="csrf-token" content="([^"]+)"', text).group(1)


def _crawl(server) -> tuple[set[str], set[str]]:
    """Every same-origin link and form action reachable from the owner's home screen (GET paths, POST paths)."""
    seen, posts, queue = set(), set(), ["/", "/settings", "/plates/trips", "/murals/trail", "/conference/settings"]
    while queue and len(seen) < 400:
        path = queue.pop()
        if path in seen:
            continue
        seen.add(path)
        res = http_request(server.url(path))
        if "text/html" not in (res.header("Content-Type") or ""):
            continue
        for href in re.findall(r'href="(/[^"#]*)"', res.text):
            href = html.unescape(href)
            if href.startswith("/static/") or href in seen:
                continue
            # One talk, speaker, state or mural of each kind is enough to prove the rule.
            shape = re.sub(r"\d+", "N", href.split("?")[0])
            if any(re.sub(r"\d+", "N", s.split("?")[0]) == shape for s in seen | set(queue)):
                continue
            queue.append(href)
        for action in re.findall(r'<form[^>]*method="post"[^>]*action="(/[^"]*)"', res.text) + \
                re.findall(r'<form[^>]*action="(/[^"]*)"[^>]*method="post"', res.text):
            posts.add(html.unescape(action).split("?")[0])
    return seen, posts


def test_a_stranger_is_refused_on_every_route_the_crawler_finds(people_server, stranger):
    gets, posts = _crawl(people_server)
    assert len(gets) > 40 and len(posts) > 10, (len(gets), len(posts))
    public = {"/signin", "/join", "/offline", "/manifest.webmanifest", "/sw.js"}
    anonymous = http_request(people_server.url("/signin"), anonymous=True)
    token = re.search(r'name="_csrf" value="([^"]+)"', anonymous.text).group(1)
    cookie = {"Cookie": f"pocket_csrf={anonymous.cookies()['pocket_csrf'].value}"}
    leaks = []
    for path in sorted(gets - public):
        res = http_request(people_server.url(path), anonymous=True, follow_redirects=False)
        if res.status != 401 or "signin-form" not in res.text and "text/html" in (res.header("Content-Type") or ""):
            leaks.append(f"GET {path}: {res.status}")
        res = http_request(people_server.url(path), anonymous=True, headers={"Accept": "application/json"})
        if res.status != 401:
            leaks.append(f"GET {path} (not HTML): {res.status}")
    for path in sorted(posts - {"/signin", "/join"}):
        res = http_request(people_server.url(path), "POST", {"_csrf": token}, headers=cookie, follow_redirects=False)
        if res.status not in (401, 403):
            leaks.append(f"POST {path}: {res.status}")
    assert not leaks, "a stranger reached:\n  " + "\n  ".join(leaks)
    # In the browser, a stranger opening Pocket sees the sign-in page, and nothing of anyone's.
    stranger.open("/plates")
    assert stranger.exists("#signin-form")
    assert not stranger.exists("#plates-score")


def test_people_cannot_see_or_change_each_others_data(people_server):
    owner = people_server.sign_in()
    bea = people_server.sign_in(BEA, BEA_PASSWORD)

    def post(session, path, data=None):
        cookie, token = session
        return http_request(people_server.url(path), "POST", {**(data or {}), "_csrf": token}, {"Cookie": cookie},
                            follow_redirects=False)

    def get(session, path):
        return http_request(people_server.url(path), headers={"Cookie": session[0]})

    # Plates: the owner spots two states and finishes a trip with one.
    post(owner, "/plates/reset")
    post(owner, "/plates/states/AL/spot")
    post(owner, "/plates/trips")
    post(owner, "/plates/states/TX/spot")
    assert "Score: 1 / 50" in get(owner, "/plates").text
    assert "Score: 0 / 50" in get(bea, "/plates").text
    # Bea un-spotting, resetting or starting a trip changes only her game.
    assert post(bea, "/plates/states/TX/unspot").status == 303
    assert post(bea, "/plates/reset").status == 303
    assert "Score: 1 / 50" in get(owner, "/plates").text
    owner_trips = re.findall(r'href="/plates/trips/(\d+)"', get(owner, "/plates/trips").text)
    assert owner_trips
    for trip in owner_trips:
        assert get(bea, f"/plates/trips/{trip}").status == 404, f"Bea opened the owner's trip {trip}"

    # Murals favourites.
    murals = re.findall(r'/murals/mural/(\d+)"', get(owner, "/murals").text)
    assert murals, "no murals synced"
    post(owner, f"/murals/mural/{murals[0]}/favourite", {"favourite": "1"})
    assert get(owner, "/murals?show=favourites").text.count('<li class="cell murals-cell') == 1
    assert get(bea, "/murals?show=favourites").text.count('<li class="cell murals-cell') == 0
    post(bea, f"/murals/mural/{murals[0]}/favourite", {"favourite": "0"})
    assert get(owner, "/murals?show=favourites").text.count('<li class="cell murals-cell') == 1

    # Converter state.
    post(owner, "/converter", {"category": "temperature"})
    for key in "37":
        post(owner, "/converter", {"key": key})
    assert 'id="converter-from">37<' in get(owner, "/converter").text
    assert 'id="converter-from">37<' not in get(bea, "/converter").text
    post(bea, "/converter", {"key": "9"})
    assert 'id="converter-from">37<' in get(owner, "/converter").text

    # Bookmarks of talks.
    conference = get(owner, "/conference").text
    conf = re.findall(r"/conference/conferences/(\d+)", conference)[0]
    talk = re.findall(r'href="/conference/talks/(\d+)', get(owner, f"/conference/conferences/{conf}").text)[0]
    talk_page = get(owner, f"/conference/talks/{talk}").text
    action = re.search(r'<form[^>]*action="(/conference/talks/\d+/bookmark[^"]*)"', talk_page)
    assert action, "the talk page has no bookmark form"
    assert post(owner, html.unescape(action.group(1)), {"bookmark": "1"}).status == 303
    assert re.search(rf'id="conference-bookmarks".*?/conference/talks/{talk}', get(owner, "/conference").text, re.S)
    assert f"/conference/talks/{talk}" not in get(bea, "/conference").text.split('id="conference-bookmarks"')[-1][:2000] \
        or 'id="conference-bookmarks"' not in get(bea, "/conference").text

    # A member cannot install or import a database, or manage people.
    for path in ["/conference/settings/install", "/conference/settings/check", "/conference/settings/import",
                 "/settings/people"]:
        assert post(bea, path, {"name": "x", "password": "long enough"}).status == 403, path
    assert 'id="settings-people"' not in get(bea, "/settings").text
    assert 'aria-label="Remove bea"' in get(owner, "/settings").text


def test_removing_a_person_asks_first_then_signs_them_out_and_deletes_their_data(people_server, owner_page):
    people_server.add_person("cal", "cal's own password")
    cal = people_server.sign_in("cal", "cal's own password")
    settings = http_request(people_server.url("/design"), headers={"Cookie": cal[0]}).text
    cal_id = int(re.search(r'<meta name="pocket-device" [^>]*data-person="(\d+)"', settings).group(1))
    res = http_request(people_server.url("/plates/states/OR/spot"), "POST", {"_csrf": cal[1]}, {"Cookie": cal[0]}, follow_redirects=False)
    assert res.status == 303
    assert rows_of(cal_id, people_server.data_dir)["plates.sqlite"] > 0

    owner_page.open("/settings")
    remove = "a[aria-label='Remove cal']"
    alert = f"#remove-person-{cal_id}"
    # Cancel leaves Cal as they were.
    owner_page.click(remove)
    owner_page.wait(f"document.querySelector('{alert}')?.open === true", 5, "Remove did not ask first")
    assert owner_page.text(f"{alert} .alert__title") == "Remove cal?"
    assert "everything they keep in Pocket is deleted" in owner_page.text(f"{alert} .alert__message")
    owner_page.click(f"{alert} .alert__button--cancel")
    owner_page.wait(f"document.querySelector('{alert}')?.open === false", 5)
    assert http_request(people_server.url("/plates"), headers={"Cookie": cal[0]}).status == 200
    # Confirming removes them: their device is refused, and no row of theirs is left in any app's file.
    owner_page.click(remove)
    owner_page.wait(f"document.querySelector('{alert}')?.open === true", 5)
    owner_page.click(f"{alert} .alert__button--destructive")
    owner_page.wait("document.querySelector('#settings-notice')?.textContent === 'Removed.'", 15,
                    f"no notice after removing: {owner_page.text('main')!r}")
    assert not owner_page.exists(remove)
    assert http_request(people_server.url("/plates"), headers={"Cookie": cal[0]}, follow_redirects=False).status in (302, 303, 401)
    left = rows_of(cal_id, people_server.data_dir)
    assert left and all(count == 0 for count in left.values()), left


def test_pairing_a_second_browser_by_its_link(people_server, owner_page, stranger):
    owner_page.open("/settings")
    owner_page.find("#settings-pair-button").click()
    owner_page.wait("!!document.querySelector('#pair-link')", 15, "no pairing page")
    assert owner_page.js("return document.querySelector('#pair-qr').naturalWidth > 0"), "the QR code did not load"
    link = owner_page.text("#pair-link")
    path = urllib.parse.urlsplit(link).path
    assert path.startswith("/join/")
    short = owner_page.text("#pair-code")
    assert re.fullmatch(r"[0-9A-Z]{4}-[0-9A-Z]{4}", short)

    # The other phone opens (scans) the link and is signed in as the owner, with no password.
    stranger.open(path)
    assert "Continue as owner" in stranger.text("#join-button")
    stranger.find("#join-button").click()
    # Paired, the phone is offered the Home Screen, then opens Pocket.
    stranger.wait("location.pathname === '/welcome' && !!document.querySelector('#welcome-open')", 15, "not signed in after pairing")
    stranger.find("#welcome-open").click()
    stranger.wait("location.pathname === '/' && !!document.querySelector('#home-settings')", 15, "Open Pocket did not open the home screen")
    assert stranger.text("#home-settings") == f"Settings ({OWNER_NAME})"
    # The link then no longer works.
    again = http_request(people_server.url(path), anonymous=True)
    assert again.status == 404 and "may have expired" in again.text

    # An expired code is refused (the clock moved on: its expiry is put in the past).
    result = subprocess.run([str(pocket_binary()), "pair", BEA, "--port", str(people_server.port), "--data-dir",
                             str(people_server.data_dir)], capture_output=True, text=True, timeout=60)
    expired = re.search(r"/join/([A-Za-z0-9_-]{43})", result.stdout).group(1)
    with sqlite3.connect(people_server.data_dir / "people.sqlite") as db:
        db.execute("UPDATE pairing SET expiresAt = '2000-01-01 00:00:00.000'")
    stranger.open(f"/join/{expired}")
    assert "may have expired" in (stranger.text("#join-problem") or "")
    assert not stranger.exists("#join-button")


def test_a_signed_out_device_is_refused_on_its_next_request(people_server, owner_page, stranger):
    stranger.open("/signin")
    stranger.find("#signin-name").send_keys(BEA)
    stranger.find("#signin-password").send_keys(BEA_PASSWORD)
    stranger.find("#signin-button").click()
    stranger.wait("!!document.querySelector('#home-settings')", 15, "Bea did not get in")
    stranger.open("/plates")
    assert stranger.exists("#plates-score")
    # Bea, on another device, signs that browser out in Settings.
    other = people_server.sign_in(BEA, BEA_PASSWORD)
    settings = http_request(people_server.url("/settings"), headers={"Cookie": other[0]}).text
    rows = re.findall(r'action="(/settings/devices/[^"]+/signout)">(.*?)</li>', settings, re.S)
    target = [action for action, row in rows if "Headless Chrome" in row and "(this device)" not in row]
    assert target, rows
    for action in target:
        res = http_request(people_server.url(action), "POST", {"_csrf": other[1]}, {"Cookie": other[0]}, follow_redirects=False)
        assert res.status == 303
    stranger.open("/plates")
    assert stranger.exists("#signin-form"), "a signed-out device still got its page"


def test_the_sixth_wrong_password_gets_429_and_the_right_one_works_after_the_wait(people_server, stranger):
    def attempt(password):
        stranger.open("/signin")
        stranger.find("#signin-name").send_keys(BEA)
        stranger.find("#signin-password").send_keys(password)
        stranger.find("#signin-button").click()
        stranger.wait("document.readyState === 'complete' && (!!document.querySelector('#signin-problem') || !!document.querySelector('#home-settings'))", 15)
        return stranger.text("#signin-problem")

    for n in range(5):
        assert attempt(f"wrong {n}") == "That name and password do not match."
    problem = attempt(BEA_PASSWORD)
    wait = int(re.search(r"wait (\d+) seconds", problem).group(1))
    # The same over HTTP: 429 with Retry-After.
    res = http_request(people_server.url("/signin"), "POST", {"name": BEA, "password": BEA_PASSWORD}, anonymous=True)
    assert res.status in (403, 429)
    time.sleep(wait + 0.5)
    assert attempt(BEA_PASSWORD) is None
    assert stranger.text("#home-settings") == "Settings (bea)"


def test_a_cached_page_can_still_post_after_the_server_restarts(people_server, owner_page):
    owner_page.open("/design")
    people_server.restart()
    field = owner_page.find("#design-message")
    owner_page.js("arguments[0].scrollIntoView({block: 'center'})", field)
    field.send_keys("after a restart")
    owner_page.find("form[method=post] #design-message ~ button[type=submit]").click()
    owner_page.wait("document.querySelector('#design-post-echo')?.textContent === 'after a restart'", 15,
                    f"the form did not post after the restart: {owner_page.text('h1')!r}")
