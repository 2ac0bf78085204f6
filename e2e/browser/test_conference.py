"""Conference, the Scripture Citation Index: every screen on a phone and on an iPad (split view), search
as you type, the sample-data banner, and Settings with real installs from a loopback manifest host
(`sci_manifest`): a download whose progress bar is pushed over Server-Sent Events (and survives a reload),
an upload, and a failing download that leaves the old database serving.

Browsing uses the session server, which serves the built-in sample (the 2025 conferences). Installing
changes a server's database, so those tests get a server of their own (`install_server`).
"""

import pytest
from selenium.webdriver.common.by import By

from pocket_helpers import (ARTIFACTS, CONTRAST_JS, SCHEMES, VIEWPORTS, Checks, Page, PocketServer, SCIManifestServer,
                            format_contrast_failures, make_sci_database)

# The frame shows scriptures.byu.edu, which the test machine cannot reach: its failed load is expected.
OFFLINE_FRAME = r"scriptures\.byu\.edu"


def tap(page: Page, el):
    """Clicks an element after scrolling it to the middle, clear of the sticky bars."""
    page.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", el)
    el.click()


def click(page: Page, css: str):
    tap(page, page.find(css))


def submit(page: Page, css: str, timeout=15):
    """Clicks a form's button and waits for the screen the answer brings (a new [data-screen])."""
    page.js("document.querySelector('[data-screen]').__old = true")
    click(page, css)
    page.wait("!document.querySelector('[data-screen]').__old", timeout, f"no new screen after clicking {css}")


def click_text(page: Page, css: str, text: str):
    """Clicks the first element matching `css` whose text contains `text`."""
    for el in page.finds(css):
        if text in el.text:
            tap(page, el)
            return
    raise AssertionError(f"no {css} containing {text!r} on {page.path()}")


def wait_h1(page: Page, title: str, timeout=15):
    page.wait(lambda d: page.h1() == title, timeout, f"expected the title {title!r}, got {page.h1()!r} on {page.path()}")
    # The new screen's title is there while the push still slides over everything: a tap then lands
    # on the transition, not on the screen (seen in CI with a talk's frame loading beside it).
    page.wait("""document.getAnimations().filter((a) => a.playState === 'running'
                   && a.effect && a.effect.getTiming().iterations !== Infinity).length === 0""",
              timeout, f"the transition to {title!r} did not finish")


def visible(page: Page, css: str) -> bool:
    return bool(page.js("const e = document.querySelector(arguments[0]); return !!e && e.checkVisibility()", css))


# --------------------------------------------------------------------------- browsing (session server, sample)


@pytest.mark.console_allow(OFFLINE_FRAME)
def test_conferences_newest_first_with_banner_footer_and_tabs(page):
    page.open("/conference")
    c = Checks()
    c.equal(page.h1(), "Conferences", "title")
    titles = [e.text for e in page.finds("#conference-list .cell__title")]
    c.equal(titles, ["Oct 2025", "Apr 2025"], "conferences, newest first")
    c.that("Sample data (April and October 2025)" in page.text("#conference-footer"), "footer names the sample")
    c.that("Last updated 2025-10-05" in page.text("#conference-footer"), "footer has last_updated")
    c.that(visible(page, "#conference-sample-banner"), "sample banner shown")
    c.that("Download the full database (" in page.text("#conference-sample-banner"),
           f"the banner offers the download with its size: {page.text('#conference-sample-banner')!r}")
    tabs = [e.text for e in page.finds("#conference-tabs .conference-tab")]
    c.equal(tabs, ["Conferences", "Citations", "Speakers", "Search", "Settings"], "tab bar")
    c.equal(page.text('#conference-tabs [aria-current="page"]'), "Conferences", "current tab")
    ok, why = page.no_horizontal_overflow()
    c.that(ok, why)
    c.done()


@pytest.mark.console_allow(OFFLINE_FRAME)
def test_phone_conference_sessions_then_talk_then_back(page):
    page.open("/conference")
    marker = page.mark()
    click_text(page, "#conference-list a.cell__main", "Apr 2025")
    wait_h1(page, "Apr 2025")
    c = Checks()
    headers = [e.text for e in page.finds("#conference-results .list-section__header")]
    c.equal(headers[:2], ["SATURDAY MORNING SESSION", "SATURDAY AFTERNOON SESSION"], "session headers (uppercased by CSS)")
    c.equal(page.text("[data-talk='8769'] .cell__subtitle"), "Jeffrey R. Holland", "speaker under the title")
    c.that(not visible(page, ".split__placeholder"), "no empty detail column on a phone")
    click(page, "[data-talk='8769'] a")
    wait_h1(page, "As a Little Child")
    c.equal(page.marker(), marker, "screens swapped without a page load")
    frame = page.find("#conference-talk-frame")
    c.equal(frame.get_attribute("src"), page.url("/conference/talks/8769/text"), "frame address: the text from Pocket's own copy")
    c.that(frame.get_attribute("sandbox") is not None, "the frame is sandboxed")
    c.that(not visible(page, "#conference-list"), "the list is hidden behind the talk on a phone")
    c.that("Saturday Morning Session" in page.text(".conference-facts"), "session shown")
    c.that("April 5, 2025" in page.text(".conference-facts"), "date shown")
    c.that("pp. 7–9" in page.text(".conference-facts"), "pages shown")
    c.that(page.exists("#conference-talk-link"), "link to the talk's URL")
    c.that(not page.exists(".conference-media"), "no Listen/Watch without recordings")
    c.equal(page.text(".navbar__back-label"), "Apr 2025", "back is labelled with the list")
    click(page, "#conference-talk-next")
    wait_h1(page, "Spiritually Whole in Him")
    click(page, "#conference-talk-previous")
    wait_h1(page, "As a Little Child")
    click(page, ".navbar__back")
    wait_h1(page, "Apr 2025")
    ok, why = page.no_horizontal_overflow()
    c.that(ok, why)
    c.done()


@pytest.mark.console_allow(OFFLINE_FRAME)
def test_ipad_split_view_keeps_the_list_beside_the_talk(page):
    page.set_viewport(*VIEWPORTS["ipad"])
    page.open("/conference/conferences/202510")
    c = Checks()
    c.that(visible(page, "#conference-list") and visible(page, ".split__placeholder"), "list and placeholder side by side")
    marker = page.mark()
    first = page.finds("#conference-results a.cell__main")[0]
    title = first.find_element(By.CSS_SELECTOR, ".cell__title").text
    tap(page, first)
    wait_h1(page, title)
    c.equal(page.marker(), marker, "no page load")
    c.that(visible(page, "#conference-list"), "the list stays on the left")
    c.that(visible(page, "#conference-talk"), "the talk is on the right")
    primary, detail = page.rect("#conference-list"), page.rect(".split__detail")
    c.that(primary and detail and primary["right"] <= detail["left"], f"columns side by side: {primary} / {detail}")
    c.equal(page.text("#conference-results .cell--selected .cell__title"), title, "the open talk is selected in the list")
    ok, why = page.no_horizontal_overflow()
    c.that(ok, why)
    c.done()


@pytest.mark.console_allow(OFFLINE_FRAME)
@pytest.mark.parametrize("viewport", ["iphone-portrait", "ipad"])
def test_citation_index_from_volume_to_citing_talk(page, viewport):
    page.set_viewport(*VIEWPORTS[viewport])
    page.open("/conference")
    click_text(page, "#conference-tabs a", "Citations")
    wait_h1(page, "Citations")
    c = Checks()
    headers = [e.text for e in page.finds(".list-section__header")]
    c.that(headers and headers[0].startswith("OLD TESTAMENT ("), f"volumes with counts: {headers[:2]}")
    click_text(page, "a.cell__main", "Mark")
    wait_h1(page, "Mark")
    click_text(page, "a.cell__main", "Mark 9")
    wait_h1(page, "Mark 9")
    click_text(page, "a.cell__main", "Verse 33")
    wait_h1(page, "Mark 9:33")
    c.that("Jeffrey R. Holland" in page.text("#conference-results"), "citing talk with its speaker")
    c.that("Apr 2025" in page.text("#conference-results"), "citing talk with its conference")
    click_text(page, "#conference-results a.cell__main", "As a Little Child")
    wait_h1(page, "As a Little Child")
    c.equal(page.text(".navbar__back-label"), "Mark 9:33", "back to the verse")
    # The talk's own citations lead back into the index.
    click_text(page, "#conference-talk-citations a.cell__main", "Mosiah 3:19")
    wait_h1(page, "Mosiah 3:19")
    c.done()


@pytest.mark.console_allow(OFFLINE_FRAME)
def test_speakers_a_to_z_with_section_index(page):
    page.open("/conference/speakers")
    c = Checks()
    letters = [a.get_attribute("textContent") for a in page.finds(".section-index__letters a")]
    c.that(letters[:2] == ["A", "B"] and len(letters) > 10, f"section index letters: {letters}")
    click(page, 'details.section-index > summary')
    click(page, '.section-index__letters a[href="#section-H"]')
    page.wait("document.querySelector('#section-H').getBoundingClientRect().top < 200", 10, "section H scrolled into view")
    click_text(page, "#section-H a.cell__main", "Jeffrey R. Holland")
    wait_h1(page, "Jeffrey R. Holland")
    c.that("As a Little Child" in page.text("#conference-results"), "the speaker's talks")
    c.done()


@pytest.mark.console_allow(OFFLINE_FRAME)
def test_search_as_you_type(page):
    page.open("/conference/search")
    marker = page.mark()
    field = page.find("#conference-search-field")
    field.send_keys("holl")
    page.wait("document.querySelector('#conference-results')?.textContent.includes('As a Little Child')", 10,
              "results did not appear while typing")
    c = Checks()
    c.equal(page.marker(), marker, "results came without a page load")
    c.equal(page.path(), "/conference/search?q=holl", "the URL follows the query")
    c.equal(page.js("return document.activeElement?.id"), "conference-search-field", "focus stays in the field")
    field = page.find("#conference-search-field")
    field.send_keys("andxyz")
    page.wait("document.querySelector('#conference-empty')?.textContent.includes('hollandxyz')", 10, "no-match message")
    c.done()


def test_search_without_javascript(page):
    page.disable_scripts()
    page.open("/conference/search")
    field = page.find("#conference-search-field")
    field.send_keys("faith")
    click(page, ".conference-search button[type=submit]")
    page.wait("location.search === '?q=faith'", 10, "the form did not submit")
    assert "Faith: A Bond of Trust and Loyalty" in page.text("#conference-results")


@pytest.mark.console_allow(OFFLINE_FRAME)
@pytest.mark.parametrize("scheme", SCHEMES)
def test_contrast_of_conference_screens(page, scheme):
    page.set_scheme(scheme)
    failures = []
    for path in ["/conference", "/conference/talks/8769", "/conference/settings", "/conference/citations"]:
        page.open(path)
        result = page.js(CONTRAST_JS, "[data-screen]")
        if result["failures"]:
            failures.append(f"{path}: " + format_contrast_failures(result))
    assert not failures, "\n".join(failures)


# --------------------------------------------------------------------------- installing (a server of its own)


@pytest.fixture(scope="module")
def install_server(tmp_path_factory, sci_manifest, murals_service):
    # Every outside service points at a loopback fixture, as for the session server.
    srv = PocketServer(log_path=ARTIFACTS / "server-conference.log", data_dir=tmp_path_factory.mktemp("pocket-conference"),
                       env={"POCKET_SCI_MANIFEST_URL": sci_manifest.manifest_url, **murals_service.env()})
    srv.start(timeout=30)
    yield srv
    sci_manifest.mode = "good"
    assert srv.stop(timeout=10) == 0


@pytest.fixture
def waiting_manifest(driver, tmp_path, murals_service):
    """A server of its own whose manifest host holds the start-up check's request (as an unreachable
    one keeps a client waiting up to its timeout) until the test sets `release`; and its page."""
    manifest = SCIManifestServer(tmp_path / "sci").start()
    manifest.mode = "hang"
    srv = PocketServer(log_path=ARTIFACTS / "server-conference-hang.log", data_dir=tmp_path / "data",
                       env={"POCKET_SCI_MANIFEST_URL": manifest.manifest_url, **murals_service.env()})
    try:
        srv.start(timeout=30)
        page = Page(driver, srv.base_url)
        page.reset()
        yield manifest, page
    finally:
        manifest.release.set()
        srv.stop(timeout=10)
        manifest.stop()


BANNER_ACTION = "#conference-sample-banner .conference-banner__action"


def test_while_the_manifest_host_keeps_pocket_waiting_the_banner_says_so_then_changes_by_itself(waiting_manifest):
    """The banner and Settings say the server is being asked, not "not checked yet", and when the
    answer comes (a host that is down) both change to "cannot be reached now" without a tap."""
    manifest, page = waiting_manifest
    page.open("/conference")
    page.wait("!!document.querySelector('#conference-sample-banner')", 10, "no sample banner")
    assert page.text(BANNER_ACTION) == "Install the full database (asking its server now)"
    page.open("/conference/settings")
    assert page.text("#conference-check-status") == "Asking the manifest’s server now…"
    assert "/sci-core.json" in manifest.requests, "Pocket has not asked the manifest host"
    manifest.release.set()
    page.wait("document.querySelector('#conference-check-status')?.textContent === 'The last check did not reach the manifest.'", 15,
              "Settings did not change when the check ended")
    page.open("/conference")
    assert page.text(BANNER_ACTION) == "Install the full database (its server cannot be reached now)"


def test_the_banner_changes_by_itself_when_the_start_up_check_ends(waiting_manifest):
    manifest, page = waiting_manifest
    page.open("/conference")
    assert page.text(BANNER_ACTION) == "Install the full database (asking its server now)"
    manifest.mode = "good"
    manifest.release.set()
    page.wait(f"document.querySelector({BANNER_ACTION!r})?.textContent.startsWith('Download the full database (')", 15,
              "the banner did not change when the check ended")


@pytest.fixture
def install_page(driver, install_server):
    p = Page(driver, install_server.base_url)
    p.reset()
    yield p


def test_failing_download_says_why_and_the_sample_keeps_serving(install_page, sci_manifest):
    page = install_page
    sci_manifest.mode = "bad-md5"
    page.open("/conference/settings")
    submit(page, "#conference-check-button")
    page.wait("!!document.querySelector('#conference-install-button')", 10, "no download offered after checking")
    submit(page, "#conference-install-button")
    page.wait("!!document.querySelector('#conference-install-failure')", 15, "no failure message")
    c = Checks()
    message = page.text("#conference-install-failure")
    c.that("is damaged: its MD5 is" in message and "The previous database is still in use." in message, message)
    c.that(visible(page, "#conference-sample-banner"), "still the sample")
    c.equal(page.text("#conference-db-label"), "Sample data (April and October 2025)", "database in use")
    page.open("/conference")
    c.equal([e.text for e in page.finds("#conference-list .cell__title")], ["Oct 2025", "Apr 2025"], "the sample still serves")
    c.done()


def test_download_shows_live_progress_survives_reload_and_removes_the_banner(install_page, sci_manifest):
    page = install_page
    sci_manifest.mode = "slow"
    page.open("/conference/settings")
    submit(page, "#conference-check-button")
    page.wait("!!document.querySelector('#conference-install-button')", 10, "no download offered")
    c = Checks()
    c.that(visible(page, "#conference-sample-banner"), "sample banner before the install")
    marker = page.mark()
    click(page, "#conference-install-button")
    # The bar is patched in over Server-Sent Events while the zip trickles in.
    page.wait("(() => { const b = document.querySelector('#conference-install-bar');"
              " return b && b.max > 1 && b.value > 0 && b.value < b.max; })()", 10, "no determinate progress bar mid-download")
    c.equal(page.marker(), marker, "progress arrived without a page load")
    bytes_text = page.text("#conference-install-bytes") or ""
    c.that(" of " in bytes_text and "KB" in bytes_text, f"bytes of total: {bytes_text!r}")
    # A reload during the install shows the running install's progress at once.
    page.driver.refresh()
    page.wait_ready()
    page.wait("!!document.querySelector('#conference-install-bar') || !!document.querySelector('#conference-install-success')",
              10, "after a reload the install is not shown")
    page.wait("document.querySelector('#conference-db-label')?.textContent === 'Database version 2'", 20,
              "the install did not finish (or the page did not reload with the new database)")
    c.equal(page.text("#conference-install-success"), "Installed version 2.", "outcome")
    c.equal(page.text("#conference-db-label"), "Database version 2", "database in use")
    c.that(not page.exists("#conference-sample-banner"), "the sample banner is gone")
    page.open("/conference")
    c.that("Database version 2 · Last updated 2026-01-31" in page.text("#conference-footer"), page.text("#conference-footer"))
    c.that(not page.exists("#conference-sample-banner"), "no banner on the conference list")
    c.done()


def test_import_an_uploaded_database(install_page, tmp_path):
    page = install_page
    db = make_sci_database(tmp_path / "core.77.db", "2026-03-03 00:00:00")
    page.open("/conference/settings")
    page.find("#conference-import-file").send_keys(str(db))
    submit(page, "#conference-import-button")
    page.wait("document.querySelector('#conference-db-label')?.textContent === 'Imported database core.77.db'", 20,
              "the import did not finish (or the page did not reload with the new database)")
    c = Checks()
    c.equal(page.text("#conference-install-success"), "Imported core.77.db.", "outcome")
    c.equal(page.text("#conference-db-updated"), "2026-03-03 00:00:00", "its last_updated")
    c.done()
